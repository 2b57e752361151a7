import { describe, expect, it } from '@jest/globals';
import { createLogger, formatText } from './logger.js';

describe('text log format', () => {
  it('prints time, level, the component without its kevents- prefix, message and the other fields', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.parse('2026-11-22T03:04:05.678Z'),
      component: 'kevents-apiserver',
      storage: 'memory',
      msg: 'storage: memory',
    });
    expect(formatText(line)).toBe('2026-11-22T03:04:05Z info  [apiserver] storage: memory\n');
    const more = JSON.stringify({ level: 40, time: 0, msg: 'slow', ms: 12 });
    expect(formatText(more)).toBe('1970-01-01T00:00:00Z warn  slow  ms=12\n');
  });

  it('prints nested fields as JSON and passes through what is not JSON', () => {
    expect(formatText(JSON.stringify({ level: 50, time: 0, msg: 'boom', err: { message: 'x' } }))).toBe(
      '1970-01-01T00:00:00Z error boom  err={"message":"x"}\n',
    );
    expect(formatText('plain')).toBe('plain');
  });
});

describe('createLogger', () => {
  it('writes each record to stdout at once, as JSON with the component or as text, from the level on', () => {
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => lines.push(chunk) > 0) as typeof process.stdout.write;
    try {
      const json = createLogger({ component: 'kevents-test', level: 'info', format: 'json' });
      json.debug('hidden');
      json.info({ address: '127.0.0.1:1' }, 'serving');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 30,
        component: 'kevents-test',
        address: '127.0.0.1:1',
        msg: 'serving',
      });
      createLogger({ component: 'kevents-test', level: 'warn', format: 'text' }).warn({ n: 1 }, 'slow');
      expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ warn {2}\[test\] slow {2}n=1\n$/);
    } finally {
      process.stdout.write = write;
    }
  });
});
