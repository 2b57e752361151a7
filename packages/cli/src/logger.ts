import pino from 'pino';
import type { Logger } from 'pino';

/** The levels `--log-level` accepts (pino's). */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The formats `--log-format` accepts. */
export const logFormats = ['json', 'text'] as const;

/** `--log-level` and `--log-format`, the same in both binaries. */
export const logFlags = {
  logLevel: {
    name: 'log-level',
    type: 'string',
    default: 'info',
    help: 'Log level: fatal, error, warn, info, debug, trace or silent.',
    values: logLevels,
  },
  logFormat: {
    name: 'log-format',
    type: 'string',
    default: 'json',
    help: 'Log format: json (one JSON object per line) or text (one readable line per record).',
    values: logFormats,
  },
} as const;

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** The binary (`kevents-apiserver`, `kevents-controller`): a `component` field of every JSON line. */
  readonly component: string;
  readonly level: (typeof logLevels)[number];
  readonly format: (typeof logFormats)[number];
}

const levelNames: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const hidden = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'component']);

/**
 * One log line for people: `2026-11-22T03:04:05Z info  [apiserver] message key=value ...`, the
 * component without its `kevents-` prefix (`npm start` interleaves two binaries' lines).
 */
export function formatText(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = new Date(Number(o['time'])).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const level = (levelNames[Number(o['level'])] ?? String(o['level'])).padEnd(5);
  const msg = String(o['msg'] ?? '');
  const component = typeof o['component'] === 'string' ? `[${o['component'].replace(/^kevents-/, '')}] ` : '';
  const fields = Object.entries(o)
    .filter(([k, v]) => !hidden.has(k) && !(typeof v === 'string' && msg.includes(v)))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${time} ${level} ${component}${msg}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
}

/**
 * The logger of both binaries (`--log-level`, `--log-format`): JSON lines on stdout (pino, for
 * log collectors) or, with `format: 'text'`, one readable line per record (what `npm start` uses).
 * Lines go through `process.stdout.write`, synchronous for files, pipes and terminals on Linux:
 * a line is out before what it announces can be observed (a probe answering, the process exiting).
 */
export function createLogger(options: LoggerOptions): Logger {
  const base = { level: options.level, base: { component: options.component } };
  const format = options.format === 'text' ? formatText : (line: string): string => line;
  return pino(base, { write: (line: string) => void process.stdout.write(format(line)) });
}

export type { Logger };
