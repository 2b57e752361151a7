import { describe, expect, it } from '@jest/globals';
import { formatBadValue, invalid } from './error.js';

describe('formatBadValue (Go field.Error.ErrorBody)', () => {
  it('prints nil as json null, unquoted', () => {
    expect(invalid('x', null, 'd').toString()).toBe('x: Invalid value: null: d');
    expect(formatBadValue(undefined)).toBe('null');
  });
  it('prints numbers and bools bare', () => {
    expect(formatBadValue(3)).toBe('3');
    expect(formatBadValue(false)).toBe('false');
  });
  it('quotes strings like %q: printable Unicode stays, control and format characters are escaped', () => {
    expect(formatBadValue('say "hi"\\')).toBe('"say \\"hi\\"\\\\"');
    expect(formatBadValue('é事😀')).toBe('"é事😀"');
    expect(formatBadValue('a\u0007\n\t\u0001\u007f')).toBe('"a\\a\\n\\t\\x01\\x7f"');
    expect(formatBadValue('\u200b\u0085')).toBe('"\\u200b\\u0085"');
    expect(formatBadValue('\ud800')).toBe('"\ufffd"');
  });
  it('prints objects as json.Marshal does, HTML-escaped', () => {
    expect(formatBadValue({ Kind: 'Pod', Name: '<a&b>' })).toBe('{"Kind":"Pod","Name":"\\u003ca\\u0026b\\u003e"}');
    expect(formatBadValue(['a'])).toBe('["a"]');
  });
});
