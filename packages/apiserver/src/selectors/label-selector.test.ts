import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { lex, parseLabelSelector, SelectorParseError } from './label-selector.js';
import type { LexItem } from './label-selector.js';

/** The lexer as it was written first (a string built a character at a time): the reference for the one-pass lexer. */
function lexByCharacter(s: string): LexItem[] {
  const specials: Record<string, LexItem['tok']> = {
    ')': ')',
    ',': ',',
    '!': '!',
    '==': '==',
    '=': '=',
    '>': '>',
    '<': '<',
    '!=': '!=',
    '(': '(',
  };
  const isSpecial = (c: string): boolean => '=!(),><'.includes(c);
  const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
  const out: LexItem[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && isSpace(s[i]!)) i++;
    if (i >= s.length || s[i] === '\0') return [...out, { tok: 'end', lit: '' }];
    if (isSpecial(s[i]!)) {
      let buf = '';
      let last: LexItem | undefined;
      while (i < s.length && isSpecial(s[i]!)) {
        buf += s[i];
        const t = specials[buf];
        if (t) last = { tok: t, lit: buf };
        else if (last) break;
        i++;
      }
      out.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
      if (!last) return [...out, { tok: 'end', lit: '' }];
      continue;
    }
    let id = '';
    while (i < s.length && !isSpace(s[i]!) && !isSpecial(s[i]!) && s[i] !== '\0') id += s[i++];
    out.push({ tok: id === 'in' ? 'in' : id === 'notin' ? 'notin' : 'ident', lit: id });
  }
}

/** The message of the error `fn` throws (fails the test when it does not throw a SelectorParseError). */
const parseError = (s: string): string => {
  try {
    parseLabelSelector(s);
  } catch (err) {
    expect(err).toBeInstanceOf(SelectorParseError);
    expect((err as Error).name).toBe('SelectorParseError');
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(s)} parsed`);
};

const matches = (s: string, labels?: Record<string, string>): boolean => parseLabelSelector(s).matches(labels);

describe('parseLabelSelector', () => {
  it('treats a missing, empty or blank selector as "everything"', () => {
    for (const s of [undefined, '', '   ', '\t']) {
      const sel = parseLabelSelector(s);
      expect(sel.empty).toBe(true);
      expect(sel.matches(undefined)).toBe(true);
      expect(sel.matches({ a: 'b' })).toBe(true);
      expect(sel.toString()).toBe('');
    }
  });

  it('is not empty with one requirement, and prints its (trimmed) source', () => {
    const sel = parseLabelSelector('  a=b  ');
    expect(sel.empty).toBe(false);
    expect(sel.toString()).toBe('a=b');
  });

  it('reads undefined labels as no labels', () => {
    expect(matches('a', undefined)).toBe(false);
    expect(matches('!a', undefined)).toBe(true);
    expect(matches('a!=b', undefined)).toBe(true);
    expect(matches('a notin (b)', undefined)).toBe(true);
  });

  it('exists and does-not-exist', () => {
    expect(matches('a', { a: '' })).toBe(true);
    expect(matches('a', { b: 'a' })).toBe(false);
    expect(matches('!a', { a: '' })).toBe(false);
    expect(matches('!a', { b: 'x' })).toBe(true);
    expect(matches('a,b', { a: '1' })).toBe(false);
    expect(matches('a,b', { a: '1', b: '2' })).toBe(true);
    expect(matches('!a,b', { b: '2' })).toBe(true);
  });

  it('does not see inherited properties as labels', () => {
    expect(matches('toString')).toBe(false);
    expect(matches('!constructor', {})).toBe(true);
    expect(matches('constructor in (x)', {})).toBe(false);
  });

  it('=, == and != compare the value; != also matches a missing key', () => {
    expect(matches('a=b', { a: 'b' })).toBe(true);
    expect(matches('a==b', { a: 'b' })).toBe(true);
    expect(matches('a=b', { a: 'c' })).toBe(false);
    expect(matches('a=b', {})).toBe(false);
    expect(matches('a!=b', { a: 'b' })).toBe(false);
    expect(matches('a!=b', { a: 'c' })).toBe(true);
    expect(matches('a!=b', {})).toBe(true);
    expect(matches(' a = b ', { a: 'b' })).toBe(true);
  });

  it('reads a missing value after = as the empty value (Kubernetes does)', () => {
    expect(matches('a=', { a: '' })).toBe(true);
    expect(matches('a=', { a: 'x' })).toBe(false);
    expect(matches('a=', {})).toBe(false);
    expect(matches('a=,b', { a: '', b: 'x' })).toBe(true);
    expect(matches('a!=', { a: '' })).toBe(false);
    expect(matches('a!=', { a: 'x' })).toBe(true);
  });

  it('in and notin', () => {
    expect(matches('a in (x,y)', { a: 'y' })).toBe(true);
    expect(matches('a in (x,y)', { a: 'z' })).toBe(false);
    expect(matches('a in (x,y)', {})).toBe(false);
    expect(matches('a notin (x,y)', { a: 'y' })).toBe(false);
    expect(matches('a notin (x,y)', { a: 'z' })).toBe(true);
    expect(matches('a notin (x,y)', {})).toBe(true);
    expect(matches('a in(x),b notin(y)', { a: 'x', b: 'z' })).toBe(true);
    expect(matches('env in (prod, dev)', { env: 'dev' })).toBe(true);
  });

  it('reads empty values in a set as the empty value', () => {
    expect(matches('a in (,x)', { a: '' })).toBe(true);
    expect(matches('a in (x,,y)', { a: '' })).toBe(true);
    expect(matches('a in (x,,y)', { a: 'y' })).toBe(true);
    expect(matches('a in (,)', { a: '' })).toBe(true);
    expect(matches('a in (x,y)', { a: '' })).toBe(false);
    expect(matches('a notin (,x)', { a: '' })).toBe(false);
  });

  it('reads in and notin as values and keys where they are not operators', () => {
    expect(matches('a in (in,notin)', { a: 'notin' })).toBe(true);
    expect(matches('a=in', { a: 'in' })).toBe(true);
  });

  it('gt and lt compare integers, and never match a missing or non-integer value', () => {
    expect(matches('a>1', { a: '2' })).toBe(true);
    expect(matches('a>1', { a: '1' })).toBe(false);
    expect(matches('a>1', { a: '10' })).toBe(true);
    expect(matches('a>1', {})).toBe(false);
    expect(matches('a>1', { a: 'x' })).toBe(false);
    expect(matches('a>1', { a: '3x' })).toBe(false);
    expect(() => parseLabelSelector('a>-1')).toThrow(/values\[0\]\[a\]: Invalid value: "-1"/);
    expect(matches('a<1', { a: '0' })).toBe(true);
    expect(matches('a<1', { a: '1' })).toBe(false);
    expect(matches('a<1', { a: '-5' })).toBe(true);
    expect(matches('a<10', { a: '9' })).toBe(true);
    expect(matches('a<100', { a: '50' })).toBe(true);
    expect(matches('a>10', { a: '50' })).toBe(true);
    expect(matches('a<1', {})).toBe(false);
    expect(matches('a<1', { a: 'x' })).toBe(false);
    expect(matches('a<5', { a: 'x5' })).toBe(false);
    // Not integers for strconv.ParseInt, though Number() reads them.
    for (const v of ['1e3', '0x10', '5.0', ' 5', '5 ', '']) {
      expect(matches('a>1', { a: v })).toBe(false);
      expect(matches('a<1000', { a: v })).toBe(false);
    }
  });

  it('gt and lt read int64 values only, as strconv.ParseInt does', () => {
    expect(matches('a>9223372036854775806', { a: '9223372036854775807' })).toBe(true);
    expect(matches('a>1', { a: '9223372036854775808' })).toBe(false);
    expect(matches('a<1', { a: '-9223372036854775809' })).toBe(false);
    expect(() => parseLabelSelector('a>9223372036854775808')).toThrow(
      /values\[0\]: Invalid value: "9223372036854775808": for 'Gt', 'Lt' operators, the value must be an integer/,
    );
  });

  it('costs a label map about its own size, not the length of the selector', () => {
    // Counts what the matcher asks of the labels (every lookup goes through the proxy).
    let asked = 0;
    const counted = (labels: Record<string, string>): Record<string, string> =>
      new Proxy(labels, {
        get: (t, p) => (asked++, Reflect.get(t, p)),
        has: (t, p) => (asked++, Reflect.has(t, p)),
        ownKeys: (t) => (asked++, Reflect.ownKeys(t)),
        getOwnPropertyDescriptor: (t, p) => (asked++, Reflect.getOwnPropertyDescriptor(t, p)),
      });
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}`);
    const values = Array.from({ length: 5000 }, (_, i) => `v${i}`);
    const labels = { app: 'web', tier: 'front' };
    for (const sel of [
      keys.map((k) => `!${k}`).join(','),
      keys.map((k) => `${k}!=x`).join(','),
      Array.from({ length: 5000 }, () => '!k').join(','),
      Array.from({ length: 5000 }, () => 'app').join(','),
      Array.from({ length: 5000 }, () => 'app!=x').join(','),
      `app in (${values.join(',')})`,
      keys.join(','),
    ]) {
      const s = parseLabelSelector(sel);
      asked = 0;
      const got = s.matches(counted(labels));
      expect(asked).toBeLessThanOrEqual(12);
      expect(got).toBe(
        sel.startsWith('!') || sel.startsWith('k0!') || sel.startsWith('app,') || sel.startsWith('app!'),
      );
    }
  });

  it('refuses a non-integer after > or <', () => {
    for (const s of ['a>x', 'a<1.5', 'a>', 'a<,b', 'a>1x', 'a>x1'])
      expect(() => parseLabelSelector(s)).toThrow(SelectorParseError);
  });

  it("answers Kubernetes' message for a missing identifier after !", () => {
    expect(parseError('!')).toBe("unable to parse requirement: found '', expected: identifier");
    expect(parseError('!=a')).toBe("found '!=', expected: !, identifier, or 'end of string'");
  });

  it('refuses malformed selectors', () => {
    for (const s of [
      ',',
      ',a',
      'a,,b',
      '=b',
      'a b',
      'a!b',
      'a=b c',
      'a=b)',
      'a in x',
      'a in (x',
      'a in (x,=)',
      'a notin',
      '!a=b',
      '!!a',
      'a=(',
      ')',
      '(',
      'a in (==)',
      'a in (!=)',
      'a in (!)',
      'a in (<)',
      'a in (>)',
      'a in (=)',
      'a in (()',
      'a=!',
      'a==<',
      'a!=>',
    ]) {
      expect(parseError(s)).toMatch(/^(unable to parse requirement: )?(found '|values|key)/);
    }
  });

  it('reads repeated commas in a set as empty values, each comma read once (parseIdentifiersList)', () => {
    const values = (s: string) => parseLabelSelector(s).requirements[0]!.values;
    expect(values('a notin (2 , , )')).toEqual(['', '2']);
    expect(values('a in (x,,y)')).toEqual(['', 'x', 'y']);
    expect(values('a in (,,)')).toEqual(['']);
    expect(values('a in (x,,,)')).toEqual(['', 'x']);
  });

  it('names the key field <nil>, as labels.Parse does (its parser checks keys with its own nil path)', () => {
    expect(parseError('a_')).toBe(
      `unable to parse requirement: <nil>: Invalid value: "a_": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  });

  it('skips only the blanks the Go lexer skips: a no-break space is a key', () => {
    expect(parseLabelSelector(' \t\r\n ').empty).toBe(true);
    expect(parseError('\u00a0')).toMatch(/^unable to parse requirement: <nil>: Invalid value: "\\u00a0": name part/);
  });

  it('names the token it did not expect', () => {
    expect(parseError('a b')).toContain("found 'b'");
    expect(parseError('a=b c')).toContain("found 'c'");
    expect(parseError('a in x')).toContain("found 'x'");
    expect(parseError(',a')).toContain("found ','");
  });

  describe('properties', () => {
    const key = fc.stringMatching(/^[a-z0-9]([a-z0-9._-]{0,8}[a-z0-9])?$/).filter((k) => k !== 'in' && k !== 'notin');
    const value = fc.stringMatching(/^([A-Za-z0-9]([A-Za-z0-9._-]{0,6}[A-Za-z0-9])?)?$/);
    const int = fc.integer({ min: 0, max: 1000 });
    type Req = { text: string; holds: (labels: Record<string, string>) => boolean };
    const has = (l: Record<string, string>, k: string) => Object.prototype.hasOwnProperty.call(l, k);
    const requirement: fc.Arbitrary<Req> = fc.oneof(
      key.map((k) => ({ text: k, holds: (l: Record<string, string>) => has(l, k) })),
      key.map((k) => ({ text: `!${k}`, holds: (l: Record<string, string>) => !has(l, k) })),
      fc.tuple(key, fc.constantFrom('=', '==', ' = '), value).map(([k, op, v]) => ({
        text: `${k}${op}${v}`,
        holds: (l: Record<string, string>) => has(l, k) && l[k] === v,
      })),
      fc
        .tuple(key, value)
        .map(([k, v]) => ({ text: `${k}!=${v}`, holds: (l: Record<string, string>) => !has(l, k) || l[k] !== v })),
      fc
        .tuple(
          key,
          fc.array(
            value.filter((v) => v !== ''),
            { minLength: 1, maxLength: 4 },
          ),
        )
        .map(([k, vs]) => ({
          text: `${k} in (${vs.join(',')})`,
          holds: (l: Record<string, string>) => has(l, k) && vs.includes(l[k]!),
        })),
      fc
        .tuple(
          key,
          fc.array(
            value.filter((v) => v !== ''),
            { minLength: 1, maxLength: 4 },
          ),
        )
        .map(([k, vs]) => ({
          text: `${k} notin (${vs.join(', ')})`,
          holds: (l: Record<string, string>) => !has(l, k) || !vs.includes(l[k]!),
        })),
      fc.tuple(key, int).map(([k, n]) => ({
        text: `${k}>${n}`,
        holds: (l: Record<string, string>) => has(l, k) && /^-?\d+$/.test(l[k]!) && Number(l[k]) > n,
      })),
      fc.tuple(key, int).map(([k, n]) => ({
        text: `${k} < ${n}`,
        holds: (l: Record<string, string>) => has(l, k) && /^-?\d+$/.test(l[k]!) && Number(l[k]) < n,
      })),
    );
    const labels = fc.dictionary(key, fc.oneof(value, int.map(String)), { maxKeys: 6 });

    it('any selector built from valid requirements parses and matches as its requirements say', () => {
      fc.assert(
        fc.property(fc.array(requirement, { minLength: 1, maxLength: 5 }), labels, (reqs, l) => {
          const sel = parseLabelSelector(reqs.map((r) => r.text).join(','));
          expect(sel.empty).toBe(false);
          expect(sel.matches(l)).toBe(reqs.every((r) => r.holds(l)));
        }),
        { numRuns: 300 },
      );
    });

    it('many requirements on a few keys and values match as all of them say', () => {
      // Few keys and values, so that requirements on one key meet (the matcher merges them).
      const k = fc.constantFrom('a', 'b', 'c', 'd');
      // Values of selectors, and of labels (which may also be what no selector can spell).
      const v: fc.Arbitrary<string> = fc.constantFrom('', 'x', 'y', '1', '2', '10', '9223372036854775808');
      const lv = fc.oneof(v, fc.constantFrom('-3', '-9223372036854775808', '+2'));
      const n = fc.constantFrom('0', '1', '2', '5', '10', '9223372036854775807');
      const set = fc.array(
        v.filter((x) => x !== ''),
        { minLength: 1, maxLength: 3 },
      );
      const int = (s: string): bigint | undefined =>
        /^[+-]?\d+$/.test(s) && BigInt(s) >= -(2n ** 63n) && BigInt(s) < 2n ** 63n ? BigInt(s) : undefined;
      const small: fc.Arbitrary<Req> = fc.oneof(
        k.map((key) => ({ text: key, holds: (l: Record<string, string>) => has(l, key) })),
        k.map((key) => ({ text: `!${key}`, holds: (l: Record<string, string>) => !has(l, key) })),
        fc.tuple(k, v).map(([key, x]) => ({
          text: `${key}=${x}`,
          holds: (l: Record<string, string>) => has(l, key) && l[key] === x,
        })),
        fc.tuple(k, v).map(([key, x]) => ({
          text: `${key}!=${x}`,
          holds: (l: Record<string, string>) => !has(l, key) || l[key] !== x,
        })),
        fc.tuple(k, set).map(([key, xs]) => ({
          text: `${key} in (${xs.join(',')})`,
          holds: (l: Record<string, string>) => has(l, key) && xs.includes(l[key]!),
        })),
        fc.tuple(k, set).map(([key, xs]) => ({
          text: `${key} notin (${xs.join(',')})`,
          holds: (l: Record<string, string>) => !has(l, key) || !xs.includes(l[key]!),
        })),
        fc.tuple(k, n, fc.boolean()).map(([key, x, gt]) => ({
          text: `${key}${gt ? '>' : '<'}${x}`,
          holds: (l: Record<string, string>) => {
            const m = has(l, key) ? int(l[key]!) : undefined;
            return m !== undefined && (gt ? m > BigInt(x) : m < BigInt(x));
          },
        })),
      );
      fc.assert(
        fc.property(
          fc.array(small, { minLength: 1, maxLength: 24 }),
          fc.dictionary(k, lv, { maxKeys: 4 }),
          (reqs, l) => {
            expect(parseLabelSelector(reqs.map((r) => r.text).join(',')).matches(l)).toBe(
              reqs.every((r) => r.holds(l)),
            );
          },
        ),
        { numRuns: 2000 },
      );
    });

    it('a requirement matches labels built to satisfy it', () => {
      fc.assert(
        fc.property(key, value, (k, v) => {
          expect(matches(`${k}=${v}`, { [k]: v })).toBe(true);
          expect(matches(`${k} in (${v},zz)`, { [k]: v })).toBe(true);
          expect(matches(`${k}!=${v}`, { [k]: v })).toBe(false);
        }),
        { numRuns: 100 },
      );
    });

    it('any string either parses or throws a SelectorParseError, never anything else', () => {
      const alphabet = fc.constantFrom('a', 'b', '1', '-', ' ', ',', '(', ')', '=', '!', '<', '>', 'in', 'notin', '\\');
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            fc.array(alphabet, { maxLength: 12 }).map((a) => a.join('')),
          ),
          (s) => {
            try {
              const sel = parseLabelSelector(s);
              sel.matches({ a: '1', b: '' });
            } catch (err) {
              expect(err).toBeInstanceOf(SelectorParseError);
            }
          },
        ),
        { numRuns: 500 },
      );
    });
  });

  describe('lexer', () => {
    const piece = fc.oneof(
      fc.constantFrom('=', '==', '!=', '!', '(', ')', ',', '>', '<', '===', '!==', '=!', ' ', '\t', '\n', '\0'),
      fc.constantFrom('in', 'notin', 'a', 'k1', 'example.com/x', 'é', '😀'),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );

    it('reads the tokens the character-at-a-time lexer read, and the same terms, for any selector', () => {
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
          const s = parts.join('');
          expect(lex(s)).toEqual(lexByCharacter(s));
        }),
        { numRuns: 2000 },
      );
    });

    it('reads long selectors in one pass: 20,000 terms, a 100,000-character identifier', () => {
      const terms = Array.from({ length: 20_000 }, (_, i) => `k${i}!=v,!a,b in (x, y)`).join(',');
      const long = 'a'.repeat(100_000);
      expect(lex(terms)).toEqual(lexByCharacter(terms));
      expect(lex(long)).toEqual([
        { tok: 'ident', lit: long },
        { tok: 'end', lit: '' },
      ]);
      expect(parseLabelSelector(terms).requirements).toHaveLength(60_000);
    });
  });
});
