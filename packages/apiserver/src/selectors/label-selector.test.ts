import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseLabelSelector, SelectorParseError } from './label-selector.js';

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
});
