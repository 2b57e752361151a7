import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CreateShapes, createShape } from './create-shapes.js';

/** JSON-like values of few names and scalars, so that shapes often repeat. */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('', 'a', 'b', 0, 1, 2.5, true, false, null, undefined),
    fc.array(fc.constantFrom('x', 'y', 1), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '"', 'd:e'), tie('value'), { maxKeys: 3 }),
  ),
}));

describe('CreateShapes', () => {
  it('finds a kept value exactly when the key and createShape are the same', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('m1', 'm2'), value), { minLength: 1, maxLength: 12 }), (xs) => {
        const shapes = new CreateShapes<string>({ shapes: 1000, nodes: 100_000 });
        const seen = new Map<string, string>();
        xs.forEach(([key, v], i) => {
          const want = `${key}\u0000${createShape(v)}`;
          const got = shapes.get(key, v, () => `${i}`);
          // The value first kept for this key and shape, or this one's when it is new.
          expect(got).toBe(seen.get(want) ?? `${i}`);
          if (!seen.has(want)) seen.set(want, got);
        });
      }),
    );
  });

  it('keeps objects of one shape together and tells zero scalars, lists and member names apart', () => {
    const shapes = new CreateShapes<number>({ shapes: 1000, nodes: 100_000 });
    let made = 0;
    const get = (v: unknown): number => shapes.get('m', v, () => ++made);
    expect(get({ a: 'x', b: 1, c: { d: true } })).toBe(1);
    expect(get({ a: 'y', b: 2, c: { d: true }, e: undefined })).toBe(1);
    expect(get({ a: '', b: 1, c: { d: true } })).toBe(2);
    expect(get({ a: 'x', b: 0, c: { d: true } })).toBe(3);
    expect(get({ a: 'x', b: 1, c: { d: false } })).toBe(4);
    expect(get({ b: 1, a: 'x', c: { d: true } })).toBe(5);
    expect(get({ a: 'x', b: 1, c: { d: true }, l: ['p'] })).toBe(6);
    expect(get({ a: 'x', b: 1, c: { d: true }, l: ['q'] })).toBe(7);
    expect(get({ a: 'x', b: 1, c: {}, d: true })).toBe(8);
    expect(shapes.get('other', { a: 'x', b: 1, c: { d: true } }, () => ++made)).toBe(9);
  });

  it('starts over past its bounds', () => {
    const shapes = new CreateShapes<number>({ shapes: 2, nodes: 100_000 });
    let made = 0;
    const get = (v: unknown): number => shapes.get('m', v, () => ++made);
    expect([get({ a: 1 }), get({ b: 1 }), get({ a: 1 })]).toEqual([1, 2, 1]);
    expect(get({ c: 1 })).toBe(3);
    expect(get({ a: 1 })).toBe(4);
    const few = new CreateShapes<number>({ shapes: 1000, nodes: 3 });
    expect(few.get('m', { a: 1, b: 2 }, () => 1)).toBe(1);
    expect(few.get('m', { a: 1, b: 2 }, () => 2)).toBe(1);
    expect(few.get('m', { c: 1 }, () => 3)).toBe(3);
    expect(few.get('m', { a: 1, b: 2 }, () => 4)).toBe(4);
  });
});
