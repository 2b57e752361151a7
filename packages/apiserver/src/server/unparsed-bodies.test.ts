import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { leasesResource } from '../resources/leases/resource.js';
import { buildApiServer } from './build-server.js';
import type { ApiServer } from './build-server.js';

// Bodies of 3 MiB of small values whose answer is known from their text: each is answered as
// before, without JSON.parse reading the body (which held the event loop 0.1-1.5 s for these).

const leases = '/apis/coordination.k8s.io/v1/namespaces/ns/leases';
const size = 3 * 1024 * 1024 - 200;
const ones = Array.from({ length: Math.floor(size / 2) - 100 }, () => '1').join(',');
const empties = Array.from({ length: Math.floor(size / 3) }, () => '{}').join(',');
const tooLarge = (message: string): Record<string, unknown> => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Request entity too large: ${message}`,
  reason: 'RequestEntityTooLarge',
  code: 413,
});
const badRequest = (message: string): Record<string, unknown> => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'BadRequest',
  code: 400,
});
const valuesMessage = 'limit is 10000 values (object members and array elements) in one object';

let server: ApiServer;
beforeAll(async () => {
  server = buildApiServer({ storage: new MemoryStorage(), resources: [leasesResource()] });
  const r = await server.app.inject({
    method: 'POST',
    url: leases,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ metadata: { name: 'target' }, spec: { holderIdentity: 'me' } }),
  });
  expect(r.statusCode).toBe(201);
});
afterAll(async () => {
  await server.watches.closeAll();
  await server.app.close();
});

/**
 * Sends a body and answers its status, its Status body, whether JSON.parse read the body (a text
 * of more than 1 MiB), and the longest the event loop went without running a 1 ms timer meanwhile.
 */
async function send(
  method: 'POST' | 'PATCH',
  url: string,
  contentType: string,
  payload: string,
): Promise<{ code: number; body: unknown; parsed: boolean; heldMs: number }> {
  const parse = jest.spyOn(JSON, 'parse');
  let last = performance.now();
  let heldMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    heldMs = Math.max(heldMs, now - last);
    last = now;
  }, 1);
  try {
    const r = await server.app.inject({ method, url, headers: { 'content-type': contentType }, payload });
    const parsed = parse.mock.calls.some(([text]) => typeof text === 'string' && text.length > 1024 * 1024);
    parse.mockRestore();
    return { code: r.statusCode, body: r.json(), parsed, heldMs: Math.max(heldMs, performance.now() - last) };
  } finally {
    parse.mockRestore();
    clearInterval(timer);
  }
}

/** Generous: 3 MiB is received and scanned in 20-100 ms on a loaded machine. */
const heldBound = 1_000;

describe('a JSON patch of 3 MiB answered from its text (kube decodes it first: strictly into []jsonPatchOp, or with jsonpatch.DecodePatch under fieldValidation=Ignore)', () => {
  const patch = (payload: string, name = 'target', query = ''): ReturnType<typeof send> =>
    send('PATCH', `${leases}/${name}${query}`, 'application/json-patch+json', payload);

  it('of a million empty operations: kube-apiserver’s operations 413', async () => {
    const r = await patch(`[${empties}]`);
    expect([r.code, r.body]).toEqual([
      413,
      tooLarge(`The allowed maximum operations in a JSON patch is 10000, got ${Math.floor(size / 3)}`),
    ]);
    expect(r.parsed).toBe(false);
    expect(r.heldMs).toBeLessThan(heldBound);
  });

  it('of numbers: the 400 for an operation that is not an object', async () => {
    for (const [query, message] of [
      ['', 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
      ['?fieldValidation=Ignore', 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
    ] as const) {
      const r = await patch(`[${ones}]`, 'target', query);
      expect([r.code, r.body]).toEqual([400, badRequest(message)]);
      expect(r.parsed).toBe(false);
      expect(r.heldMs).toBeLessThan(heldBound);
    }
  });

  it('of an object: the 400 for a patch that is not a list', async () => {
    for (const [query, message] of [
      ['', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
      ['?fieldValidation=Ignore', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ] as const) {
      const r = await patch(`{"a":[${ones}]}`, 'target', query);
      expect([r.code, r.body]).toEqual([400, badRequest(message)]);
      expect(r.parsed).toBe(false);
    }
  });

  it('of a missing object: 404 first, as kube finds the object before it decodes the patch', async () => {
    const r = await patch(`[${empties}]`, 'missing');
    expect(r.code).toBe(404);
  });

  it('of operations that pass: parsed and applied as before (its result refused for its values)', async () => {
    const r = await patch(`[{"op":"add","path":"/metadata/annotations","value":{"a":[${ones.slice(0, 200_001)}]}}]`);
    expect([r.code, r.body]).toEqual([413, tooLarge(valuesMessage)]);
  });
});

describe('merge and strategic merge patches of 3 MiB of numbers: refused unread (maxPatchValues)', () => {
  for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
    it(type, async () => {
      const r = await send('PATCH', `${leases}/target`, type, `{"metadata":{"labels":[${ones}]}}`);
      expect([r.code, r.body]).toEqual([
        413,
        tooLarge('limit is 30000 values (object members and array elements) in a merge or strategic merge patch'),
      ]);
      expect(r.parsed).toBe(false);
      expect(r.heldMs).toBeLessThan(heldBound);
    });
  }
});

describe('a JSON object of 3 MiB of numbers read as YAML: the values 413 every reader answers, unread', () => {
  const body = `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"applied"},"spec":{"x":[${ones}]}}`;

  it('as a server-side apply', async () => {
    const r = await send('PATCH', `${leases}/applied?fieldManager=m`, 'application/apply-patch+yaml', body);
    expect([r.code, r.body]).toEqual([413, tooLarge(valuesMessage)]);
    expect(r.parsed).toBe(false);
    expect(r.heldMs).toBeLessThan(heldBound);
  });

  it('as a YAML create', async () => {
    const r = await send('POST', leases, 'application/yaml', body);
    expect([r.code, r.body]).toEqual([413, tooLarge(valuesMessage)]);
    expect(r.parsed).toBe(false);
  });

  it('not when a name repeats (the YAML reader keeps the last): read as before', async () => {
    const repeated = `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"applied"},"spec":{"x":[${ones.slice(0, 24_001)}]},"spec":{}}`;
    const r = await send('PATCH', `${leases}/applied?fieldManager=m`, 'application/apply-patch+yaml', repeated);
    expect(r.code).toBe(201);
  });
});
