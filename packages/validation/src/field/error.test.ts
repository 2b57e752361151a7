import { describe, expect, it } from '@jest/globals';
import { aggregateMessage, formatBadValue, invalid, invalidEach, pushInvalid, uniqueErrors } from './error.js';
import type { FieldError } from './error.js';

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

describe('FieldError.body', () => {
  it('formats the bad value once, however often the error is printed (a 422 prints it as its cause and in its message)', () => {
    let formatted = 0;
    const value = {
      toJSON: () => {
        formatted++;
        return 'v';
      },
    };
    const e = invalid('spec.x', value, 'detail');
    expect(e.body()).toBe('Invalid value: "v": detail');
    expect(e.toString()).toBe('spec.x: Invalid value: "v": detail');
    expect(aggregateMessage([e, e])).toBe('spec.x: Invalid value: "v": detail');
    expect(formatted).toBe(1);
  });
});

describe('invalidEach', () => {
  it('formats one value once for all its messages', () => {
    let formatted = 0;
    const value = {
      toJSON: () => {
        formatted++;
        return 'v';
      },
    };
    const errs = invalidEach('metadata.labels', value, ['too long', 'not a label value']);
    const pushed: FieldError[] = [];
    pushInvalid(pushed, ['a', 'b', 'c'], () => 'x', value);
    expect(errs.map(String)).toEqual([
      'metadata.labels: Invalid value: "v": too long',
      'metadata.labels: Invalid value: "v": not a label value',
    ]);
    expect(pushed.map((e) => e.body())).toEqual([
      'Invalid value: "v": a',
      'Invalid value: "v": b',
      'Invalid value: "v": c',
    ]);
    expect(formatted).toBe(2);
    expect(invalidEach('p', 'v', [])).toEqual([]);
  });
});

describe('uniqueErrors (ErrorList.ToAggregate)', () => {
  it('keeps the first error of each message, in order', () => {
    const a = invalid('a', 'x', 'd');
    const b = invalid('b', 'x', 'd');
    const { indices, messages } = uniqueErrors([a, b, invalid('a', 'x', 'd'), b]);
    expect(indices).toEqual([0, 1]);
    expect(messages).toEqual(['a: Invalid value: "x": d', 'b: Invalid value: "x": d']);
    expect(aggregateMessage([a, b, a])).toBe('[a: Invalid value: "x": d, b: Invalid value: "x": d]');
  });
});
