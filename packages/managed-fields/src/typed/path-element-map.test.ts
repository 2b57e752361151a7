import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { pathElementsEqual } from '../fieldpath/path-element.js';
import type { PathElement } from '../fieldpath/path-element.js';
import type { JsonValue } from '../value/json-value.js';
import { PathElementMap, pathElementIdentity } from './path-element-map.js';

/** The same value with its objects' members in another order. */
const reordered = (v: JsonValue): JsonValue =>
  Array.isArray(v)
    ? v.map(reordered)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .reverse()
            .map(([k, x]) => [k, reordered(x)]),
        )
      : v;

const small = fc.oneof(
  fc.constantFrom<JsonValue>(
    0,
    -0,
    1,
    1.5,
    -2,
    1e21,
    '',
    'a',
    '0',
    'true',
    'null',
    '\u0000',
    'é',
    '\ud83d\ude00',
    true,
    false,
    null,
  ),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -3, max: 3 }),
);
const value: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    small,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', ''), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const element: fc.Arbitrary<PathElement> = fc.oneof(
  fc.constantFrom('a', 'b', '', 'a:b').map((name): PathElement => ({ kind: 'field', name })),
  fc.integer({ min: 0, max: 3 }).map((index): PathElement => ({ kind: 'index', index })),
  value.map((v): PathElement => ({ kind: 'value', value: v })),
  fc
    .array(fc.tuple(fc.constantFrom('name', 'port', 'n"'), value), { maxLength: 2 })
    .map((fs): PathElement => ({ kind: 'key', fields: fs.map(([name, v]) => ({ name, value: v })) })),
);
/** Pairs that are often equal: an element and itself reordered, or two drawn apart. */
const pair = fc.oneof(
  fc.tuple(element, element),
  element.map((e): [PathElement, PathElement] => [
    e,
    e.kind === 'value'
      ? { kind: 'value', value: reordered(e.value) }
      : e.kind === 'key'
        ? { kind: 'key', fields: e.fields.map((f) => ({ name: f.name, value: reordered(f.value) })) }
        : { ...e },
  ]),
);

describe('pathElementIdentity', () => {
  it('is the same text for two path elements exactly when pathElementsEqual holds', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(pathElementIdentity(a) === pathElementIdentity(b)).toBe(pathElementsEqual(a, b));
      }),
      { numRuns: 5000 },
    );
  });

  it('keys a PathElementMap as pathElementsEqual does', () => {
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 20 }), (pairs) => {
        const map = new PathElementMap<number>();
        const seen: PathElement[] = [];
        pairs.forEach(([a, b], i) => {
          map.set(a, i);
          seen.push(a);
          const equal = seen.some((s) => pathElementsEqual(s, b));
          expect(map.has(b)).toBe(equal);
        });
      }),
      { numRuns: 1000 },
    );
  });
});
