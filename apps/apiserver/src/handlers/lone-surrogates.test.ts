import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const ns = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage() });
});
afterAll(async () => srv.close());

describe('a JSON escape of a lone surrogate', () => {
  // Attacker pass 6 (session 30): kube-apiserver decodes JSON with Go's encoding/json, whose unquote
  // turns `\ud800` not followed by a low surrogate into U+FFFD; kevents kept the lone surrogate,
  // stored it and answered `"\ud800"` in JSON (kube: the bytes of U+FFFD) while its own protobuf
  // answer of the same object held U+FFFD. Every client JSON text is read with parseJson.
  it('is read as U+FFFD, as Go reads it, in a create, a merge patch, a JSON patch and an apply', async () => {
    const body = JSON.stringify(sampleEvent('lone', 's')).replace(
      '"metadata":{',
      '"metadata":{"annotations":{"a.io/x":"\\ud800x\\udc00","a.io/pair":"\\ud83d\\ude00"},',
    );
    const created = await request(ns('s'), { method: 'POST', body });
    expect(created.status).toBe(201);
    expect(created.body.metadata.annotations).toEqual({ 'a.io/x': '\ufffdx\ufffd', 'a.io/pair': '\u{1f600}' });
    const patched = await request(`${ns('s')}/lone`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: '{"metadata":{"annotations":{"a.io/y":"\\udfff"}}}',
    });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.annotations['a.io/y']).toBe('\ufffd');
    const jsonPatched = await request(`${ns('s')}/lone`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json-patch+json' },
      body: '[{"op":"add","path":"/metadata/annotations/a.io~1z","value":"z\\udc00"}]',
    });
    expect(jsonPatched.status).toBe(200);
    expect(jsonPatched.body.metadata.annotations['a.io/z']).toBe('z\ufffd');
    const applied = await request(`${ns('s')}/lone?fieldManager=m&force=true`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify(sampleEvent('lone', 's')).replace(
        '"metadata":{',
        '"metadata":{"annotations":{"a.io/w":"\\ud801w"},',
      ),
    });
    expect(applied.status).toBe(200);
    expect(applied.body.metadata.annotations['a.io/w']).toBe('\ufffdw');
    expect((await request(`${ns('s')}/lone`)).text).not.toMatch(/\\ud[89a-f]/i);
  });
});
