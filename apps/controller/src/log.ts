/** A line logger: JSON objects (`--log-format=json`) or readable text. */
export type Log = (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;

export function makeLog(format: string): Log {
  return (level, msg, fields = {}) => {
    const time = new Date().toISOString();
    const line =
      format === 'text'
        ? `${time} ${level.toUpperCase()} ${msg}${Object.entries(fields)
            .map(([k, v]) => ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
            .join('')}`
        : JSON.stringify({ level, time, msg, ...fields });
    (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
  };
}
