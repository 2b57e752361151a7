import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ApiError } from '../../errors/api-error.js';
import { maxNestingDepth } from '../json-depth.js';
import { applyPatch } from './apply.js';
import { applyJSONPatch, decodeJSONPatch } from './json-patch.js';
import type { JSONPatchOperation } from './json-patch.js';
import { jsonPatchMaxCopyBytes, maxJSONPatchOperations, maxPatchedObjectBytes, patchWorkLimit } from './limits.js';
import { WorkBudget } from './work-budget.js';
import { apiFailure } from '../../testing/api-failure.js';

const JSON_PATCH = 'application/json-patch+json';
const PREFIX = 'the server rejected our request due to an error in our request: ';

/** An Event as the events.k8s.io/v1 view gives it. */
const event = (): Record<string, unknown> => ({
  kind: 'Event',
  apiVersion: 'events.k8s.io/v1',
  metadata: {
    name: 'e',
    namespace: 'n',
    uid: '0a1b2c3d-0000-4000-8000-000000000001',
    resourceVersion: '12',
    creationTimestamp: '2026-01-02T03:04:05Z',
    labels: { app: 'web', tier: 'frontend' },
    annotations: { note: 'a note that makes the metadata a bit longer than it would be' },
  },
  eventTime: '2026-01-02T03:04:05.000000Z',
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-1',
  action: 'Scheduled',
  reason: 'Scheduled',
  regarding: { kind: 'Pod', namespace: 'n', name: 'web-1', uid: '0a1b2c3d-0000-4000-8000-000000000002' },
  note: 'Successfully assigned n/web-1 to node-1',
  type: 'Normal',
});

/** json-patch v4's semantics: the patch read as kube reads it under fieldValidation=Ignore (json-patch's own decode). */
const patch = (doc: Record<string, unknown>, ops: unknown): unknown =>
  applyPatch(JSON_PATCH, doc, typeof ops === 'string' ? ops : JSON.stringify(ops), 'Ignore');

/** The 422 of a failed operation, with v4's text. */
const rejected = (doc: Record<string, unknown>, ops: unknown): string => {
  const err = apiFailure(() => patch(doc, ops));
  expect([err.code, err.status.reason]).toEqual([422, 'Invalid']);
  const message = err.status.message ?? '';
  expect(message.startsWith(PREFIX)).toBe(true);
  return message.slice(PREFIX.length);
};

/** The 422 text of a failed operation applied under `budget` (the steps it spent stay on the budget). */
const rejectedWithin = (budget: WorkBudget, doc: Record<string, unknown>, ops: unknown[]): string => {
  const err = apiFailure(() => applyJSONPatch(doc, ops as JSONPatchOperation[], budget));
  expect(err.code).toBe(422);
  return (err.status.message ?? '').slice(PREFIX.length);
};

/** Independent checks that a value is a plain JSON tree within the limits. */
function expectPlainTree(v: unknown): void {
  const seen = new Set<object>();
  let depth = 0;
  const walk = (x: unknown, d: number): void => {
    if (x === null || typeof x !== 'object') {
      expect(['string', 'number', 'boolean', 'object']).toContain(typeof x);
      return;
    }
    expect(seen.has(x)).toBe(false);
    seen.add(x);
    depth = Math.max(depth, d + 1);
    for (const k of Object.keys(x)) walk((x as Record<string, unknown>)[k], d + 1);
  };
  walk(v, 0);
  expect(depth).toBeLessThanOrEqual(maxNestingDepth);
  expect(Buffer.byteLength(JSON.stringify(v))).toBeLessThanOrEqual(maxPatchedObjectBytes);
}

describe('JSON patch attacks', () => {
  it('refuses to move the document into its own child (RFC 6902 §4.4), in a step', () => {
    const ops = [{ op: 'move', path: '/metadata/annotations', from: '' }];
    expect(rejected(event(), ops)).toBe('move operation does not apply: doc is missing from path: : missing value');
    const budget = new WorkBudget();
    rejectedWithin(budget, event(), ops);
    expect(budget.spent).toBeLessThanOrEqual(1);
  });

  it('moves as v4 does: the destination is found once the value is removed, so it never lands in itself', () => {
    expect(rejected(event(), [{ op: 'move', from: '/metadata', path: '/metadata/labels/x' }])).toBe(
      'move operation does not apply: doc is missing destination path: /metadata/labels/x: missing value',
    );
    // In an array the path then names the next sibling, which takes the value (kube-apiserver's
    // answer; RFC 6902 would refuse it).
    const doc = { ...event(), list: [{ a: 1 }, { b: 2 }] };
    expect(patch(doc, [{ op: 'move', from: '/list/0', path: '/list/0/x' }])).toMatchObject({
      list: [{ b: 2, x: { a: 1 } }],
    });
    expect(rejected({ list: [{ a: 1 }] }, [{ op: 'move', from: '/list/0', path: '/list/0/x' }])).toBe(
      'move operation does not apply: doc is missing destination path: /list/0/x: missing value',
    );
    // Escaped tokens compare decoded.
    expect(rejected({ 'a/b': { c: 1 } }, [{ op: 'move', from: '/a~1b', path: '/a~1b/c/d' }])).toBe(
      'move operation does not apply: doc is missing destination path: /a~1b/c/d: missing value',
    );
    // A sibling that shares a prefix of characters, and a move onto itself, are fine.
    expect(patch({ a: 1, ab: {} }, [{ op: 'move', from: '/a', path: '/ab/a' }])).toEqual({ ab: { a: 1 } });
    expect(patch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a' }])).toEqual({ a: { b: 1 } });
  });

  it('stops forty copies of /metadata into itself at the copy limit, with v4’s numbers and fewer steps than bytes', () => {
    const ops = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/c${i}` }));
    expect(JSON.stringify(ops).length).toBeLessThan(4096);
    // The same copies, counted on the side: the JSON of /metadata, every time it is copied.
    const meta = structuredClone(event()['metadata']) as Record<string, unknown>;
    let expected = 0;
    for (let i = 0; expected <= jsonPatchMaxCopyBytes; i++) {
      const text = JSON.stringify(meta);
      expected += text.length;
      meta[`c${i}`] = JSON.parse(text);
    }
    const message = `Unable to complete the copy, the accumulated size increase of copy is ${expected}, exceeding the limit 3145728`;
    expect(rejected(event(), ops)).toBe(message);
    // The copy limit stops it, not the work budget; copies are charged by value, not by byte.
    const budget = new WorkBudget();
    expect(rejectedWithin(budget, event(), ops)).toBe(message);
    expect(budget.spent).toBeLessThan(expected / 4);
  });

  it('allows copies up to the limit exactly, and refuses one byte more', () => {
    // A string of 1 MiB of JSON (quotes included): three copies are the limit.
    const doc = { metadata: { name: 'e' }, s: 'x'.repeat(1024 * 1024 - 2) };
    const copies = (n: number) => Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '/s', path: `/c${i}` }));
    const out = patch(doc, copies(3)) as Record<string, string>;
    expect(out['c2']).toBe(doc.s);
    expect(rejected(doc, copies(4))).toBe(
      'Unable to complete the copy, the accumulated size increase of copy is 4194304, exceeding the limit 3145728',
    );
    // Counted as Go writes it: <, > and & take six bytes each; a copied null counts nothing.
    const html = { metadata: { name: 'e' }, s: `${'<'.repeat((1024 * 1024 - 4) / 6)}xx`, n: null };
    expect(() => patch(html, copies(3))).not.toThrow();
    expect(rejected(html, [...copies(3), { op: 'copy', from: '/metadata/name', path: '/x' }])).toBe(
      'Unable to complete the copy, the accumulated size increase of copy is 3145731, exceeding the limit 3145728',
    );
    const nulls = Array.from({ length: 5_000 }, (_, i) => ({ op: 'copy', from: '/n', path: `/n${i}` }));
    expect(() => patch(html, [...copies(3), ...nulls])).not.toThrow();
  });

  it('answers 413 with kube-apiserver’s text past 10,000 operations, and takes 10,000', () => {
    const test = { op: 'test', path: '/metadata/name', value: 'e' };
    expect(patch(event(), Array(maxJSONPatchOperations).fill(test))).toEqual(event());
    for (const n of [maxJSONPatchOperations + 1, 55_000]) {
      const err = apiFailure(() => patch(event(), Array(n).fill(test)));
      expect([err.code, err.status.reason, err.status.message]).toEqual([
        413,
        'RequestEntityTooLarge',
        `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got ${n}`,
      ]);
    }
    // Decoding comes first, as in kube-apiserver: a list that is not all objects is a 400.
    const bad = apiFailure(() => patch(event(), [...Array(maxJSONPatchOperations + 1).fill(test), 1]));
    expect([bad.code, bad.status.message]).toEqual([
      400,
      'json: cannot unmarshal number into Go value of type jsonpatch.Operation',
    ]);
  });

  it('bounds the work of operations that shift a long array (422 past the budget)', () => {
    const doc = { metadata: { name: 'e' }, items: new Array<number>(1_000_000).fill(0) };
    const ops = Array(maxJSONPatchOperations).fill({ op: 'add', path: '/items/0', value: 1 });
    expect(rejected(doc, ops)).toBe(
      `applying the patch takes more than ${patchWorkLimit} steps, the most this server spends on one patch`,
    );
  });

  it('bounds the work of moves that rotate a long array (422 past the budget)', () => {
    const doc = { metadata: { name: 'e' }, items: Array.from({ length: 500_000 }, (_, i) => i) };
    const ops = Array(maxJSONPatchOperations).fill({ op: 'move', from: '/items/0', path: '/items/-' });
    expect(rejected(doc, ops)).toMatch(/^applying the patch takes more than/);
  });

  it('refuses a result nested past the limit (400) or larger than twice the body limit (413)', () => {
    const nested = (n: number): unknown => JSON.parse(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);
    // Two values of 600 levels, one moved into the other: 1,200 levels.
    const doc = { metadata: {}, x: nested(600), y: nested(600) };
    const deep = apiFailure(() => patch(doc, [{ op: 'move', from: '/x', path: `/y${'/a'.repeat(599)}` }]));
    expect([deep.code, deep.status.message]).toEqual([
      400,
      "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth",
    ]);
    // 2.5 MiB of object, 2 MiB added by the body, 2 MiB copied: 6.5 MiB.
    const big = { metadata: {}, s: 'x'.repeat(2.5 * 1024 * 1024) };
    const large = apiFailure(() =>
      patch(big, [
        { op: 'add', path: '/t', value: 'y'.repeat(2 * 1024 * 1024) },
        { op: 'copy', from: '/t', path: '/u' },
      ]),
    );
    expect([large.code, large.status.reason, large.status.message]).toEqual([
      413,
      'RequestEntityTooLarge',
      `Request entity too large: the patched object is more than ${maxPatchedObjectBytes} bytes of JSON`,
    ]);
  });
});

describe('JSON patch semantics (evanphx/json-patch v4)', () => {
  const doc = (): Record<string, unknown> => ({ metadata: { name: 'e' }, list: [1, 2, 3], n: null, s: 'x' });

  it('applies every operation', () => {
    expect(
      patch(doc(), [
        { op: 'add', path: '/metadata/labels', value: { a: '1' } },
        { op: 'add', path: '/list/-', value: 4 },
        { op: 'add', path: '/list/0', value: 0 },
        { op: 'add', path: '/list/-1', value: 5 },
        { op: 'remove', path: '/list/1' },
        { op: 'replace', path: '/s', value: 'y' },
        { op: 'move', from: '/metadata/labels', path: '/labels' },
        { op: 'copy', from: '/labels', path: '/metadata/labels' },
        { op: 'test', path: '/labels', value: { a: '1' } },
        { op: 'test', path: '/n', value: null },
        { op: 'test', path: '/missing' },
        { op: 'remove', path: '/list/-2' },
      ]),
    ).toEqual({ metadata: { name: 'e', labels: { a: '1' } }, list: [0, 2, 3, 5], n: null, s: 'y', labels: { a: '1' } });
  });

  it('follows v4’s leniencies: replace of a missing member adds it, copy of a missing one copies null', () => {
    expect(patch(doc(), [{ op: 'replace', path: '/new', value: 1 }])).toMatchObject({ new: 1 });
    expect(patch(doc(), [{ op: 'copy', from: '/missing', path: '/c' }])).toMatchObject({ c: null });
    expect(patch(doc(), [{ op: 'add', path: '/v' }])).toMatchObject({ v: null });
    expect(patch(doc(), [{ op: 'add', path: '/list/01', value: 9 }])).toMatchObject({ list: [1, 9, 2, 3] });
    expect(patch(doc(), 'null')).toEqual(doc());
    expect(patch(doc(), [{ op: 'replace', path: '', value: { a: 1 } }])).toEqual({ a: 1 });
    // v4 wraps a nil error (pkg/errors' Wrapf(nil, ...) is nil): the document stays as it was.
    expect(patch(doc(), [{ op: 'replace', path: '', value: 1 }])).toEqual(doc());
    expect(
      patch(doc(), [
        { op: 'replace', path: '', value: 'x' },
        { op: 'add', path: '/z', value: 2 },
      ]),
    ).toEqual({
      ...doc(),
      z: 2,
    });
    // Without a value v4 dereferences nil (kube-apiserver answers 500): kevents changes nothing.
    expect(patch(doc(), [{ op: 'replace', path: '' }])).toEqual(doc());
    expect(patch(doc(), [{ op: 'test', path: '', value: doc() }])).toEqual(doc());
  });

  it.each([
    [{ op: 'add', path: '/a/b', value: 1 }, 'add operation does not apply: doc is missing path: "/a/b": missing value'],
    [{ op: 'add', path: '', value: 1 }, 'add operation does not apply: doc is missing path: "": missing value'],
    [{ op: 'add', value: 1 }, 'add operation failed to decode path: missing value'],
    [{ op: 'add', path: 7, value: 1 }, 'add operation failed to decode path: missing value'],
    [
      { op: 'add', path: '/list/4', value: 1 },
      "error in add for path: '/list/4': Unable to access invalid index: 4: invalid index referenced",
    ],
    [
      { op: 'add', path: '/list/-5', value: 1 },
      "error in add for path: '/list/-5': Unable to access invalid index: -5: invalid index referenced",
    ],
    [
      { op: 'add', path: '/list/x', value: 1 },
      `error in add for path: '/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [
      { op: 'add', path: '/list/99999999999999999999', value: 1 },
      `error in add for path: '/list/99999999999999999999': value was not a proper array index: '99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
    ],
    [
      { op: 'remove', path: '/nope' },
      "error in remove for path: '/nope': Unable to remove nonexistent key: nope: missing value",
    ],
    [
      { op: 'remove', path: '/list/3' },
      "error in remove for path: '/list/3': Unable to access invalid index: 3: invalid index referenced",
    ],
    [{ op: 'remove', path: '/s/x' }, 'remove operation does not apply: doc is missing path: "/s/x": missing value'],
    [{ op: 'remove', path: '/n/x' }, 'remove operation does not apply: doc is missing path: "/n/x": missing value'],
    [
      { op: 'replace', path: 3, value: 1 },
      'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string',
    ],
    [
      { op: 'replace', value: 1 },
      'replace operation failed to decode path: operation missing path field: missing value',
    ],
    [
      { op: 'replace', path: '/list/3', value: 1 },
      'replace operation does not apply: doc is missing key: /list/3: missing value',
    ],
    [
      { op: 'replace', path: '/x/y', value: 1 },
      'replace operation does not apply: doc is missing path: /x/y: missing value',
    ],
    [{ op: 'move', path: '/x' }, 'move operation failed to decode from: operation, missing from field: missing value'],
    [
      { op: 'move', from: '/x/y', path: '/z' },
      'move operation does not apply: doc is missing from path: /x/y: missing value',
    ],
    [
      { op: 'move', from: '/x', path: '/z' },
      "error in move for path: 'x': Unable to remove nonexistent key: x: missing value",
    ],
    [
      { op: 'move', from: '/list/7', path: '/z' },
      "error in move for path: '7': Unable to access invalid index: 7: invalid index referenced",
    ],
    [
      { op: 'move', from: '/s', path: '/q/r' },
      'move operation does not apply: doc is missing destination path: /q/r: missing value',
    ],
    [{ op: 'move', from: '/s' }, 'move operation failed to decode path: operation missing path field: missing value'],
    [{ op: 'test', path: '/s', value: 'y' }, 'testing value /s failed: test failed'],
    [{ op: 'test', path: '/s' }, 'testing value /s failed: test failed'],
    [{ op: 'test', path: '/n', value: 0 }, 'testing value /n failed: test failed'],
    [{ op: 'test', path: '', value: {} }, 'testing value  failed: test failed'],
    [{ op: 'test', path: '/q/r', value: 1 }, 'test operation does not apply: is missing path: /q/r: missing value'],
    [
      { op: 'test', path: '/list/9', value: 1 },
      "error in test for path: '/list/9': Unable to access invalid index: 9: invalid index referenced",
    ],
    [
      { op: 'copy', from: '/q/r', path: '/z' },
      'copy operation does not apply: doc is missing from path: /q/r: missing value',
    ],
    [
      { op: 'copy', from: '/s', path: '/q/r' },
      'copy operation does not apply: doc is missing destination path: /q/r: missing value',
    ],
    [{ op: 'copy', from: '/s' }, 'copy operation failed to decode path: missing value'],
    [
      { op: 'copy', from: 1, path: '/z' },
      'copy operation failed to decode from: json: cannot unmarshal number into Go value of type string',
    ],
    [
      { op: 'copy', from: '/list/-9', path: '/z' },
      "error in copy for from: '/list/-9': Unable to access invalid index: -9: invalid index referenced",
    ],
    [
      { op: 'copy', from: '/s', path: '/list/x' },
      `error while adding value during copy: value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [{ op: 'bogus', path: '/s' }, 'Unexpected kind: bogus'],
    [{ path: '/s' }, 'Unexpected kind: unknown'],
    [{ op: 3, path: '/s' }, 'Unexpected kind: unknown'],
    [null, 'Unexpected kind: unknown'],
  ])('%j fails with v4’s error', (op, message) => {
    expect(rejected(doc(), [op])).toBe(message);
  });

  it('answers 400 with Go’s unmarshal error to a body that is not a list of objects', () => {
    for (const [body, type] of [
      ['{"op":"add"}', 'object into Go value of type jsonpatch.Patch'],
      ['"add"', 'string into Go value of type jsonpatch.Patch'],
      ['1', 'number into Go value of type jsonpatch.Patch'],
      ['true', 'bool into Go value of type jsonpatch.Patch'],
      ['[{"op":"test","path":"","value":1},"x"]', 'string into Go value of type jsonpatch.Operation'],
      ['[[]]', 'array into Go value of type jsonpatch.Operation'],
      ['[false]', 'bool into Go value of type jsonpatch.Operation'],
    ] as const) {
      const err = apiFailure(() => patch(doc(), body));
      expect([err.code, err.status.reason, err.status.message]).toEqual([
        400,
        'BadRequest',
        `json: cannot unmarshal ${type}`,
      ]);
    }
    expect(decodeJSONPatch(null)).toEqual([]);
  });

  it('leaves the current object unchanged, arrays included', () => {
    const current = doc();
    const before = structuredClone(current);
    patch(current, [
      { op: 'add', path: '/list/0', value: 0 },
      { op: 'add', path: '/metadata/x', value: 1 },
      { op: 'remove', path: '/s' },
    ]);
    expect(current).toEqual(before);
  });

  it('treats __proto__, constructor and prototype as data members only', () => {
    const polluted = (): unknown => (({}) as Record<string, unknown>)['polluted'];
    const out = patch(doc(), [
      { op: 'add', path: '/__proto__', value: { polluted: 1 } },
      { op: 'add', path: '/__proto__/also', value: 2 },
      { op: 'add', path: '/metadata/constructor', value: { prototype: {} } },
      { op: 'add', path: '/metadata/constructor/prototype/polluted', value: 3 },
      { op: 'copy', from: '/__proto__', path: '/prototype' },
      { op: 'test', path: '/metadata/constructor/prototype', value: { polluted: 3 } },
    ]) as Record<string, unknown>;
    expect(polluted()).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 1, also: 2 });
    expect(Object.keys(out)).toContain('__proto__');
    expect(JSON.parse(JSON.stringify(out))['prototype']).toEqual({ polluted: 1, also: 2 });
    // Members the data does not have are missing, whatever Object.prototype holds.
    expect(rejected(doc(), [{ op: 'add', path: '/__proto__/polluted', value: 1 }])).toBe(
      'add operation does not apply: doc is missing path: "/__proto__/polluted": missing value',
    );
    expect(rejected(doc(), [{ op: 'add', path: '/constructor/prototype/polluted', value: 1 }])).toMatch(
      /doc is missing path/,
    );
    expect(rejected(doc(), [{ op: 'remove', path: '/toString' }])).toBe(
      "error in remove for path: '/toString': Unable to remove nonexistent key: toString: missing value",
    );
    expect(rejected(doc(), [{ op: 'test', path: '/constructor', value: {} }])).toBe(
      'testing value /constructor failed: test failed',
    );
    expect(polluted()).toBeUndefined();
  });

  it('charges every step to the budget it is given', () => {
    // Shifting 3,200 elements costs 100 steps (32 elements a step).
    const budget = new WorkBudget(50);
    expect(() =>
      applyJSONPatch({ list: new Array(3_200).fill(0) }, [{ op: 'add', path: '/list/0', value: 1 }], budget),
    ).toThrow(/applying the patch takes more than 50 steps/);
    const small = new WorkBudget(1_000);
    applyJSONPatch({ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], small);
    expect(small.spent).toBeGreaterThan(0);
    expect(small.spent).toBeLessThan(50);
  });
});

describe('JSON patch properties', () => {
  const keys = ['a', 'b', '0', '1', '-', '__proto__', 'constructor', 'prototype', 'a/b', 'a~b', ''];
  const scalar = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 6 }));
  const { value: jsonDoc } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom(...keys), tie('value'), { maxKeys: 4 }),
    ),
  }));
  const token = fc.oneof(
    fc.constantFrom(...keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1'))),
    fc.constantFrom('-1', '-2', '01', '+0', '2', '3', 'x', '~', '~2', '99999999999999999999'),
  );
  const pointer = fc.oneof(
    { weight: 8, arbitrary: fc.array(token, { maxLength: 4 }).map((ts) => ts.map((t) => `/${t}`).join('')) },
    { weight: 1, arbitrary: fc.constantFrom('', 'a', 'a/b', '/', 7, null) },
  );
  const operation = fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record(
        {
          op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
          path: pointer,
          from: pointer,
          value: jsonDoc,
        },
        { requiredKeys: ['op'] },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(null, {}, { op: 1 }) },
  );
  const docArb = fc.dictionary(fc.constantFrom(...keys), jsonDoc, { maxKeys: 5 });

  it('random operations on random documents: only a 4xx ApiError, or a plain tree within bounds', () => {
    fc.assert(
      fc.property(docArb, fc.array(operation, { maxLength: 12 }), (doc, ops) => {
        const before = JSON.stringify(doc);
        let out: unknown;
        try {
          out = patch(doc, ops);
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          expect((err as ApiError).code).toBeGreaterThanOrEqual(400);
          expect((err as ApiError).code).toBeLessThan(500);
          return;
        } finally {
          expect(JSON.stringify(doc)).toBe(before);
        }
        expectPlainTree(out);
      }),
      { numRuns: 3_000 },
    );
  });

  it('repeated copies and moves of random locations stay within the limits', () => {
    const growth = fc.array(
      fc.record({
        op: fc.constantFrom('copy', 'copy', 'copy', 'move'),
        from: fc.constantFrom('/metadata', '/metadata/labels', '/x', '/x/0', '/y', ''),
        path: fc.constantFrom('/metadata/c', '/metadata/labels/c', '/x/-', '/x/0/y', '/y', '/metadata/annotations'),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(growth, (ops) => {
        const doc = { ...event(), x: [{}], y: {} };
        try {
          expectPlainTree(patch(doc, ops));
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          expect((err as ApiError).code).toBeLessThan(500);
        }
      }),
      { numRuns: 100 },
    );
  });
});
