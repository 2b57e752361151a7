#!/usr/bin/env node
import './node-version.js';
import { FlagError, parseFlags, usage } from './cli/flags.js';
import { makeLog } from './log.js';
import { RetentionConfigError } from './retention/retention-config.js';
import { buildController } from './run.js';

let flags;
try {
  flags = parseFlags(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof FlagError)) throw err;
  process.stderr.write(`Error: ${err.message}\nRun 'kevents-controller --help' for usage.\n`);
  process.exit(2);
}
if (flags['help'] === 'true') {
  process.stdout.write(usage());
  process.exit(0);
}
const log = makeLog(flags['log-format']!);
try {
  const manager = buildController(flags, log);
  manager.stopOnSignals();
  await manager.start();
  const a = manager.probeAddress();
  if (a) log('info', 'serving /healthz /readyz /metrics', { address: `${a.address}:${a.port}` });
} catch (err) {
  if (err instanceof FlagError) {
    process.stderr.write(`Error: ${err.message}\nRun 'kevents-controller --help' for usage.\n`);
    process.exit(2);
  }
  if (err instanceof RetentionConfigError) process.stderr.write(`${err.message}\n`);
  else log('error', `cannot start: ${String((err as Error).message ?? err)}`);
  process.exit(1);
}
