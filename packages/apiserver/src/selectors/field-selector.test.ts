import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseFieldSelector } from './field-selector.js';
import { SelectorParseError } from './label-selector.js';

const fields = (m: Record<string, string>) => (f: string) => m[f] ?? '';

describe('parseFieldSelector', () => {
  it('treats a missing or empty selector, and empty terms, as "everything"', () => {
    for (const s of [undefined, '', ',', ',,']) {
      const sel = parseFieldSelector(s);
      expect(sel.requirements).toEqual([]);
      expect(sel.matches(() => 'x')).toBe(true);
    }
  });

  it('drops a term of neither field nor value (=, ==, !=) as hasTerm.Transform does', () => {
    expect(parseFieldSelector('=').requirements).toEqual([]);
    expect(parseFieldSelector('!=,type=Normal,==').requirements).toEqual([{ field: 'type', op: '=', value: 'Normal' }]);
    // A field or a value alone is a requirement.
    expect(parseFieldSelector('=x').requirements).toEqual([{ field: '', op: '=', value: 'x' }]);
    expect(parseFieldSelector('a=').requirements).toEqual([{ field: 'a', op: '=', value: '' }]);
  });

  it('reads =, == and != terms', () => {
    expect(parseFieldSelector('involvedObject.name=web-1').requirements).toEqual([
      { field: 'involvedObject.name', op: '=', value: 'web-1' },
    ]);
    expect(parseFieldSelector('type==Normal').requirements).toEqual([{ field: 'type', op: '=', value: 'Normal' }]);
    // Terms are sorted, as fields.ParseSelector sorts them; empty terms are skipped; nothing is trimmed.
    expect(parseFieldSelector('type!=Normal,,reason=Started,').requirements).toEqual([
      { field: 'reason', op: '=', value: 'Started' },
      { field: 'type', op: '!=', value: 'Normal' },
    ]);
    expect(parseFieldSelector(' type = Normal ').requirements).toEqual([
      { field: ' type ', op: '=', value: ' Normal ' },
    ]);
    expect(() => parseFieldSelector('  ')).toThrow("invalid selector: '  '; can't understand '  '");
  });

  it('splits a term at its first operator; a bare = in the value is refused', () => {
    expect(() => parseFieldSelector('a=b!=c')).toThrow('invalid field selector: unescaped character in value: 61');
    expect(() => parseFieldSelector('a!=b=c')).toThrow('invalid field selector: unescaped character in value: 61');
    expect(parseFieldSelector('a=b!c').requirements).toEqual([{ field: 'a', op: '=', value: 'b!c' }]);
    expect(parseFieldSelector('a!b=c').requirements).toEqual([{ field: 'a!b', op: '=', value: 'c' }]);
    expect(parseFieldSelector('a=!b').requirements).toEqual([{ field: 'a', op: '=', value: '!b' }]);
    expect(parseFieldSelector('a=').requirements).toEqual([{ field: 'a', op: '=', value: '' }]);
    expect(parseFieldSelector('a!=').requirements).toEqual([{ field: 'a', op: '!=', value: '' }]);
  });

  it('unescapes \\, \\= and \\\\ in values; an escaped comma does not split', () => {
    expect(parseFieldSelector('a=x\\,y').requirements).toEqual([{ field: 'a', op: '=', value: 'x,y' }]);
    expect(parseFieldSelector('a=x\\=y').requirements).toEqual([{ field: 'a', op: '=', value: 'x=y' }]);
    expect(parseFieldSelector('a=x\\\\,b=y').requirements).toEqual([
      { field: 'a', op: '=', value: 'x\\' },
      { field: 'b', op: '=', value: 'y' },
    ]);
    expect(() => parseFieldSelector('a=x\\')).toThrow('invalid field selector: invalid escape sequence: \\');
    expect(() => parseFieldSelector('a=x\\y')).toThrow('invalid field selector: invalid escape sequence: \\y');
  });

  it('matches when every term holds', () => {
    const sel = parseFieldSelector('type!=Normal,reason=Started');
    expect(sel.matches(fields({ type: 'Warning', reason: 'Started' }))).toBe(true);
    expect(sel.matches(fields({ type: 'Normal', reason: 'Started' }))).toBe(false);
    expect(sel.matches(fields({ type: 'Warning', reason: 'Killed' }))).toBe(false);
    expect(parseFieldSelector('a=').matches(fields({}))).toBe(true);
    expect(parseFieldSelector('a!=').matches(fields({}))).toBe(false);
  });

  it("answers Kubernetes' message for a term without an operator", () => {
    const msg = (s: string) => {
      try {
        parseFieldSelector(s);
      } catch (err) {
        expect(err).toBeInstanceOf(SelectorParseError);
        return (err as Error).message;
      }
      return 'parsed';
    };
    expect(msg('abc')).toBe("invalid selector: 'abc'; can't understand 'abc'");
    expect(msg('a=b,c')).toBe("invalid selector: 'a=b,c'; can't understand 'c'");
    // The field is not unescaped: the first = splits even after a backslash.
    expect(parseFieldSelector('a\\=b').requirements).toEqual([{ field: 'a\\', op: '=', value: 'b' }]);
    expect(msg('a!b')).toBe("invalid selector: 'a!b'; can't understand 'a!b'");
  });

  describe('properties', () => {
    const field = fc.stringMatching(/^[a-zA-Z][a-zA-Z.]{0,15}$/);
    const escape = (v: string) => v.replace(/[\\,=]/g, (c) => `\\${c}`);
    const value = fc.string();
    const term = fc.record({ field, op: fc.constantFrom('=' as const, '!=' as const, '==' as const), value });

    it('any selector built from fields and escaped values parses back to them and matches as they say', () => {
      fc.assert(
        fc.property(fc.array(term, { minLength: 1, maxLength: 4 }), fc.dictionary(field, fc.string()), (terms, m) => {
          const texts = terms.map((t) => `${t.field}${t.op}${escape(t.value)}`);
          const sel = parseFieldSelector(texts.join(','));
          const byText = new Map(texts.map((x, i) => [x, terms[i]!]));
          expect(sel.requirements).toEqual(
            [...texts].sort().map((x) => {
              const t = byText.get(x)!;
              return { field: t.field, op: t.op === '!=' ? '!=' : '=', value: t.value };
            }),
          );
          const get = (f: string) => m[f] ?? '';
          expect(sel.matches(get)).toBe(terms.every((t) => (get(t.field) === t.value) === (t.op !== '!=')));
        }),
        { numRuns: 300 },
      );
    });

    it('any string either parses or throws a SelectorParseError, never anything else', () => {
      const alphabet = fc.constantFrom('a', 'b', '.', ' ', ',', '=', '!', '\\');
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            fc.array(alphabet, { maxLength: 12 }).map((a) => a.join('')),
          ),
          (s) => {
            try {
              parseFieldSelector(s).matches(() => 'a');
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
