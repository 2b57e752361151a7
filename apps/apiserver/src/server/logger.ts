import pino from 'pino';
import type { Logger } from 'pino';

const levelNames: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const hidden = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'component']);

/** One log line for people: `2026-11-22T03:04:05Z info  message key=value ...`. */
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
  const fields = Object.entries(o)
    .filter(([k, v]) => !hidden.has(k) && !(typeof v === 'string' && msg.includes(v)))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${time} ${level} ${msg}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
}

/**
 * The server's logger: JSON lines (pino, for log collectors) or, with `format: 'text'`, one
 * readable line per record (what `npm start` uses).
 */
export function createLogger(options: { level: string; format: 'json' | 'text' }): Logger {
  const base = { level: options.level, base: { component: 'kevents-apiserver' } };
  if (options.format === 'json') return pino(base);
  return pino(base, { write: (line: string) => void process.stdout.write(formatText(line)) });
}
