import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { goQuote, goQuoteList, isGoPrint } from './go-quote.js';

/** strconv.Quote a rune at a time: the reference the run-copying goQuote is checked against. */
function quoteByRune(s: string): string {
  const escapes: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '"': '\\"',
    '\\': '\\\\',
  };
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (escapes[ch] !== undefined) out += escapes[ch];
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else if (isGoPrint(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

describe("goQuote (Go's strconv.Quote)", () => {
  it.each([
    ['plain', '"plain"'],
    ['a\x07b\bc\fd\ne\rf\tg\vh', '"a\\ab\\bc\\fd\\ne\\rf\\tg\\vh"'],
    ['quote " and \\', '"quote \\" and \\\\"'],
    ['\x00\x1f\x7f', '"\\x00\\x1f\\x7f"'],
    ['é ü 日本', '"é ü 日本"'],
    ['\u00ad\u2028\ufeff', '"\\u00ad\\u2028\\ufeff"'],
    ['😀', '"😀"'],
    ['\u{e0001}', '"\\U000e0001"'],
    ['lone \ud800 surrogate', '"lone \ufffd surrogate"'],
  ])('%j → %s', (input, quoted) => {
    expect(goQuote(input)).toBe(quoted);
  });

  it('writes what quoting a rune at a time writes, for any UTF-16 text', () => {
    const unit = fc.oneof(
      fc.constantFrom('a', ' ', '"', '\\', '\n', '\x00', '\x7f', '\u00ad', '\ud800', '\udc00', '\u{1f600}', 'é'),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
        const s = parts.join('');
        expect(goQuote(s)).toBe(quoteByRune(s));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes the same for long texts: runs past the short-run length and escapes past the buffer', () => {
    const piece = fc.oneof(
      fc.constantFrom('"', '\\', '\x01', '\u00ad', '\ud800', '\u{e0001}', '😀', 'é'),
      fc.string({ unit: 'binary', maxLength: 80 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, fc.integer({ min: 1, max: 700 })), { maxLength: 8 }), (pieces) => {
        const s = pieces.map(([p, n]) => p.repeat(n)).join('');
        expect(goQuote(s)).toBe(quoteByRune(s));
      }),
      { numRuns: 200 },
    );
  });

  it('copies a long printable value in runs', () => {
    const long = 'a b '.repeat(750_000);
    expect(goQuote(long)).toBe(`"${long}"`);
  });

  it('quotes a []string as Go prints it', () => {
    expect(goQuoteList(['a', 'b c'])).toBe('["a" "b c"]');
  });
});
