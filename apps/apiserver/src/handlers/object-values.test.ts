import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { encodeProtobuf } from '@kevents/api';
import { countValuesUpTo, maxBodyValues, maxJSONPatchMemberNames, maxObjectValues } from '@kevents/apiserver';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, sampleEventYaml, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const ns = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;
const message = `Request entity too large: limit is ${maxObjectValues} values (object members and array elements) in one object`;
const labels = (n: number, prefix = 'k'): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'v']));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const expectTooLarge = (r: { status: number; body: any }): void => {
  expect(r.status).toBe(413);
  expect(r.body).toMatchObject({
    kind: 'Status',
    status: 'Failure',
    code: 413,
    reason: 'RequestEntityTooLarge',
    message,
  });
};

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage() });
});
afterAll(async () => srv.close());

describe(`an object holds at most ${maxObjectValues} values`, () => {
  it('refuses a JSON create past the bound, and stores nothing', async () => {
    const body = sampleEvent('wide', 'v1', {});
    (body['metadata'] as Record<string, unknown>)['labels'] = labels(maxObjectValues);
    expectTooLarge(await request(ns('v1'), { method: 'POST', body }));
    expect((await request(`${ns('v1')}/wide`)).status).toBe(404);
  });

  it('refuses a create whose managedFields would take the stored object past it', async () => {
    const body = sampleEvent('half', 'v1');
    (body['metadata'] as Record<string, unknown>)['labels'] = labels(Math.floor(maxObjectValues * 0.6));
    expectTooLarge(await request(ns('v1'), { method: 'POST', body }));
    expect((await request(`${ns('v1')}/half`)).status).toBe(404);
  });

  it('refuses a client managedFields entry with a wide fieldsV1', async () => {
    const fieldsV1 = Object.fromEntries(Array.from({ length: 2 * maxObjectValues }, (_, i) => [`f:k${i}`, {}]));
    const body = sampleEvent('fields', 'v1');
    (body['metadata'] as Record<string, unknown>)['managedFields'] = [
      { manager: 'm', operation: 'Update', apiVersion: 'events.k8s.io/v1', fieldsType: 'FieldsV1', fieldsV1 },
    ];
    expectTooLarge(await request(ns('v1'), { method: 'POST', body }));
  });

  it('stores an object within it that can be sent back whole', async () => {
    const body = sampleEvent('within', 'v1');
    (body['metadata'] as Record<string, unknown>)['labels'] = labels(Math.floor(maxObjectValues * 0.4));
    expect((await request(ns('v1'), { method: 'POST', body })).status).toBe(201);
    const got = (await request(`${ns('v1')}/within`)).body;
    got.metadata.labels.k0 = 'changed';
    const put = await request(`${ns('v1')}/within`, { method: 'PUT', body: got });
    expect(put.status).toBe(200);
    expect(put.body.metadata.labels.k0).toBe('changed');
  });

  it('stores a body of up to a fifth of the bound uncounted, and within the bound, through either view', async () => {
    const n = maxObjectValues / 5 - 20;
    const body = sampleEvent('fifth', 'v4');
    (body['metadata'] as Record<string, unknown>)['labels'] = labels(n);
    const created = await request(ns('v4'), { method: 'POST', body });
    expect(created.status).toBe(201);
    expect(countValuesUpTo(created.body, maxObjectValues)).toBeLessThanOrEqual(maxObjectValues);
    const core = await request(`${srv.url}/api/v1/namespaces/v4/events`, {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'core-fifth', labels: labels(n) },
        involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'v4' },
        reason: 'Testing',
        message: 'm',
        type: 'Normal',
      },
    });
    expect(core.status).toBe(201);
    for (const path of [`${ns('v4')}/core-fifth`, `${srv.url}/api/v1/namespaces/v4/events/core-fifth`]) {
      const got = (await request(path)).body;
      expect(countValuesUpTo(got, maxObjectValues)).toBeLessThanOrEqual(maxObjectValues);
    }
  });

  it('reads any stored object sent back whole, at the very edge of the bound, through either view', async () => {
    for (const [path, kind] of [
      [ns('v5'), 'events.k8s.io'],
      [`${srv.url}/api/v1/namespaces/v5/events`, 'core'],
    ] as const) {
      const body = (n: number): Record<string, unknown> =>
        kind === 'core'
          ? {
              apiVersion: 'v1',
              kind: 'Event',
              metadata: { name: `edge-${kind}-${n}`, labels: labels(n) },
              involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'v5' },
              reason: 'Testing',
              type: 'Normal',
            }
          : { ...sampleEvent(`edge-${kind}-${n}`, 'v5'), metadata: { name: `edge-${kind}-${n}`, labels: labels(n) } };
      // The most labels stored: its stored form is within a few values of the bound.
      let stored = 100;
      let refused = maxObjectValues;
      while (refused - stored > 1) {
        const mid = Math.floor((stored + refused) / 2);
        const r = await request(path, { method: 'POST', body: body(mid) });
        if (r.status === 201) {
          stored = mid;
          await request(`${path}/edge-${kind}-${mid}`, { method: 'DELETE' });
        } else {
          expectTooLarge(r);
          refused = mid;
        }
      }
      expect((await request(path, { method: 'POST', body: body(stored) })).status).toBe(201);
      const got = (await request(`${path}/edge-${kind}-${stored}`)).body;
      expect(countValuesUpTo(got, maxBodyValues)).toBeGreaterThan(maxObjectValues - 40);
      const put = await request(`${path}/edge-${kind}-${stored}`, { method: 'PUT', body: got });
      expect([kind, put.status]).toEqual([kind, 200]);
      const patched = await request(`${path}/edge-${kind}-${stored}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { metadata: { labels: { k0: 'patched' } } },
      });
      expect([kind, patched.status]).toEqual([kind, 200]);
    }
  });

  it('refuses a merge patch whose result passes it, and leaves the object as it was', async () => {
    const created = await request(ns('v2'), { method: 'POST', body: sampleEvent('small', 'v2') });
    expect(created.status).toBe(201);
    const r = await request(`${ns('v2')}/small`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { labels: labels(maxObjectValues) } },
    });
    expectTooLarge(r);
    const after = (await request(`${ns('v2')}/small`)).body;
    expect(after.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect(after.metadata.labels).toBeUndefined();
  });

  it('refuses a JSON patch that spells more names than its operations and an object can need, unread', async () => {
    expect((await request(ns('v2'), { method: 'POST', body: sampleEvent('jp', 'v2') })).status).toBe(201);
    const jsonPatch = { 'content-type': 'application/json-patch+json' };
    const value = labels(maxJSONPatchMemberNames);
    const r = await request(`${ns('v2')}/jp`, {
      method: 'PATCH',
      headers: jsonPatch,
      body: [{ op: 'add', path: '/metadata/labels', value }],
    });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({
      reason: 'RequestEntityTooLarge',
      message: `Request entity too large: limit is ${maxJSONPatchMemberNames} member names in a JSON patch`,
    });
    // Within the names, the patched object is still held to the values' bound.
    const within = await request(`${ns('v2')}/jp`, {
      method: 'PATCH',
      headers: jsonPatch,
      body: [{ op: 'add', path: '/metadata/labels', value: labels(maxObjectValues) }],
    });
    expectTooLarge(within);
  });

  it('refuses a PUT past it', async () => {
    const created = (await request(ns('v2'), { method: 'POST', body: sampleEvent('put', 'v2') })).body;
    created.metadata.labels = labels(maxObjectValues);
    expectTooLarge(await request(`${ns('v2')}/put`, { method: 'PUT', body: created }));
  });

  it('refuses a server-side apply configuration past it', async () => {
    const config = sampleEvent('applied', 'v2');
    (config['metadata'] as Record<string, unknown>)['labels'] = labels(maxObjectValues);
    const r = await request(`${ns('v2')}/applied?fieldManager=tests`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify(config),
    });
    expectTooLarge(r);
    expect((await request(`${ns('v2')}/applied`)).status).toBe(404);
  });

  it('refuses YAML and protobuf bodies past it alike', async () => {
    const yaml = sampleEventYaml('yaml', 'v3', [
      '  labels:',
      ...Array.from({ length: maxBodyValues }, (_, i) => `    k${i}: v`),
    ]);
    expectTooLarge(
      await request(ns('v3'), { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: yaml }),
    );
    const event = sampleEvent('proto', 'v3');
    (event['metadata'] as Record<string, unknown>)['labels'] = labels(maxBodyValues);
    const res = await fetch(ns('v3'), {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
      body: new Uint8Array(encodeProtobuf(event, 'events/v1.Event')),
    });
    expectTooLarge({ status: res.status, body: await res.json() });
    expect((await request(`${ns('v3')}/proto`)).status).toBe(404);
  });
});
