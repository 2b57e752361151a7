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

describe('warningHeaders at its bounds (recorder.AddWarning, k8s.io/apiserver endpoints/filters/warning.go)', () => {
  const h = (s: string): string => `299 - "${s}"`;
  const distinct = (n: number, runes: number, tag: string): string[] =>
    Array.from({ length: n }, (_, i) => `${tag}${i}`.padEnd(runes, '.'));

  it('sends warnings whose runes add up to exactly the total whole, and one rune more starts truncating', () => {
    const full = [...distinct(13, 300, 'w'), 'z'.repeat(maxWarningTotalRunes - 13 * 300)];
    expect(full.reduce((n, w) => n + w.length, 0)).toBe(maxWarningTotalRunes);
    expect(warningHeaders(full)).toEqual(full.map(h));
    const over = warningHeaders([...full, 'x']);
    expect(over).toEqual([...full.map((w) => h(w.slice(0, maxWarningItemRunes))), h('x')]);
  });

  it('counts runes, not UTF-16 code units', () => {
    const emoji = '😀'.repeat(2048);
    expect(warningHeaders([emoji, 'a'.repeat(2048)])).toHaveLength(2);
    expect(warningHeaders([emoji, 'a'.repeat(2049)])[0]).toBe(h('\\\\U0001f600'.repeat(maxWarningItemRunes)));
  });

  it('a long warning alone is sent whole: truncation starts only when the total is passed', () => {
    const long = 'y'.repeat(maxWarningTotalRunes);
    expect(warningHeaders([long])).toEqual([h(long)]);
  });

  it('once truncating, counts each later warning by its own runes until the total is reached again', () => {
    const first = ['a'.repeat(4000), 'b'.repeat(200)];
    const short = distinct(200, 20, 's');
    const hs = warningHeaders([...first, ...short]);
    // Replayed: 256 + 200 runes; then 20-rune warnings while fewer than 4096 runes are written.
    const fit = Math.ceil((maxWarningTotalRunes - 256 - 200) / 20);
    expect(hs).toEqual([h('a'.repeat(256)), h('b'.repeat(200)), ...short.slice(0, fit).map(h)]);
  });

  it('leaves out the warnings Kubernetes refuses, also when they are replayed truncated', () => {
    expect(warningHeaders(['bad\u0001', 'ok'])).toEqual([h('ok')]);
    const hs = warningHeaders(['bad\u0001', 'a'.repeat(3000), 'b'.repeat(3000)]);
    expect(hs).toEqual([h('a'.repeat(256)), h('b'.repeat(256))]);
  });

  it('writes U+FFFF as \\uffff and U+10000 as \\U00010000, as QuoteToASCII does', () => {
    expect(warningHeaderValue('\uffff')).toBe(h('\\\\uffff'));
    expect(warningHeaderValue('\u{10000}')).toBe(h('\\\\U00010000'));
  });
});
