import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { ApiError } from '../../errors/api-error.js';
import { maxNestingDepth } from '../json-depth.js';
import { countTextValues } from '../json-scan.js';
import { applyPatch, applyPatchBody, patchMediaTypes, patchTypeOf, readPatch } from './apply.js';
import { maxPatchValues, maxPatchedObjectBytes } from './limits.js';
import { apiFailure } from '../../testing/api-failure.js';

const current = { metadata: { name: 'e', labels: { a: '1' } }, note: 'x' };

describe('patchTypeOf', () => {
  it('accepts the four patch types, with parameters and in any case', () => {
    for (const t of patchMediaTypes) expect(patchTypeOf(t)).toBe(t);
    expect(patchTypeOf('Application/Merge-Patch+JSON; charset=utf-8')).toBe('application/merge-patch+json');
    expect(patchTypeOf('application/apply-patch+yaml; charset=utf-8')).toBe('application/apply-patch+yaml');
  });

  it('answers 415 to CBOR apply, listing the types kube-apiserver lists without the CBOR feature gate', () => {
    const err = apiFailure(() => patchTypeOf('application/apply-patch+cbor'));
    expect(err.code).toBe(415);
    expect(err.status.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('answers 415 listing every patch type Kubernetes lists to an unknown type', () => {
    for (const t of ['application/json', undefined, '']) {
      const err = apiFailure(() => patchTypeOf(t));
      expect(err.code).toBe(415);
      expect(err.status.message).toContain('application/apply-patch+yaml');
      expect(err.status.message).toContain('application/strategic-merge-patch+json');
    }
  });
});

describe('applyPatch', () => {
  it('applies a JSON patch without changing the current object', () => {
    const out = applyPatch(
      'application/json-patch+json',
      current,
      JSON.stringify([
        { op: 'replace', path: '/note', value: 'y' },
        { op: 'remove', path: '/metadata/labels/a' },
      ]),
    );
    expect(out).toEqual({ metadata: { name: 'e', labels: {} }, note: 'y' });
    expect(current.metadata.labels).toEqual({ a: '1' });
    expect(current.note).toBe('x');
  });

  it('reads a Buffer body', () => {
    expect(applyPatch('application/merge-patch+json', current, Buffer.from('{"note":"b"}'))).toEqual({
      ...current,
      note: 'b',
    });
  });

  it('answers 422 to a JSON patch that fails, and 400 to one that is not a list', () => {
    const failed = apiFailure(() =>
      applyPatch('application/json-patch+json', current, '[{"op":"test","path":"/note","value":"z"}]'),
    );
    expect(failed.code).toBe(422);
    // evanphx/json-patch v4's error after kube-apiserver's 422 text.
    expect(failed.status.message).toBe(
      'the server rejected our request due to an error in our request: testing value /note failed: test failed',
    );
    // kube's strict decode into []jsonPatchOp under Warn (the default), json-patch's under Ignore.
    const notList = apiFailure(() => applyPatch('application/json-patch+json', current, '{"op":"add"}'));
    expect(notList.code).toBe(400);
    expect(notList.status.message).toBe(
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    );
    const ignored = apiFailure(() => applyPatch('application/json-patch+json', current, '{"op":"add"}', 'Ignore'));
    expect(ignored.status.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    // v4 adds a null where an add has no value (never an undefined).
    expect(applyPatch('application/json-patch+json', current, '[{"op":"add","path":"/x"}]')).toEqual({
      ...current,
      x: null,
    });
  });

  it('applies merge and strategic merge patches', () => {
    expect(applyPatch('application/merge-patch+json', current, '{"metadata":{"labels":{"a":null,"b":"2"}}}')).toEqual({
      metadata: { name: 'e', labels: { b: '2' } },
      note: 'x',
    });
    expect(applyPatch('application/strategic-merge-patch+json', current, '{"metadata":{"finalizers":["f"]}}')).toEqual({
      metadata: { name: 'e', labels: { a: '1' }, finalizers: ['f'] },
      note: 'x',
    });
  });

  it('answers 400 to a merge or strategic merge patch that is not an object', () => {
    for (const body of ['[1]', 'null', '"s"', '3']) {
      const m = apiFailure(() => applyPatch('application/merge-patch+json', current, body));
      expect([m.code, m.status.message]).toEqual([400, 'json: cannot unmarshal non-object into merge patch']);
      const s = apiFailure(() => applyPatch('application/strategic-merge-patch+json', current, body));
      expect([s.code, s.status.message]).toEqual([
        400,
        'json: cannot unmarshal array into Go value of type map[string]interface {}',
      ]);
    }
  });

  it('answers 400 to a body that is not JSON (or not text)', () => {
    for (const body of ['{', '', undefined, 42]) {
      const err = apiFailure(() => applyPatch('application/merge-patch+json', current, body));
      expect(err.code).toBe(400);
      expect(err.status.message).toMatch(/^error decoding patch: .+/);
    }
    expect(apiFailure(() => applyPatch('application/merge-patch+json', current, undefined)).status.message).toBe(
      'error decoding patch: unexpected end of JSON input',
    );
  });
});

describe('applyPatch bounds for merge and strategic merge patches', () => {
  const MERGE = 'application/merge-patch+json';
  const SMP = 'application/strategic-merge-patch+json';
  const nestedText = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

  it('refuses a result of more values than an object may hold before walking its containers', () => {
    // Walking a million empty arrays (a Set of them) holds the event loop half a second.
    const wide = `{"foo":[${Array(100_000).fill('[]').join(',')}]}`;
    for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json'] as const) {
      const add = jest.spyOn(Set.prototype, 'add');
      let err, adds;
      try {
        // Parsed here: readPatch refuses so many containers in a patch's text (the test below).
        err = apiFailure(() =>
          applyPatchBody(type, { metadata: { name: 'a' } }, { text: wide, value: JSON.parse(wide) }),
        );
      } finally {
        // Counted before restoring, which clears the calls.
        adds = add.mock.calls.length;
        add.mockRestore();
      }
      expect([err.code, err.status.message]).toEqual([
        413,
        'Request entity too large: limit is 10000 values (object members and array elements) in one object',
      ]);
      expect(adds).toBeLessThan(100);
    }
    // At the limit the patch applies.
    applyPatch('application/merge-patch+json', {}, `{"foo":[${Array(9_999).fill('[]').join(',')}]}`);
  });

  it('refuses a merge or strategic merge patch of too many values before parsing it', () => {
    // Parsing and walking a million empty arrays holds the event loop about a second.
    expect(countTextValues('{"a":["[{,","\\",[",[],{ }],"b":{"c":[[ ]]}}')).toBe(8);
    expect(countTextValues('[1,2,3,4,5]', 3)).toBe(4);
    const count = (text: string): number => {
      let n = 0;
      const walk = (v: unknown): void => {
        if (v === null || typeof v !== 'object') return;
        for (const x of Object.values(v)) {
          n++;
          walk(x);
        }
      };
      walk(JSON.parse(text));
      return n;
    };
    for (const text of ['{}', '[]', '{"a":[1,{"b":[]},[[2]]],"c":{" , ":"[{"}}', '[ [ ] , { } , [ 1 , 2 ] ]']) {
      expect(countTextValues(text)).toBe(count(text));
    }
    const at = `{"foo":[${Array(maxPatchValues - 1)
      .fill('[]')
      .join(',')}]}`;
    const past = `{"foo":[${Array(maxPatchValues).fill('1').join(',')}]}`;
    for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json'] as const) {
      readPatch(at, type);
      const parse = jest.spyOn(JSON, 'parse');
      let err, parses;
      try {
        err = apiFailure(() => readPatch(past, type));
      } finally {
        parses = parse.mock.calls.length;
        parse.mockRestore();
      }
      expect([err.code, err.status.message]).toEqual([
        413,
        `Request entity too large: limit is ${maxPatchValues} values (object members and array elements) in a merge or strategic merge patch`,
      ]);
      expect(parses).toBe(0);
    }
  });

  it('keeps the result within the nesting limit (the inputs are) and refuses one past the size limit', () => {
    const deep = { metadata: {}, x: JSON.parse(nestedText(maxNestingDepth - 1)) };
    for (const type of [MERGE, SMP] as const) {
      // A patch as deep as allowed, merged along the object's own deepest path (a strategic merge
      // patch looks fields up in the Event type, which has no x: it is the object's new member).
      const patch = nestedText(maxNestingDepth - 2).replace('1}', '{"b":2}}');
      const out = applyPatch(type, type === SMP ? { metadata: {} } : deep, `{"x":${patch}}`);
      expect(JSON.stringify(out).includes(type === SMP ? '{"a":{"b":2}}' : '{"a":1,"b":2}')).toBe(true);
      const big = { metadata: {}, s: 'x'.repeat(3 * 1024 * 1024) };
      const err = apiFailure(() => applyPatch(type, big, JSON.stringify({ t: 'y'.repeat(3 * 1024 * 1024) })));
      expect([err.code, err.status.reason, err.status.message]).toEqual([
        413,
        'RequestEntityTooLarge',
        `Request entity too large: the patched object is more than ${maxPatchedObjectBytes} bytes of JSON`,
      ]);
    }
  });

  it('random merge and strategic merge patches (numbers past a double among them): only a 4xx ApiError, or a plain tree, current unchanged', () => {
    const keys = ['a', 'b', 'metadata', 'finalizers', 'ownerReferences', 'uid', '__proto__', 'constructor'];
    const directive = fc.constantFrom(
      '$patch',
      '$retainKeys',
      '$deleteFromPrimitiveList/finalizers',
      '$setElementOrder/finalizers',
      '$setElementOrder/ownerReferences',
    );
    const { v: json } = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        // 'INF' is written as the literal 1e400, which JSON.parse reads as Infinity.
        fc.constantFrom(null, true, 1, 'a', 'b', 'delete', 'replace', 'merge', 'uid', 'INF'),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.constantFrom(...keys), directive), tie('v'), { maxKeys: 4 }),
      ),
    }));
    const object = fc.dictionary(fc.constantFrom(...keys), json, { maxKeys: 5 });
    fc.assert(
      fc.property(fc.constantFrom(MERGE, SMP), object, fc.oneof(object, json), (type, current, patch) => {
        const before = JSON.stringify(current);
        let out: unknown;
        try {
          out = applyPatch(type, current, JSON.stringify(patch).replaceAll('"INF"', '1e400'));
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          expect((err as ApiError).code).toBeGreaterThanOrEqual(400);
          expect((err as ApiError).code).toBeLessThan(500);
          return;
        } finally {
          expect(JSON.stringify(current)).toBe(before);
        }
        if (out === undefined) return;
        const seen = new Set<object>();
        const walk = (v: unknown, depth: number): void => {
          if (v === null || typeof v !== 'object') return;
          expect(seen.has(v)).toBe(false);
          seen.add(v);
          expect(depth).toBeLessThan(maxNestingDepth);
          for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], depth + 1);
        };
        walk(out, 0);
      }),
      { numRuns: 3_000 },
    );
  });
});
