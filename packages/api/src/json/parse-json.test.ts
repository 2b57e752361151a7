import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseJson } from './parse-json.js';

/**
 * V8 13.6 misreads a key with an escape when the object's shape so far has one known next key
 * whose raw text the escaped spelling begins with (nodejs/node#63785): after `{"p":1,"\\":1}`,
 * `{"p":1,"\u0061":1}` reads as `{"p":1,"\\":1}`. Shapes are shared by the whole process, so
 * every test object starts with a key of its own, `fresh()`, and the poisoning text first.
 */
let serial = 0;
const fresh = (): string => `~${serial++}`;
const u = (code: number, upper = false): string => {
  const hex = code.toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};

/** The string with each lone surrogate replaced by U+FFFD. */
const wellFormed = (s: string): string => (s as unknown as { toWellFormed(): string }).toWellFormed();

describe('parseJson', () => {
  it('reads one-character keys spelled as an escape as themselves after the key "\\\\"', () => {
    const spellings: [string, string][] = [
      ...Array.from({ length: 0x800 }, (_, code): [string, string] => [u(code), String.fromCharCode(code)]),
      ...Object.entries({
        '\\"': '"',
        '\\\\': '\\',
        '\\/': '/',
        '\\b': '\b',
        '\\f': '\f',
        '\\n': '\n',
        '\\r': '\r',
        '\\t': '\t',
      }),
    ];
    for (const [spelling, key] of spellings) {
      const first = fresh();
      JSON.parse(`{"${first}":1,"\\\\":1}`);
      expect(parseJson(`{"${first}":1,"${spelling}" :2}`)).toEqual({ [first]: 1, [key]: 2 });
    }
  });

  it('reads longer keys with escapes as themselves after keys of their length spelled as their raw text', () => {
    const first = fresh();
    JSON.parse(`{"${first}":1,"example.com\\\\/tea":1}`);
    expect(parseJson(`{"${first}":1,"example.com\\/team":2}`)).toEqual({ [first]: 1, 'example.com/team': 2 });
  });

  it('keeps the order of members and nested objects, and reads values and longer keys as JSON.parse does', () => {
    const text = `{"b":1,"${u(0x61)}":{"\\\\":2,"${u(1)}":[{"${u(0x22)}":"\\"${u(0x61)}\\":"}]},"${u(0x61)}b":3,"3":4}`;
    expect(JSON.stringify(parseJson(text))).toBe(
      JSON.stringify({ 3: 4, b: 1, a: { '\\': 2, '\u0001': [{ '"': '"a":' }] }, ab: 3 }),
    );
  });

  it("keeps JSON.parse's rule for repeated keys, whatever their spelling: first place, last value", () => {
    expect(JSON.stringify(parseJson(`{"${u(1)}":1,"x":2,"${u(1, true)}":3}`))).toBe(
      JSON.stringify({ '\u0001': 3, x: 2 }),
    );
    expect(JSON.stringify(parseJson(`{"a":1,"x":2,"${u(0x61)}":3,"a":4}`))).toBe(JSON.stringify({ a: 4, x: 2 }));
  });

  it('does not mistake strings that hold a key-like text, or texts holding its placeholder, for keys', () => {
    expect(parseJson(`["\\"${u(0x61)}\\":", "\\\\"]`)).toEqual([`"a":`, '\\']);
    const withMark = `{"${u(1)}":1,"\ue000${u(0xe001)}x":2}`;
    expect(Object.keys(parseJson(withMark) as object)).toEqual(['\u0001', '\ue000\ue001x']);
  });

  it('names keys back whichever characters the text holds, one-byte ones included', () => {
    for (const held of [
      '',
      '\u00ff',
      '\u00ff\u00fe',
      '\u00ff\u00fe\u00fd\ue000',
      '\\u00FF\u00fe\\u00fd\ue000\ue001\ue002',
    ]) {
      const text = `{"${u(1)}":1,"${u(0x22)}${held}":"${held}","x":{"${u(1)}":[{"a${u(0x5c)}":2}]},"${u(1)}":3}`;
      expect(JSON.stringify(parseJson(text))).toBe(JSON.stringify(JSON.parse(text)));
    }
  });

  it('reads a text that holds every character as JSON.parse does', () => {
    const every = Array.from({ length: 0x10000 }, (_, c) =>
      c < 0x20 || c === 0x22 || c === 0x5c ? '' : String.fromCharCode(c),
    ).join('');
    const text = `{"${u(1)}":1,"${u(0x61)}":"${every}","x":"${u(0xe000)}"}`;
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it("reads a lone surrogate's escape as U+FFFD, as Go's encoding/json does, in keys and values at any depth", () => {
    expect(Object.keys(parseJson(`{"${u(0xd800)}":1}`) as object)).toEqual(['\ufffd']);
    expect(parseJson(`"${u(0xd83d)}${u(0xd83d)}${u(0xde00)}"`)).toBe('\ufffd\u{1f600}');
    expect(parseJson(`"${u(0xde00)}${u(0xd83d)}x"`)).toBe('\ufffd\ufffdx');
    expect(
      parseJson(`{"a":[{"b":"x${u(0xdbff)}"}],"__proto__":"${u(0xdc00)}","${u(0xd800)}":1,"${u(0xd801)}":2}`),
    ).toEqual(JSON.parse('{"a":[{"b":"x\ufffd"}],"__proto__":"\ufffd","\ufffd":2}'));
    expect(Object.keys(parseJson(`{"z":1,"${u(0xd800)}":2,"${u(0xdc00)}":3}`) as object)).toEqual(['z', '\ufffd']);
    // a pair, an escaped backslash before "ud800" and raw characters stay as they are
    expect(parseJson(`["${u(0xd83d)}${u(0xde00)}","\\\\ud800","\u{1f600}"]`)).toEqual([
      '\u{1f600}',
      '\\ud800',
      '\u{1f600}',
    ]);
  });

  it('reads any string JSON.stringify writes as Go reads it: the string made well-formed (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (k, v) => {
        expect(parseJson(JSON.stringify({ [k]: [v] }))).toEqual(
          JSON.parse(JSON.stringify({ [wellFormed(k)]: [wellFormed(v)] })),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("throws JSON.parse's own error for the text as given", () => {
    for (const bad of [
      `{"${u(0x61)}":}`,
      `{"${u(0x61)}":1,}`,
      `"x"${u(0x61)}":1`,
      `{"${u(0x61)}" 1}`,
      // a raw control character in a key that also holds an escape (it was read as a key)
      '{"\u0001\\\\":0}',
      `{"a${u(0x62)}\t":0}`,
    ]) {
      let expected = '';
      try {
        JSON.parse(bad);
      } catch (err) {
        expected = (err as Error).message;
      }
      expect(expected).not.toBe('');
      expect(() => parseJson(bad)).toThrow(expected);
    }
  });

  /** Object members as a client may spell them: every character literal, short-escaped or \\u-escaped. */
  type Member = {
    readonly key: string;
    readonly spelling: string;
    /** A key as long as `key` that reads as the first characters of `spelling`'s raw text. */
    readonly poison: string;
    readonly value: Value;
  };
  type Value =
    { readonly scalar: string } | { readonly members: readonly Member[] } | { readonly array: readonly Value[] };
  /** Value texts and what they mean (values never met the bug, but they sit beside keys here). */
  const scalars: Readonly<Record<string, unknown>> = {
    '1': 1,
    null: null,
    '"\\\\"': '\\',
    [`"${u(0x61)}"`]: 'a',
    [`"\u00e9${u(1)}"`]: '\u00e9\u0001',
    '"\\n\\""': '\n"',
    '"a:\\"b\\":"': 'a:"b":',
  };
  const keyChars = [
    'a',
    'Z',
    '0',
    '\\',
    '"',
    '/',
    '\n',
    '\u0001',
    '\u001f',
    '\u00e9',
    '\ud83d',
    '\u2028',
    '\ue000',
    ' ',
  ];
  const spellChar = (c: string, how: number): string => {
    const code = c.charCodeAt(0);
    const plain = JSON.stringify(c).slice(1, -1);
    if (how === 0 && !plain.startsWith('\\u')) return plain;
    if (how === 1 && code >= 0x20 && c !== '"' && c !== '\\' && !(code >= 0xd800 && code <= 0xdfff)) return c;
    return u(code, how === 2);
  };
  const { value: valueArb } = fc.letrec<{ value: Value; member: Member }>((tie) => ({
    member: fc
      .tuple(
        fc.array(fc.constantFrom(...keyChars), { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(3), { minLength: 3, maxLength: 3 }),
        tie('value'),
      )
      .map(([chars, hows, value]) => {
        const spelling = chars.map((c, i) => spellChar(c, hows[i]!)).join('');
        return {
          key: chars.join(''),
          spelling: `"${spelling}"`,
          poison: JSON.stringify(spelling.slice(0, chars.length)),
          value,
        };
      }),
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...Object.keys(scalars)).map((scalar) => ({ scalar })),
      fc.array(tie('member'), { maxLength: 4 }).map((members) => ({ members })),
      fc.array(tie('value'), { maxLength: 3 }).map((array) => ({ array })),
    ),
  }));
  /** The text of a value; each object starts with its own key (`first` and its place). */
  const textOf = (v: Value, first: string, poisoned = false): string =>
    'scalar' in v
      ? v.scalar
      : 'array' in v
        ? `[${v.array.map((x, i) => textOf(x, `${first}.${i}`, poisoned)).join(',')}]`
        : `{${[`"${first}":0`, ...v.members.map((m, i) => `${poisoned ? m.poison : m.spelling}:${textOf(m.value, `${first}.${i}`, poisoned)}`)].join(',')}}`;
  /** What JSON says the text means (as Go reads it: a lone surrogate is U+FFFD): members in first place with their last value. */
  const meaning = (v: Value, first: string): unknown => {
    if ('scalar' in v) return scalars[v.scalar];
    if ('array' in v) return v.array.map((x, i) => meaning(x, `${first}.${i}`));
    const o: Record<string, unknown> = { [first]: 0 };
    v.members.forEach((m, i) =>
      Object.defineProperty(o, wellFormed(m.key), {
        value: meaning(m.value, `${first}.${i}`),
        writable: true,
        enumerable: true,
        configurable: true,
      }),
    );
    return o;
  };

  it('reads every spelling of every key as JSON says, after texts that poison the same shapes (property)', () => {
    fc.assert(
      fc.property(valueArb, fc.boolean(), (v, poison) => {
        const first = fresh();
        if (poison) JSON.parse(textOf(v, first, true));
        expect(JSON.stringify(parseJson(textOf(v, first)))).toBe(JSON.stringify(meaning(v, first)));
      }),
      { numRuns: 3000 },
    );
  });
});
