import { loadConfigFile } from '@kevents/config';
import { configErrorRecords, formatConfigErrors, type ConfigErrorRecord } from './format.js';

/** Where `validate-config` writes. */
export interface ValidateConfigIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const usage = 'usage: kevents-apiserver validate-config [-o text|json] FILE...';

/**
 * `kevents-apiserver validate-config [-o json] FILE...`: validates every file and returns the exit
 * code (0 when all are valid, 1 when any is invalid, 2 on a usage error).
 */
export async function runValidateConfig(
  args: string[],
  io: ValidateConfigIO,
  options: { groupDomain?: string } = {},
): Promise<number> {
  let output = 'text';
  let groupDomain = options.groupDomain;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-o' || a === '--output') output = args[++i] ?? '';
    else if (a.startsWith('-o=') || a.startsWith('--output=')) output = a.slice(a.indexOf('=') + 1);
    else if (a.startsWith('--group-domain=')) groupDomain = a.slice('--group-domain='.length);
    else if (a === '-h' || a === '--help') {
      io.stdout(`${usage}\n`);
      return 0;
    } else if (a.startsWith('-') && a !== '-') {
      io.stderr(`unknown flag: ${a}\n${usage}\n`);
      return 2;
    } else files.push(a);
  }
  if (output !== 'text' && output !== 'json') {
    io.stderr(`unsupported output format "${output}": use text or json\n`);
    return 2;
  }
  if (files.length === 0) {
    io.stderr(`no files given\n${usage}\n`);
    return 2;
  }

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
