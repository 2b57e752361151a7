import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../errors/api-error.js';
import { applyPatch, patchMediaTypes, patchTypeOf } from './apply.js';

const failure = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('did not throw');
};

const current = { metadata: { name: 'e', labels: { a: '1' } }, note: 'x' };

describe('patchTypeOf', () => {
  it('accepts the three patch types, with parameters and in any case', () => {
    for (const t of patchMediaTypes) expect(patchTypeOf(t)).toBe(t);
    expect(patchTypeOf('Application/Merge-Patch+JSON; charset=utf-8')).toBe('application/merge-patch+json');
  });

  it('answers 415 to server-side apply, saying it is not supported', () => {
    const err = failure(() => patchTypeOf('application/apply-patch+yaml'));
    expect(err.code).toBe(415);
    expect(err.status.message).toMatch(
      /\(server-side apply, application\/apply-patch\+yaml, is not supported by kevents; /,
    );
    for (const t of patchMediaTypes) expect(err.status.message).toContain(t);
    expect(failure(() => patchTypeOf('application/apply-patch+cbor')).status.message).toContain(
      'application/apply-patch+cbor, is not',
    );
  });

  it('answers 415 listing every patch type Kubernetes lists to an unknown type', () => {
    for (const t of ['application/json', undefined, '']) {
      const err = failure(() => patchTypeOf(t));
      expect(err.code).toBe(415);
      expect(err.status.message).toContain('application/apply-patch+yaml');
      expect(err.status.message).toContain('application/strategic-merge-patch+json');
      expect(err.status.message).not.toContain('is not supported by kevents');
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
    const failed = failure(() =>
      applyPatch('application/json-patch+json', current, '[{"op":"test","path":"/note","value":"z"}]'),
    );
    expect(failed.code).toBe(422);
    // The first line of the JSON patch library's error.
    expect(failed.status.message).toBe(
      'the server rejected our request due to an error in our request: Test operation failed',
    );
    const notList = failure(() => applyPatch('application/json-patch+json', current, '{"op":"add"}'));
    expect(notList.code).toBe(400);
    expect(notList.status.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    // Operations are validated: an add without a value is refused, not applied as undefined.
    const noValue = failure(() => applyPatch('application/json-patch+json', current, '[{"op":"add","path":"/x"}]'));
    expect(noValue.code).toBe(422);
    expect(noValue.status.message).toMatch(/^the server rejected our request due to an error in our request: ./);
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
      const m = failure(() => applyPatch('application/merge-patch+json', current, body));
      expect([m.code, m.status.message]).toEqual([400, 'json: cannot unmarshal non-object into merge patch']);
      const s = failure(() => applyPatch('application/strategic-merge-patch+json', current, body));
      expect([s.code, s.status.message]).toEqual([
        400,
        'json: cannot unmarshal array into Go value of type map[string]interface {}',
      ]);
    }
  });

  it('answers 400 to a body that is not JSON (or not text)', () => {
    for (const body of ['{', '', undefined, 42]) {
      const err = failure(() => applyPatch('application/merge-patch+json', current, body));
      expect(err.code).toBe(400);
      expect(err.status.message).toMatch(/^error decoding patch: .+/);
    }
    expect(failure(() => applyPatch('application/merge-patch+json', current, undefined)).status.message).toBe(
      'error decoding patch: Unexpected end of JSON input',
    );
  });
});
