import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ApiError } from '../../errors/api-error.js';
import { maxNestingDepth } from '../json-depth.js';
import { maxPatchedObjectBytes } from './limits.js';
import { checkPlainTree } from './plain-tree.js';

const failure = (v: unknown, maxDepth?: number, maxBytes?: number): ApiError => {
  try {
    checkPlainTree(v, maxDepth, maxBytes);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('did not throw');
};

const nested = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('checkPlainTree', () => {
  it('accepts JSON trees within the limits, whatever their content', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(() => checkPlainTree(v)).not.toThrow();
      }),
    );
    expect(() => checkPlainTree(nested(maxNestingDepth))).not.toThrow();
    expect(() => checkPlainTree({ a: undefined, ['__proto__']: 1, b: Object.create(null) })).not.toThrow();
  });

  it('answers 400 past the nesting limit, as kube-apiserver’s decoder does', () => {
    const err = failure(nested(maxNestingDepth + 1));
    expect([err.code, err.status.reason, err.status.message]).toEqual([
      400,
      'BadRequest',
      "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth",
    ]);
    expect(failure(nested(4), 3).code).toBe(400);
    expect(() => checkPlainTree(nested(3), 3)).not.toThrow();
  });

  it('answers 413 past the size limit, counting the bytes JSON.stringify would write', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 100 }), (v, max) => {
        const size = Buffer.byteLength(JSON.stringify(v) ?? 'null');
        if (size <= max) expect(() => checkPlainTree(v, maxNestingDepth, max)).not.toThrow();
        else expect(failure(v, maxNestingDepth, max).code).toBe(413);
      }),
    );
    const err = failure({ s: 'x'.repeat(maxPatchedObjectBytes) });
    expect([err.code, err.status.reason, err.status.message]).toEqual([
      413,
      'RequestEntityTooLarge',
      `Request entity too large: the patched object is more than ${maxPatchedObjectBytes} bytes of JSON`,
    ]);
  });

  it('refuses shared and cyclic containers and what is not JSON, as a fault of the server (500)', () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const bad of [
      { x: shared, y: shared },
      [shared, shared],
      cyclic,
      { a: Number.NaN },
      { f: () => 1 },
      { d: new Date(0) },
      { m: new Map() },
      { b: 1n },
    ]) {
      const err = failure(bad);
      expect(err.code).toBe(500);
      expect(err.status.message).toMatch(/^Internal error occurred: the patched object is not a JSON tree: /);
    }
  });

  it('lets ±Infinity through (JSON.parse of 1e400) for the decoding to answer, as a number in a request body', () => {
    expect(() => checkPlainTree({ a: [Infinity, -Infinity], b: { c: JSON.parse('1e400') as number } })).not.toThrow();
  });

  it('stops at the first shared container of an exponentially shared value, listing each level once', () => {
    let listed = 0;
    const counted = <T extends object>(o: T): T =>
      new Proxy(o, { ownKeys: (target) => (listed++, Reflect.ownKeys(target)) });
    let v: object = counted({ leaf: 'x'.repeat(100) });
    for (let i = 0; i < 60; i++) v = counted({ l: v, r: v });
    expect(failure(v).code).toBe(500);
    // The walk meets the shared child twice per level and stops there: 2^60 paths, 60 listings.
    expect(listed).toBeLessThanOrEqual(61);
  });
});
