import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const base = (): string => `${srv.url}/apis/events.k8s.io/v1`;
const ns = (n: string): string => `${base()}/namespaces/${n}/events`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const expectStatus = (body: any, code: number, reason: string, message?: string | RegExp): void => {
  expect(body.kind).toBe('Status');
  expect(body.apiVersion).toBe('v1');
  expect(body.status).toBe('Failure');
  expect(body.code).toBe(code);
  expect(body.reason).toBe(reason);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
};

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ historyLimit: 20, tooLargeResourceVersionWaitMs: 50 }) });
  await request(ns('s'), { method: 'POST', body: sampleEvent('exists', 's') });
});
afterAll(async () => srv.close());

describe('Status errors', () => {
  it('404 NotFound names the qualified resource, per API view', async () => {
    const r = await request(`${ns('s')}/missing`);
    expect(r.status).toBe(404);
    expectStatus(r.body, 404, 'NotFound', 'events.events.k8s.io "missing" not found');
    expect(r.body.details).toEqual({ name: 'missing', group: 'events.k8s.io', kind: 'events' });
    const core = await request(`${srv.url}/api/v1/namespaces/s/events/missing`);
    expectStatus(core.body, 404, 'NotFound', 'events "missing" not found');
    expect(core.body.details).toEqual({ name: 'missing', kind: 'events' });
  });

  it('404 for an unknown path', async () => {
    const r = await request(`${srv.url}/apis/nope.example.com/v1/things`);
    expectStatus(r.body, 404, 'NotFound', 'the server could not find the requested resource');
  });

  it('409 AlreadyExists on a duplicate name', async () => {
    const r = await request(ns('s'), { method: 'POST', body: sampleEvent('exists', 's') });
    expectStatus(r.body, 409, 'AlreadyExists', 'events.events.k8s.io "exists" already exists');
  });

  it('409 Conflict on a stale resourceVersion, and the object is unchanged', async () => {
    const cur = (await request(`${ns('s')}/exists`)).body;
    const stale = { ...cur, metadata: { ...cur.metadata, resourceVersion: '1', labels: { a: 'b' } } };
    await request(`${ns('s')}/exists`, {
      method: 'PUT',
      body: { ...cur, metadata: { ...cur.metadata, labels: { bump: '1' } } },
    });
    const r = await request(`${ns('s')}/exists`, { method: 'PUT', body: stale });
    expectStatus(
      r.body,
      409,
      'Conflict',
      'Operation cannot be fulfilled on events.events.k8s.io "exists": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect((await request(`${ns('s')}/exists`)).body.metadata.labels).toEqual({ bump: '1' });
  });

  it('422 Invalid with one cause per field error', async () => {
    const bad = sampleEvent('bad', 's', { type: 'Weird', reason: '' });
    const r = await request(ns('s'), { method: 'POST', body: bad });
    expectStatus(r.body, 422, 'Invalid');
    expect(r.body.message).toBe(
      'Event "bad" is invalid: [reason: Required value, type: Invalid value: "": has invalid value: Weird]',
    );
    expect(r.body.details.kind).toBe('Event');
    expect(r.body.details.name).toBe('bad');
    expect(r.body.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'reason' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": has invalid value: Weird', field: 'type' },
    ]);
    expect((await request(`${ns('s')}/bad`)).status).toBe(404);
  });

  it('400 on malformed JSON, and nothing is stored', async () => {
    const r = await request(ns('s'), {
      method: 'POST',
      body: '{"metadata": {"name": "broken"',
      headers: { 'content-type': 'application/json' },
    });
    // kube's transformDecodeError: the kind it decodes into, Go's JSON error, the first 30 bytes.
    expectStatus(
      r.body,
      400,
      'BadRequest',
      `the object provided is unrecognized (must be of type Event): couldn't get version/kind; json parse error: unexpected end of JSON input ({"metadata": {"name": "broken")`,
    );
    const stray = await request(ns('s'), {
      method: 'POST',
      body: '{"a":}',
      headers: { 'content-type': 'application/json' },
    });
    expect(stray.body.message).toBe(
      `the object provided is unrecognized (must be of type Event): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value ({"a":})`,
    );
    expect((await request(`${ns('s')}/broken`)).status).toBe(404);
  });

  it('400 on a wrong kind or apiVersion', async () => {
    const k = await request(ns('s'), { method: 'POST', body: { ...sampleEvent('k', 's'), kind: 'Pod' } });
    expectStatus(k.body, 400, 'BadRequest', 'the kind in the data (Pod) does not match the expected kind (Event)');
    const v = await request(ns('s'), { method: 'POST', body: { ...sampleEvent('v', 's'), apiVersion: 'v1' } });
    expectStatus(
      v.body,
      400,
      'BadRequest',
      'the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)',
    );
  });

  it('400 on a value of the wrong type', async () => {
    const r = await request(ns('s'), { method: 'POST', body: sampleEvent('t', 's', { deprecatedCount: 'many' }) });
    expectStatus(
      r.body,
      400,
      'BadRequest',
      'Event in version "v1" cannot be handled as a Event: json: cannot unmarshal string into Go struct field Event.deprecatedCount of type int32',
    );
  });

  it('400 on a namespace mismatch between body and URL', async () => {
    const r = await request(ns('s'), { method: 'POST', body: sampleEvent('m', 'other') });
    expectStatus(
      r.body,
      400,
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('413 on a body over 3 MiB, and nothing is stored', async () => {
    const big = sampleEvent('big', 's', {
      metadata: { name: 'big', namespace: 's', annotations: { x: 'y'.repeat(3 * 1024 * 1024) } },
    });
    const r = await request(ns('s'), { method: 'POST', body: big });
    expect(r.status).toBe(413);
    expectStatus(r.body, 413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
    expect((await request(`${ns('s')}/big`)).status).toBe(404);
  });

  it('415 on an unsupported content type', async () => {
    const r = await request(ns('s'), {
      method: 'POST',
      body: '<event/>',
      headers: { 'content-type': 'application/xml' },
    });
    expectStatus(
      r.body,
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
    const p = await request(`${ns('s')}/exists`, {
      method: 'PATCH',
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expectStatus(
      p.body,
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('415 to a CBOR apply (kube-apiserver without the CBOR feature gate); 422 to an apply without fieldManager', async () => {
    const r = await request(`${ns('s')}/exists`, {
      method: 'PATCH',
      body: 'metadata: {}',
      headers: { 'content-type': 'application/apply-patch+cbor' },
    });
    expectStatus(
      r.body,
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
    const a = await request(`${ns('s')}/exists`, {
      method: 'PATCH',
      body: 'metadata: {}',
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expectStatus(
      a.body,
      422,
      'Invalid',
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });

  it('400, not 500, for an apply configuration that does not fit the schema; the object is unchanged', async () => {
    const before = (await request(`${ns('s')}/exists`)).body;
    const r = await request(`${ns('s')}/exists?fieldManager=m`, {
      method: 'PATCH',
      body: JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'exists' }, note: [{}] }),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expectStatus(
      r.body,
      400,
      'BadRequest',
      /^failed to create typed patch object \(.+\): \.note: expected string, got /,
    );
    expect((await request(`${ns('s')}/exists`)).body).toEqual(before);
  });

  it('a patch kube cannot decode is a 422 naming the patch; fieldValidation applies to the patched object and the patch keys', async () => {
    const before = (await request(`${ns('s')}/exists`)).body;
    const patch = (type: string, body: string, query = '') =>
      request(`${ns('s')}/exists${query}`, { method: 'PATCH', body, headers: { 'content-type': type } });
    // Strict: the patched object's unknown field, after the merge patch's own repeated keys.
    const merge = await patch(
      'application/merge-patch+json',
      '{"bogus":1,"note":"a","note":"b"}',
      '?fieldValidation=Strict',
    );
    expectStatus(
      merge.body,
      422,
      'Invalid',
      /^ "" is invalid: patch: Invalid value: "\{.*\\"bogus\\":1.*\}": strict decoding error: duplicate field "note", unknown field "bogus"$/,
    );
    expect(merge.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: expect.stringMatching(/^Invalid value: "\{/), field: 'patch' },
    ]);
    expect(Object.keys(merge.body.details)).toEqual(['causes']);
    const smp = await patch(
      'application/strategic-merge-patch+json',
      '{"bogus":{"b":[1,"x",null]},"a":2.5}',
      '?fieldValidation=Strict',
    );
    expectStatus(
      smp.body,
      422,
      'Invalid',
      ' "" is invalid: patch: Invalid value: "map[a:2.5 bogus:map[b:[1 x <nil>]]]": strict decoding error: unknown field "bogus", unknown field "a"',
    );
    const jsonPatch = await patch(
      'application/json-patch+json',
      '[{"op":"add","path":"/bogus","value":1}]',
      '?fieldValidation=Strict',
    );
    expectStatus(jsonPatch.body, 422, 'Invalid', /: strict decoding error: unknown field "bogus"$/);
    // A JSON patch's own unknown and repeated fields (kube decodes it strictly into []jsonPatchOp
    // first), before the patched object's.
    const strictOps = await patch(
      'application/json-patch+json',
      '[{"op":"add","path":"/bogus","value":{"a":1,"a":2},"Op":"x"}]',
      '?fieldValidation=Strict',
    );
    expectStatus(
      strictOps.body,
      422,
      'Invalid',
      /: strict decoding error: json patch duplicate field "\[0\]\.value\.a", json patch unknown field "\[0\]\.Op", unknown field "bogus"$/,
    );
    const warnedOps = await patch(
      'application/json-patch+json',
      '[{"op":"test","path":"/metadata/name","value":"exists","extra":true}]',
    );
    expect([warnedOps.status, warnedOps.headers.get('warning')]).toEqual([
      200,
      '299 - "json patch unknown field \\"[0].extra\\""',
    ]);
    const typedOps = await patch('application/json-patch+json', '[{"op":"add","path":7}]');
    expectStatus(
      typedOps.body,
      400,
      'BadRequest',
      'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string',
    );
    // A type error is a 422 at any fieldValidation, in the decoder's words.
    const typed = await patch('application/merge-patch+json', '{"deprecatedCount":"x"}', '?fieldValidation=Ignore');
    expectStatus(
      typed.body,
      422,
      'Invalid',
      /: json: cannot unmarshal string into Go struct field Event\.deprecatedCount of type int32$/,
    );
    expect((await request(`${ns('s')}/exists`)).body).toEqual(before);
    // Warn (the default) patches and says why; Ignore patches silently.
    const warned = await patch('application/merge-patch+json', '{"bogus":1,"metadata":{"labels":{"w":"1","w":"2"}}}');
    expect(warned.status).toBe(200);
    expect(warned.headers.get('warning')).toBe(
      '299 - "duplicate field \\"metadata.labels.w\\"", 299 - "unknown field \\"bogus\\""',
    );
    expect(warned.body.metadata.labels.w).toBe('2');
    const ignored = await patch('application/merge-patch+json', '{"bogus":2}', '?fieldValidation=Ignore');
    expect([ignored.status, ignored.headers.get('warning')]).toEqual([200, null]);
    const ignoredOps = await patch(
      'application/json-patch+json',
      '[{"op":"test","path":"/metadata/name","value":"exists","extra":true}]',
      '?fieldValidation=Ignore',
    );
    expect([ignoredOps.status, ignoredOps.headers.get('warning')]).toEqual([200, null]);
  });

  it('a number past a double (1e400) in a patch: refused where kube decodes the patch into a map (400), else where a field cannot hold it (422)', async () => {
    const before = (await request(`${ns('s')}/exists`)).body;
    const overflow = 'json: cannot unmarshal number 1e400 into Go value of type float64';
    for (const [type, body, message] of [
      ['application/merge-patch+json', '{"deprecatedCount":1e400}', `error decoding patch: ${overflow}`],
      [
        'application/merge-patch+json',
        '{"metadata":{"labels":{"a":-1e400}}}',
        `error decoding patch: ${overflow.replace('1e400', '-1e400')}`,
      ],
      ['application/strategic-merge-patch+json', '{"deprecatedCount":1e400}', overflow],
    ] as const) {
      const r = await request(`${ns('s')}/exists`, { method: 'PATCH', body, headers: { 'content-type': type } });
      expectStatus(r.body, 400, 'BadRequest', message);
    }
    // A JSON patch under fieldValidation=Strict or Warn is decoded strictly into kube's
    // []jsonPatchOp first, whose interface{} value cannot hold it.
    const strictJsonPatch = await request(`${ns('s')}/exists`, {
      method: 'PATCH',
      body: '[{"op":"add","path":"/deprecatedCount","value":1e400}]',
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expectStatus(
      strictJsonPatch.body,
      400,
      'BadRequest',
      'error decoding patch: json: cannot unmarshal number 1e400 into Go struct field jsonPatchOp.value of type float64',
    );
    // Under Ignore, json-patch keeps the number as text until the patched object is decoded.
    const jsonPatch = await request(`${ns('s')}/exists?fieldValidation=Ignore`, {
      method: 'PATCH',
      body: '[{"op":"add","path":"/deprecatedCount","value":1e400}]',
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expectStatus(
      jsonPatch.body,
      422,
      'Invalid',
      /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number Infinity into Go struct field Event\.deprecatedCount of type int32$/,
    );
    expect((await request(`${ns('s')}/exists`)).body).toEqual(before);
    // A merge patch under fieldValidation=Ignore is not decoded into a map: in a field the kind
    // does not have, the number goes with the field, as Go's decoder skips it.
    const unknown = await request(`${ns('s')}/exists?fieldValidation=Ignore`, {
      method: 'PATCH',
      body: '{"bogus":1e400,"metadata":{"labels":{"patched":"yes"}}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body.bogus).toBeUndefined();
    expect(unknown.body.metadata.labels.patched).toBe('yes');
  });

  it('422 for DeleteOptions kube refuses (ValidateDeleteOptions), and nothing is deleted', async () => {
    await request(ns('del'), { method: 'POST', body: sampleEvent('keep', 'del') });
    const unsupported =
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"';
    expectStatus(
      (await request(`${ns('del')}/keep?propagationPolicy=Bogus`, { method: 'DELETE' })).body,
      422,
      'Invalid',
      unsupported,
    );
    expectStatus(
      (await request(`${ns('del')}?propagationPolicy=Bogus`, { method: 'DELETE' })).body,
      422,
      'Invalid',
      unsupported,
    );
    const both = await request(`${ns('del')}/keep`, {
      method: 'DELETE',
      body: { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true, propagationPolicy: 'Background' },
    });
    expectStatus(
      both.body,
      422,
      'Invalid',
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set',
    );
    expect((await request(`${ns('del')}/keep`)).status).toBe(200);
    // A body in a media type kube does not read is a 415, and nothing is deleted.
    const plain = await request(`${ns('del')}/keep`, {
      method: 'DELETE',
      body: '{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"x"}}',
      headers: { 'content-type': 'text/plain' },
    });
    expectStatus(
      plain.body,
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
    expect((await request(`${ns('del')}/keep`)).status).toBe(200);
    // A policy kube accepts deletes.
    expect((await request(`${ns('del')}/keep?propagationPolicy=Background`, { method: 'DELETE' })).status).toBe(200);
    expect((await request(`${ns('del')}/keep`)).status).toBe(404);
  });

  it('400 for a gracePeriodSeconds the parameter codec cannot read; list options are read first on deletecollection', async () => {
    await request(ns('grace'), { method: 'POST', body: sampleEvent('keep', 'grace') });
    for (const url of [`${ns('grace')}/keep?gracePeriodSeconds=abc`, `${ns('grace')}?gracePeriodSeconds=abc`]) {
      const r = await request(url, { method: 'DELETE' });
      expectStatus(r.body, 400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax');
    }
    const both = await request(`${ns('grace')}?limit=x&gracePeriodSeconds=abc&propagationPolicy=Bogus`, {
      method: 'DELETE',
    });
    expectStatus(both.body, 400, 'BadRequest', 'strconv.ParseInt: parsing "x": invalid syntax');
    // With a body the query's DeleteOptions are not read, as in kube.
    const withBody = await request(`${ns('grace')}/keep?gracePeriodSeconds=abc&dryRun=All`, {
      method: 'DELETE',
      body: { kind: 'DeleteOptions', apiVersion: 'v1' },
    });
    expect(withBody.status).toBe(200);
    expect((await request(`${ns('grace')}/keep?gracePeriodSeconds=0`, { method: 'DELETE' })).status).toBe(200);
  });

  it("409 for a deletecollection whose body's preconditions an item fails; items listed before it are deleted", async () => {
    const a = (await request(ns('pre'), { method: 'POST', body: sampleEvent('a', 'pre') })).body;
    const b = (await request(ns('pre'), { method: 'POST', body: sampleEvent('b', 'pre') })).body;
    const preconditions = (uid: string) => ({
      method: 'DELETE',
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid } },
    });
    const r = await request(ns('pre'), preconditions(b.metadata.uid));
    // kube's BeforeDelete names the internal kind (core Event, no group), as single deletes do.
    expectStatus(
      r.body,
      409,
      'Conflict',
      `Operation cannot be fulfilled on Event "a": the UID in the precondition (${b.metadata.uid}) does not match the UID in record (${a.metadata.uid}). The object might have been deleted and then recreated`,
    );
    expect((await request(ns('pre'))).body.items).toHaveLength(2);
    const second = await request(ns('pre'), preconditions(a.metadata.uid));
    expect([second.status, second.body.details.name]).toEqual([409, 'b']);
    expect((await request(ns('pre'))).body.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toEqual([
      'b',
    ]);
  });

  it('405 on a verb the path does not serve', async () => {
    const r = await request(`${ns('s')}/exists`, { method: 'POST', body: {} });
    expectStatus(r.body, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    expect(r.body.details).toEqual({
      causes: [{ reason: 'UnexpectedServerResponse', message: '405: Method Not Allowed' }],
    });
    const c = await request(`${base()}/events`, { method: 'DELETE' });
    expectStatus(c.body, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  });

  it('406 when no acceptable representation is offered', async () => {
    const r = await request(`${ns('s')}/exists`, { headers: { accept: 'application/xml' } });
    expectStatus(r.body, 406, 'NotAcceptable');
  });

  it('422 on bad list options, 400 on resourceVersion with continue', async () => {
    const a = await request(`${ns('s')}?resourceVersionMatch=Exact`);
    expectStatus(
      a.body,
      422,
      'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    const b = await request(`${ns('s')}?resourceVersion=0&resourceVersionMatch=Exact`);
    expect(b.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
    const c = await request(`${ns('s')}?resourceVersion=5&resourceVersionMatch=Bogus`);
    expect(c.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
    );
    const d = await request(`${ns('s')}?sendInitialEvents=true`);
    expect(d.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    );
    const e = await request(`${ns('s')}?watch=true&sendInitialEvents=true`);
    expect(e.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
    const page = (await request(`${ns('s')}?limit=1`)).body;
    const f = await request(`${ns('s')}?limit=1&resourceVersion=3&continue=${page.metadata.continue ?? 'x'}`);
    expectStatus(f.body, 400, 'BadRequest', 'specifying resource version is not allowed when using continue');
  });

  it('400 on a bad continue token, 410 on an expired one', async () => {
    const bad = await request(`${ns('s')}?limit=1&continue=not-a-token`);
    expectStatus(bad.body, 400, 'BadRequest', /^invalid continue token: /);
    await request(ns('exp'), { method: 'POST', body: sampleEvent('a', 'exp') });
    await request(ns('exp'), { method: 'POST', body: sampleEvent('b', 'exp') });
    const page = (await request(`${ns('exp')}?limit=1`)).body;
    expect(page.metadata.continue).toBeTruthy();
    for (let i = 0; i < 40; i++) await request(ns('churn'), { method: 'POST', body: sampleEvent(`c${i}`, 'churn') });
    const r = await request(`${ns('exp')}?limit=1&continue=${page.metadata.continue}`);
    expectStatus(
      r.body,
      410,
      'Expired',
      /^The provided continue parameter is too old to display a consistent list result\./,
    );
    expect(r.body.metadata.continue).toBeTruthy();
  });

  it('410 Expired for an Exact list at a compacted resourceVersion; 504 for one from the future', async () => {
    const old = await request(`${ns('s')}?resourceVersion=1&resourceVersionMatch=Exact`);
    expectStatus(old.body, 410, 'Expired');
    const future = await request(`${ns('s')}?resourceVersion=999999&resourceVersionMatch=NotOlderThan`);
    expectStatus(future.body, 504, 'Timeout', /^Timeout: /);
    expect(future.headers.get('retry-after')).toBeTruthy();
  });

  it('400 on a bad selector, and on an unsupported field label', async () => {
    const f = await request(`${ns('s')}?fieldSelector=involvedObject.name%3Dx`);
    expectStatus(f.body, 400, 'BadRequest', 'field label not supported: involvedObject.name');
    const l = await request(`${ns('s')}?labelSelector=a%20in%20b`);
    expectStatus(l.body, 400, 'BadRequest', /^unable to parse requirement/);
  });

  it('422 on an unsupported dryRun value', async () => {
    const r = await request(`${ns('s')}?dryRun=Some`, { method: 'POST', body: sampleEvent('dr', 's') });
    expectStatus(
      r.body,
      422,
      'Invalid',
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
    );
  });
});

describe('dryRun and fieldValidation', () => {
  it('dryRun=All validates and answers without storing', async () => {
    const r = await request(`${ns('d')}?dryRun=All`, { method: 'POST', body: sampleEvent('dry', 'd') });
    expect(r.status).toBe(201);
    expect(r.body.metadata.uid).toBeTruthy();
    expect(r.body.metadata.resourceVersion).toBeUndefined();
    expect((await request(`${ns('d')}/dry`)).status).toBe(404);
    const inv = await request(`${ns('d')}?dryRun=All`, {
      method: 'POST',
      body: sampleEvent('dry', 'd', { type: 'X' }),
    });
    expect(inv.status).toBe(422);
    await request(ns('d'), { method: 'POST', body: sampleEvent('real', 'd') });
    const del = await request(`${ns('d')}/real?dryRun=All`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await request(`${ns('d')}/real`)).status).toBe(200);
    const patch = await request(`${ns('d')}/real?dryRun=All`, {
      method: 'PATCH',
      body: { metadata: { labels: { a: 'b' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patch.body.metadata.labels).toEqual({ a: 'b' });
    expect((await request(`${ns('d')}/real`)).body.metadata.labels).toBeUndefined();
    const coll = await request(`${ns('d')}?dryRun=All`, { method: 'DELETE' });
    expect(coll.body.items).toHaveLength(1);
    expect((await request(`${ns('d')}/real`)).status).toBe(200);
  });

  it('Strict refuses unknown and duplicate fields; Warn warns; Ignore drops', async () => {
    const withUnknown = { ...sampleEvent('fv', 'f'), bogus: 1, metadata: { name: 'fv', namespace: 'f', nope: true } };
    const strict = await request(`${ns('f')}?fieldValidation=Strict`, { method: 'POST', body: withUnknown });
    expectStatus(
      strict.body,
      400,
      'BadRequest',
      'strict decoding error: unknown field "metadata.nope", unknown field "bogus"',
    );
    const dup = await request(`${ns('f')}?fieldValidation=Strict`, {
      method: 'POST',
      body: JSON.stringify(sampleEvent('dup', 'f')).replace('"type":"Normal"', '"type":"Normal","type":"Warning"'),
    });
    expectStatus(dup.body, 400, 'BadRequest', 'strict decoding error: duplicate field "type"');
    const warn = await request(`${ns('f')}?fieldValidation=Warn`, { method: 'POST', body: withUnknown });
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe(
      '299 - "unknown field \\"metadata.nope\\"", 299 - "unknown field \\"bogus\\""',
    );
    const ignore = await request(`${ns('f')}?fieldValidation=Ignore`, {
      method: 'POST',
      body: { ...withUnknown, metadata: { name: 'fv2', namespace: 'f' } },
    });
    expect(ignore.status).toBe(201);
    expect(ignore.headers.get('warning')).toBeNull();
    expect(ignore.body.bogus).toBeUndefined();
  });
});
