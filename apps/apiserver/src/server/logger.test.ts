import { describe, expect, it } from '@jest/globals';
import { formatText } from './logger.js';

describe('text log format', () => {
  it('prints time, level, message and the other fields', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.parse('2026-11-22T03:04:05.678Z'),
      component: 'kevents-apiserver',
      storage: 'memory',
      msg: 'storage: memory',
    });
    expect(formatText(line)).toBe('2026-11-22T03:04:05Z info  storage: memory\n');
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
