import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { compactBody, compactBodyKeys, expandBody } from './compact-body.js';
import { coreEvent } from './testing/index.js';

const event = coreEvent('default', 'web-1.17a', { message: 'the "name": of it' });

/** Member names as the table spells them, their `f:` forms, near misses and names that need escaping. */
const memberName = fc.oneof(
  fc.constantFrom(...compactBodyKeys),
  fc.constantFrom(...compactBodyKeys).map((k) => `f:${k}`),
  fc.constantFrom(...compactBodyKeys).map((k) => `${k}\\`),
  fc.constantFrom(...compactBodyKeys).map((k) => `x"${k}`),
  fc.string({ unit: fc.constantFrom('"', '\\', ':', 'f', 'n', 'a', 'm', 'e', '\u0001', '\u001f', 'é', '😀') }),
  fc.string(),
);
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -1.5),
    fc.oneof(fc.constantFrom(...compactBodyKeys), fc.string(), memberName),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(memberName, tie('json'), { maxKeys: 6 }),
  ),
})).json;

describe('compactBody', () => {
  it('writes the table member names of an Event as one or two control characters, and nothing else', () => {
    const json = JSON.stringify(event);
    const compact = compactBody(json);
    expect(compact.length).toBeLessThan(json.length * 0.7);
    expect(compact).toContain('\u0001{\u0002"web-1.17a",');
    expect(compact).toContain(`\u001f${String.fromCharCode(compactBodyKeys.indexOf('count') + 1)}{}`);
    // Values equal to a member name, names not in the table and `"name":` inside a string stay.
    expect(compact).toContain('"f:labels":{}');
    expect(compact).toContain('"the \\"name\\": of it"');
    expect(compactBody('{"a":"name","name":"metadata"}')).toBe('{"a":"name",\u0002"metadata"}');
    expect(expandBody(compact)).toBe(json);
  });

  it('leaves a body without table members as it is, and expands JSON as it is', () => {
    expect(compactBody('{"a":1,"b":["name"]}')).toBe('{"a":1,"b":["name"]}');
    expect(expandBody('{"a":1}')).toBe('{"a":1}');
  });

  it('has a token for every key of the table, the 30 characters U+0001–U+001E', () => {
    expect(compactBodyKeys).toHaveLength(30);
    expect(new Set(compactBodyKeys).size).toBe(30);
    const all = Object.fromEntries(
      compactBodyKeys.flatMap((k) => [
        [k, 1],
        [`f:${k}`, 2],
      ]),
    );
    const compact = compactBody(JSON.stringify(all));
    expect([...compact.slice(1, -1)].every((ch) => ch < ' ' || '12,'.includes(ch))).toBe(true);
    expect(JSON.parse(expandBody(compact))).toEqual(all);
  });

  it('is reversed exactly by expandBody for any JSON text, and never holds NUL', () => {
    fc.assert(
      fc.property(value, (v) => {
        const json = JSON.stringify(v);
        const compact = compactBody(json);
        expect(compact.length).toBeLessThanOrEqual(json.length);
        expect(compact.includes('\u0000')).toBe(false);
        expect(expandBody(compact)).toBe(json);
        expect(compactBody(compact)).toBe(compact);
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves what is not a token as it is, for JSON.parse to refuse', () => {
    for (const bad of ['{\u0000"a":1}', '{\u001f"a":1}', '{"a":1\u001f}', '{\u001f\u001f}'])
      expect(expandBody(bad)).toBe(bad);
  });
});
