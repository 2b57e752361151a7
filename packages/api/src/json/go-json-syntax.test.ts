import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { goJsonSyntaxError } from './go-json-syntax.js';

describe('goJsonSyntaxError (Go encoding/json scanner errors)', () => {
  it('words each error as Go 1.19 does (table from Go itself)', () => {
    const cases: [string, string][] = [
      ['', 'unexpected end of JSON input'],
      [' ', 'unexpected end of JSON input'],
      ['{', 'unexpected end of JSON input'],
      ['[1,', 'unexpected end of JSON input'],
      ['{"a"', 'unexpected end of JSON input'],
      ['{"a":', 'unexpected end of JSON input'],
      ['-', "invalid character ' ' in numeric literal"],
      ['1.', "invalid character ' ' after decimal point in numeric literal"],
      ['1e', "invalid character ' ' in exponent of numeric literal"],
      ['1e+', "invalid character ' ' in exponent of numeric literal"],
      ['tr', "invalid character ' ' in literal true (expecting 'u')"],
      ['nul', "invalid character ' ' in literal null (expecting 'l')"],
      ['fals', "invalid character ' ' in literal false (expecting 'e')"],
      ['"abc', 'unexpected end of JSON input'],
      ['"\\', "invalid character ' ' in string escape code"],
      ['"\\u12', "invalid character ' ' in \\u hexadecimal character escape"],
      ['"\\x"', "invalid character 'x' in string escape code"],
      ['[1,]', "invalid character ']' looking for beginning of value"],
      ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
      ['{1:2}', "invalid character '1' looking for beginning of object key string"],
      ['\ufeff{}', "invalid character '\u00ef' looking for beginning of value"],
      ['{"a" 1}', "invalid character '1' after object key"],
      ['[1 2]', "invalid character '2' after array element"],
      ['01', "invalid character '1' after top-level value"],
      ['\u00a0', "invalid character '\u00c2' looking for beginning of value"],
      ['\u00ad', "invalid character '\u00c2' looking for beginning of value"],
      ['"a\u0001"', "invalid character '\\x01' in string literal"],
      ['{"a":1}x', "invalid character 'x' after top-level value"],
      ['{"a":}', "invalid character '}' looking for beginning of value"],
      ['x', "invalid character 'x' looking for beginning of value"],
      ["'", "invalid character '\\'' looking for beginning of value"],
      ['[-a]', "invalid character 'a' in numeric literal"],
      ['1.x', "invalid character 'x' after decimal point in numeric literal"],
      ['1ex', "invalid character 'x' in exponent of numeric literal"],
      ['\u00e9', "invalid character '\u00c3' looking for beginning of value"],
      ['\u0085', "invalid character '\u00c2' looking for beginning of value"],
      ['{"a":1]', "invalid character ']' after object key:value pair"],
      ['[1}', "invalid character '}' after array element"],
      ['{"a":1 "b"', "invalid character '\"' after object key:value pair"],
      ['\u007f', "invalid character '\\x7f' looking for beginning of value"],
    ];
    for (const [text, message] of cases) expect([text, goJsonSyntaxError(text)]).toEqual([text, message]);
  });

  it('finds nothing wrong in valid JSON, and something in what JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
        expect(goJsonSyntaxError(JSON.stringify(v, null, pretty ? 2 : undefined))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(goJsonSyntaxError(text) === undefined).toBe(valid);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses nesting past 10,000 as Go does, without recursion', () => {
    expect(goJsonSyntaxError('['.repeat(10_000) + ']'.repeat(10_000))).toBeUndefined();
    expect(goJsonSyntaxError('['.repeat(10_001))).toBe("invalid character '[' exceeded max depth");
    expect(goJsonSyntaxError('[{"a":'.repeat(5_001))).toBe("invalid character '[' exceeded max depth");
  });
});
