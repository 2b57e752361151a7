import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { formatMicroTime } from './time.js';
import { microTimeLayout, parseMicroTime } from './micro-time.js';

const err = (v: string, rest: string, elem: string): string =>
  `parsing time ${JSON.stringify(v)} as "${microTimeLayout}": cannot parse ${JSON.stringify(rest)} as "${elem}"`;

describe('parseMicroTime (time.Parse with RFC3339Micro)', () => {
  it('accepts exactly six fractional digits with Z or an offset, normalized to UTC', () => {
    expect(parseMicroTime('2026-11-22T01:00:00.000000Z')).toEqual({ value: '2026-11-22T01:00:00.000000Z' });
    expect(parseMicroTime('2026-11-22T01:00:00.123456+00:00')).toEqual({ value: '2026-11-22T01:00:00.123456Z' });
    expect(parseMicroTime('2026-11-22T01:00:00.000001+02:30')).toEqual({ value: '2026-11-21T22:30:00.000001Z' });
    expect(parseMicroTime('2024-02-29T23:59:59,999999-01:00')).toEqual({ value: '2024-03-01T00:59:59.999999Z' });
    expect(parseMicroTime('2026-11-22T1:00:00.000000Z')).toEqual({ value: '2026-11-22T01:00:00.000000Z' });
  });

  it('refuses what Go refuses, with the text of Go’s time.ParseError', () => {
    const cases: [string, string][] = [
      ['2026-11-22T01:00:00Z', err('2026-11-22T01:00:00Z', 'Z', '.000000')],
      ['2026-11-22T01:00:00.123Z', err('2026-11-22T01:00:00.123Z', '.123Z', '.000000')],
      ['2026-11-22T01:00:00+00:00', err('2026-11-22T01:00:00+00:00', '+00:00', '.000000')],
      ['2026-11-22T01:00:00.123456789Z', err('2026-11-22T01:00:00.123456789Z', '789Z', 'Z07:00')],
      ['2026-11-22T01:00:00.000000z', err('2026-11-22T01:00:00.000000z', 'z', 'Z07:00')],
      ['2026-11-22 01:00:00.000000Z', err('2026-11-22 01:00:00.000000Z', ' 01:00:00.000000Z', 'T')],
      ['yesterday', err('yesterday', 'yesterday', '2006')],
      ['', err('', '', '2006')],
      ['2026-1-22T01:00:00.000000Z', err('2026-1-22T01:00:00.000000Z', '1-22T01:00:00.000000Z', '01')],
      ['2026-13-01T00:00:00.000000Z', 'parsing time "2026-13-01T00:00:00.000000Z": month out of range'],
      ['2026-02-29T00:00:00.000000Z', 'parsing time "2026-02-29T00:00:00.000000Z": day out of range'],
      ['2026-01-01T24:00:00.000000Z', 'parsing time "2026-01-01T24:00:00.000000Z": hour out of range'],
      ['2026-01-01T00:60:00.000000Z', 'parsing time "2026-01-01T00:60:00.000000Z": minute out of range'],
      ['2026-01-01T00:00:60.000000Z', 'parsing time "2026-01-01T00:00:60.000000Z": second out of range'],
      ['2026-01-01T00:00:00.000000Zx', 'parsing time "2026-01-01T00:00:00.000000Zx": extra text: "x"'],
      [
        '2026-01-01T00:00:00.000000Zé',
        'parsing time "2026-01-01T00:00:00.000000Z\\xc3\\xa9": extra text: "\\xc3\\xa9"',
      ],
      ['0000-01-01T00:00:00.000000+01:00', 'Time.MarshalJSON: year outside of range [0,9999]'],
    ];
    for (const [v, want] of cases) expect([v, parseMicroTime(v).error]).toEqual([v, want]);
  });

  it('round-trips every canonical MicroTime', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), fc.integer({ min: 0, max: 999999 }), (seconds, micros) => {
        const text = formatMicroTime({ seconds, micros });
        expect(parseMicroTime(text)).toEqual({ value: text });
      }),
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof parseMicroTime(s) === 'object'));
  });
});
