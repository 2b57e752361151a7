import { describe, expect, it } from '@jest/globals';
import { goQuote, goQuoteList } from './go-quote.js';

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

  it('quotes a []string as Go prints it', () => {
    expect(goQuoteList(['a', 'b c'])).toBe('["a" "b c"]');
  });
});
