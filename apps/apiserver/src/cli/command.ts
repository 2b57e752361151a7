/** The kevents-apiserver command: flags, configuration files, then the server (main.ts loads it). */
import { loadConfigFile } from '@kevents/config';
import type { ConfigKind } from '@kevents/api';
import { FlagError } from '@kevents/cli';
import { servedVerbs } from '@kevents/apiserver';
import { parseApiserverFlags, usage } from './flags.js';
import { formatConfigErrors, runValidateConfig } from '../validate-config/index.js';
import { startApiserver } from '../server/start.js';

const io = { stdout: (s: string) => void process.stdout.write(s), stderr: (s: string) => void process.stderr.write(s) };

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'validate-config') return runValidateConfig(argv.slice(1), io);
  let parsed;
  try {
    parsed = parseApiserverFlags(argv);
  } catch (err) {
    if (err instanceof FlagError) {
      io.stderr(`Error: ${err.message}\nRun 'kevents-apiserver --help' for usage.\n`);
      return 2;
    }
    throw err;
  }
  const { options, args, changed } = parsed;
  if (parsed.help) {
    io.stdout(usage());
    return 0;
  }
  if (args.length) {
    io.stderr(`Error: unknown command "${args[0]}"\nRun 'kevents-apiserver --help' for usage.\n`);
    return 2;
  }
  const configFlags: [string, ConfigKind][] = [
    [options.authenticationConfig, 'AuthenticationConfiguration'],
    [options.authorizationConfig, 'AuthorizationConfiguration'],
    [options.egressSelectorConfigFile, 'EgressSelectorConfiguration'],
    [options.tracingConfigFile, 'TracingConfiguration'],
  ];
  const unknownVerbs = options.discoveryOmitVerbs.filter((v) => !(servedVerbs as readonly string[]).includes(v));
  if (unknownVerbs.length > 0) {
    io.stderr(
      `Error: invalid argument "${options.discoveryOmitVerbs.join(',')}" for "--discovery-omit-verbs" flag: unknown verb "${unknownVerbs[0]}" (served verbs: ${servedVerbs.join(', ')})\nRun 'kevents-apiserver --help' for usage.\n`,
    );
    return 2;
  }
  if (options.authorizationConfig && changed.has('authorization-mode')) {
    io.stderr(
      'kevents-apiserver: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined\n',
    );
    return 1;
  }
  let bad = false;
  const configs: Partial<Record<ConfigKind, { file: string; config: unknown }>> = {};
  for (const [file, kind] of configFlags) {
    if (!file) continue;
    const res = await loadConfigFile(file, { groupDomain: options.groupDomain, expectedKind: kind });
    if (!res.ok) {
      for (const line of formatConfigErrors(file, res.errors)) io.stderr(`${line}\n`);
      bad = true;
    } else {
      configs[kind] = { file, config: res.config };
    }
  }
  if (bad) {
    io.stderr('kevents-apiserver: refusing to start with an invalid configuration file\n');
    return 1;
  }
  if (configs.AuthenticationConfiguration && changed.has('anonymous-auth')) {
    const cfg = configs.AuthenticationConfiguration.config as { anonymous?: unknown };
    if (cfg.anonymous) {
      io.stderr(
        `${configs.AuthenticationConfiguration.file}: anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file\n`,
      );
      return 1;
    }
  }
  await startApiserver(options, configs);
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    io.stderr(`kevents-apiserver: ${err instanceof Error ? err.message : String(err)}\n`);
    // Exit now: a listener that did start (the secure port, when the insecure one failed) or an open
    // store connection would otherwise keep the process running, silently serving half of it.
    process.exit(1);
  },
);
