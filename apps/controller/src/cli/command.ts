/** The kevents-controller command: flags, then the controller (main.ts loads it). */
import { createLogger, FlagError, youngGenerationSummary } from '@kevents/cli';
import { parseControllerFlags, usage } from './flags.js';
import { RetentionConfigError } from '../retention/retention-config.js';
import { buildController } from '../run.js';

function flagError(err: FlagError): never {
  process.stderr.write(`Error: ${err.message}\nRun 'kevents-controller --help' for usage.\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseControllerFlags(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof FlagError)) throw err;
  flagError(err);
}
if (parsed.help) {
  process.stdout.write(usage());
  process.exit(0);
}
const { options } = parsed;
const log = createLogger({ component: 'kevents-controller', level: options.logLevel, format: options.logFormat });
try {
  const manager = buildController(options, log);
  manager.stopOnSignals();
  await manager.start();
  const a = manager.probeAddress();
  if (a) log.info({ address: `${a.address}:${a.port}` }, 'serving /healthz /readyz /metrics');
  log.info({}, youngGenerationSummary());
} catch (err) {
  if (err instanceof FlagError) flagError(err);
  if (err instanceof RetentionConfigError) process.stderr.write(`${err.message}\n`);
  else log.error(`cannot start: ${String((err as Error).message ?? err)}`);
  process.exit(1);
}
