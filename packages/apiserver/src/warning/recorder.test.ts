import { describe, expect, it } from '@jest/globals';
import { maxWarningItemRunes, maxWarningTotalRunes, warningHeaders, warningHeaderValue } from './recorder.js';

const text = (header: string): string => header;

describe('warningHeaderValue (net.NewWarningHeader)', () => {
  it('quotes the text, escaping only " and \\', () => {
    expect(warningHeaderValue('unknown field "a\\b"')).toBe('299 - "unknown field \\"a\\\\b\\""');
  });
  it('writes non-ASCII runes as QuoteToASCII escapes, so the header is plain ASCII', () => {
    const h = warningHeaderValue('unknown field "é中😀"')!;
    expect(h).toMatch(/^[\x20-\x7e]*$/);
    expect(h).toBe('299 - "unknown field \\"\\\\u00e9\\\\u4e2d\\\\U0001f600\\""');
  });
  it('drops text with control characters or invalid UTF-8, as Kubernetes does', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\u0000', 'a\u007f', 'a\u0085', 'a\ud800b', 'a\udc00']) {
      expect(warningHeaderValue(bad)).toBeUndefined();
    }
  });
});

describe('warningHeaders (the warning recorder)', () => {
  it('deduplicates and drops empty texts, keeping the order', () => {
    expect(warningHeaders(['b', 'a', 'b', '', 'a']).map(text)).toEqual(['299 - "b"', '299 - "a"']);
  });
  it('sends warnings whole while they fit in the total', () => {
    const ws = Array.from({ length: 4 }, (_, i) => `${i}`.padEnd(1000, 'x'));
    expect(warningHeaders(ws)).toHaveLength(4);
  });
  it('past the total, cuts every warning to the item limit and stops at the total', () => {
    const ws = Array.from({ length: 100_000 }, (_, i) => `unknown field "f${i}"`.padEnd(300, 'x'));
    const hs = warningHeaders(ws);
    const lengths = hs.map((h) => Array.from(text(h)).length - '299 - ""'.length);
    for (const l of lengths) expect(l).toBeLessThanOrEqual(maxWarningItemRunes + 2);
    const sum = lengths.reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThan(maxWarningTotalRunes + maxWarningItemRunes + 100);
    expect(hs.length).toBe(Math.ceil(maxWarningTotalRunes / maxWarningItemRunes));
    expect(text(hs[0]!)).toContain('unknown field \\"f0\\"');
  });
  it('replays the earlier warnings truncated when the total is first passed', () => {
    const long = 'a'.repeat(3000);
    const hs = warningHeaders([long, 'b'.repeat(3000)]).map(text);
    expect(hs).toEqual([`299 - "${'a'.repeat(256)}"`, `299 - "${'b'.repeat(256)}"`]);
  });
});
