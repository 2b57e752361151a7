import { FlagError, parseCommandLine } from '@kevents/cli';
import { loadConfigFile } from '@kevents/config';
import { configErrorRecords, formatConfigErrors, type ConfigErrorRecord } from './format.js';
import { validateConfigFlags, validateConfigUsage } from './flags.js';

/** Where `validate-config` writes. */
export interface ValidateConfigIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const usageHint = "Run 'kevents-apiserver validate-config --help' for usage.";

/**
 * `kevents-apiserver validate-config [-o json] [--group-domain=DOMAIN] FILE...`: validates every file
 * and returns the exit code (0 when all are valid, 1 when any is invalid, 2 on a usage error, with
 * pflag's wording). The `--group-domain` flag wins over `options.groupDomain`.
 */
export async function runValidateConfig(
  args: readonly string[],
  io: ValidateConfigIO,
  options: { groupDomain?: string } = {},
): Promise<number> {
  let line;
  try {
    line = parseCommandLine(args, validateConfigFlags);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    io.stderr(`Error: ${err.message}\n${usageHint}\n`);
    return 2;
  }
  if (line.help) {
    io.stdout(validateConfigUsage());
    return 0;
  }
  const files = line.args;
  if (files.length === 0) {
    io.stderr(`Error: requires at least 1 arg(s), only received 0\n${usageHint}\n`);
    return 2;
  }
  const output = line.options.output;
  const groupDomain = line.changed.has('group-domain')
    ? line.options.groupDomain
    : (options.groupDomain ?? line.options.groupDomain);

  const records: ConfigErrorRecord[] = [];
  const lines: string[] = [];
  for (const file of files) {
    const result = await loadConfigFile(file, { groupDomain });
    if (result.ok) lines.push(`${file}: valid`);
    else {
      lines.push(...formatConfigErrors(file, result.errors));
      records.push(...configErrorRecords(file, result.errors));
    }
  }
  if (output === 'json') io.stdout(`${JSON.stringify(records, null, 2)}\n`);
  else io.stdout(`${lines.join('\n')}\n`);
  return records.length ? 1 : 0;
}
