import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { deserialize, serialize } from 'node:v8';
import { ApiError } from '../../errors/api-error.js';
import { valueLimitsOf } from '../../registry/value-limits.js';
import type { ValueLimits } from '../../registry/value-limits.js';
import type { FieldValidation } from '../../request/query.js';
import { applyPatchBody, readPatch } from './apply.js';
import {
  applyJSONPatchOffLoop,
  inlineJSONPatchLimit,
  maxQueuedJSONPatches,
  outcomeOf,
  workOutJSONPatch,
} from './json-patch-thread.js';
import type { JSONPatchOutcome } from './json-patch-thread.js';
import { refuseOverflowingNumbers } from './number-overflow.js';

/*
 * The JSON patch thread answers as the patch handler's transform does on the event loop:
 * readPatch, refuseOverflowingNumbers and applyPatchBody, their patched object (cloned) or their
 * ApiError (sent as its Status and made again), compared over generated patches.
 */

const type = 'application/json-patch+json';
const live = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'ns', labels: { a: '1' }, resourceVersion: '7' },
  list: [1, 'two', { three: 3 }],
  reason: 'R',
};

type OnLoop = { patched: unknown; strictErrors: readonly string[] } | { error: unknown };

/** What the transform works out on the event loop. */
function onLoop(text: string, fieldValidation: FieldValidation, limits: ValueLimits): OnLoop {
  try {
    const patch = readPatch(text, type, fieldValidation, limits);
    refuseOverflowingNumbers(type, patch, fieldValidation);
    const patched = applyPatchBody(type, structuredClone(live), patch, limits);
    return { patched, strictErrors: patch.strictErrors ?? [] };
  } catch (error) {
    return { error };
  }
}

/** The thread's outcome for the same, through a structured clone as a message takes it. */
function threaded(text: string, fieldValidation: FieldValidation, limits: ValueLimits): JSONPatchOutcome | undefined {
  const reply = workOutJSONPatch({ id: 1, text, live, fieldValidation, limits });
  return outcomeOf(deserialize(serialize(reply)) as typeof reply);
}

/** The thread's outcome is the event loop's, or left to it where it cannot be sent as cheaply. */
function expectSame(got: JSONPatchOutcome | undefined, want: OnLoop): void {
  if (got === undefined) {
    if ('error' in want) expect(!(want.error instanceof ApiError) || want.error.statusText !== undefined).toBe(true);
    else expect(want.patched === null || typeof want.patched !== 'object' || Array.isArray(want.patched)).toBe(true);
    return;
  }
  if ('error' in got) {
    expect('error' in want).toBe(true);
    const error = (want as { error: ApiError }).error;
    expect(error).toBeInstanceOf(ApiError);
    expect(got.error).toBeInstanceOf(ApiError);
    expect(got.error.status).toEqual(error.status);
    expect(JSON.stringify(got.error.status)).toBe(JSON.stringify(error.status));
    expect(got.error.headers).toEqual(error.headers);
    expect(got.error.message).toBe(error.message);
    return;
  }
  expect('patched' in want).toBe(true);
  const { patched, strictErrors } = want as { patched: unknown; strictErrors: readonly string[] };
  // toEqual tells 0 from -0; the JSON text compares own `__proto__` members too.
  expect(got.patched).toEqual(patched);
  expect(JSON.stringify(got.patched)).toBe(JSON.stringify(patched));
  expect(got.strictErrors).toEqual(strictErrors);
}

const name = fc.constantFrom('a', 'b', '__proto__', 'constructor', 'op', 'path', 'value', 'é', 'a\\"b', '\\u0041');
const scalar = fc.oneof(
  fc.constantFrom('null', 'true', 'false', '-0', '0', '1e400', '-1e400', '1.5e-3', '12345678901234567890'),
  fc.integer().map(String),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"\\ud800x"', '"\\u00e9"', '"a\\nb"'),
);
const { value } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
    fc
      .array(fc.tuple(name, tie('value')), { maxLength: 4 })
      .map((ms) => `{${ms.map(([k, v]) => `"${k}":${v}`).join(', ')}}`),
  ),
}));
const pointer = fc.constantFrom(
  '',
  '/',
  '/metadata',
  '/metadata/labels',
  '/metadata/labels/a',
  '/metadata/labels/b',
  '/metadata/name',
  '/list',
  '/list/0',
  '/list/-',
  '/list/9',
  '/list/2/three',
  '/x',
  '/x/y',
  '/reason',
  '/__proto__',
  'no-slash',
);
const member = fc.oneof(
  fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'frob').map((op) => `"op":"${op}"`),
  pointer.map((p) => `"path":"${p}"`),
  pointer.map((p) => `"from":"${p}"`),
  value.map((v) => `"value":${v}`),
  fc.tuple(name, value).map(([k, v]) => `"${k}":${v}`),
  scalar.map((v) => `"path":${v}`),
);
const operation = fc.oneof(
  { weight: 6, arbitrary: fc.array(member, { minLength: 1, maxLength: 5 }).map((ms) => `{${ms.join(',')}}`) },
  { weight: 1, arbitrary: fc.oneof(scalar, value) },
);
const patchText = fc.oneof(
  { weight: 8, arbitrary: fc.array(operation, { maxLength: 5 }).map((ops) => `[${ops.join(', ')}]`) },
  { weight: 1, arbitrary: value },
  // Mangled: cut short, or a character dropped.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.array(operation, { minLength: 1, maxLength: 3 }), fc.nat()).map(([ops, at]) => {
      const t = `[${ops.join(',')}]`;
      const i = at % t.length;
      return at % 2 === 0 ? t.slice(0, i) : t.slice(0, i) + t.slice(i + 1);
    }),
  },
);
const fieldValidation = fc.constantFrom<FieldValidation>('Strict', 'Warn', 'Ignore');
const limits = fc.constantFrom(valueLimitsOf(10_000), valueLimitsOf(12), valueLimitsOf(3));

describe('workOutJSONPatch, as the JSON patch thread runs it', () => {
  it('answers as readPatch and applyPatchBody do on the event loop, over generated patches', () => {
    fc.assert(
      fc.property(patchText, fieldValidation, limits, (text, fv, l) => {
        expectSame(threaded(text, fv, l), onLoop(text, fv, l));
      }),
      { numRuns: 1500 },
    );
  });

  it('answers each way the event loop can: a patched object, strict errors, 400, 413, 422, and left to the event loop', () => {
    const l = valueLimitsOf(10_000);
    const cases: [string, FieldValidation, string][] = [
      ['[{"op":"add","path":"/x","value":-0}]', 'Warn', 'patched'],
      ['[{"op":"add","path":"/x","value":{"__proto__":{"a":1}}}]', 'Warn', 'patched'],
      ['[{"op":"add","path":"/x","value":1,"y":2}]', 'Warn', 'patched'],
      ['[{"op":"add","path":"/x","value":1e400}]', 'Ignore', 'patched'],
      ['[{"op":"add","path":"/x","value":1e400}]', 'Warn', '400'],
      ['{"op":"add"}', 'Warn', '400'],
      ['[{"op":"add","path":"/x","value":[' + '1,'.repeat(12_000) + '1]}]', 'Ignore', '413'],
      ['[{"op":"remove","path":"/nope"}]', 'Strict', '422'],
      ['[{"op":"replace","path":"","value":[1,2]}]', 'Warn', 'inline'],
    ];
    for (const [text, fv, kind] of cases) {
      const got = threaded(text, fv, l);
      const want = onLoop(text, fv, l);
      expectSame(got, want);
      const seen = got === undefined ? 'inline' : 'error' in got ? String(got.error.code) : 'patched';
      expect([text.slice(0, 40), seen]).toEqual([text.slice(0, 40), kind]);
    }
    const strict = threaded('[{"op":"add","path":"/x","value":1,"y":2}]', 'Warn', l);
    expect(strict).toEqual({
      patched: expect.objectContaining({ x: 1 }),
      strictErrors: ['json patch unknown field "[0].y"'],
    });
  });
});

describe('applyJSONPatchOffLoop', () => {
  const l = valueLimitsOf(10_000);
  const big = (inner: string, n: number): string => Array.from({ length: n }, () => inner).join(',');
  const texts: [string, string][] = [
    ['a long string (200)', `[{"op":"add","path":"/x","value":"${'x'.repeat(inlineJSONPatchLimit)}"}]`],
    ['numbers (413)', `[{"op":"add","path":"/x","value":[${big('7', 70_000)}]}]`],
    ['empty operations (413)', `[${big('{}', 50_000)}]`],
    [
      'nesting near the bound (413)',
      `[{"op":"add","path":"/x","value":[${big('['.repeat(990) + ']'.repeat(990), 70)}]}]`,
    ],
    ['numbers, not a list (400)', `{"a":[${big('1', 70_000)}]}`],
    ['a failing test (422)', `[{"op":"test","path":"/reason","value":"${'y'.repeat(inlineJSONPatchLimit)}"}]`],
  ];

  it('reads and applies a text longer than inlineJSONPatchLimit on the thread, as the event loop would', async () => {
    for (const [what, text] of texts) {
      expect([what, text.length > inlineJSONPatchLimit]).toEqual([what, true]);
      for (const fv of ['Warn', 'Ignore'] as const) {
        const got = await applyJSONPatchOffLoop(text, live, fv, l);
        expect([what, got === undefined]).toEqual([what, false]);
        expectSame(got, onLoop(text, fv, l));
      }
    }
  });

  it('leaves the patches past maxQueuedJSONPatches waiting to the event loop', async () => {
    const text = texts[1]![1];
    const got = await Promise.all(
      Array.from({ length: maxQueuedJSONPatches + 2 }, () => applyJSONPatchOffLoop(text, live, 'Warn', l)),
    );
    expect(got.map((g) => g !== undefined)).toEqual([
      ...Array.from({ length: maxQueuedJSONPatches }, () => true),
      false,
      false,
    ]);
    // Queued again once those are answered.
    expect(await applyJSONPatchOffLoop(text, live, 'Warn', l)).toBeDefined();
  });

  it('leaves a shorter text to the event loop', async () => {
    expect(await applyJSONPatchOffLoop('[]', live, 'Warn', l)).toBeUndefined();
  });

  it('does not change the object it is given', async () => {
    const before = structuredClone(live);
    await applyJSONPatchOffLoop(texts[0]![1], live, 'Warn', l);
    expect(live).toEqual(before);
  });
});
