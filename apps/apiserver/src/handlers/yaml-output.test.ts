import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
const ns = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;
const yaml = { accept: 'application/yaml' };

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv.close());

describe('Accept: application/yaml', () => {
  it('GET answers the object in goyaml’s form: keys sorted, block style, quoted where a string would read as another type', async () => {
    await request(ns('y1'), { method: 'POST', body: sampleEvent('a', 'y1', { note: 'true' }) });
    const json = await request(`${ns('y1')}/a`);
    const r = await request(`${ns('y1')}/a`, { headers: yaml });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/yaml');
    expect(parse(r.text)).toEqual(json.body);
    const lines = r.text.split('\n');
    expect(lines[0]).toBe(`action: ${json.body.action}`);
    expect(lines).toContain('apiVersion: events.k8s.io/v1');
    expect(lines).toContain('note: "true"');
    expect(lines).toContain('metadata:');
    expect(lines).toContain(`  name: a`);
    expect(r.text.endsWith('\n')).toBe(true);
  });

  it('lists, Tables and PartialObjectMetadata come as YAML too; a watch is a 406 listing the watch media type', async () => {
    await request(ns('y2'), { method: 'POST', body: sampleEvent('a', 'y2') });
    await request(ns('y2'), { method: 'POST', body: sampleEvent('b', 'y2') });
    const list = await request(`${ns('y2')}?limit=1`, { headers: yaml });
    const doc = parse(list.text);
    expect(doc).toMatchObject({
      kind: 'EventList',
      metadata: { remainingItemCount: 1 },
      items: [{ metadata: { name: 'a' } }],
    });
    expect(list.text).toMatch(/^apiVersion: events\.k8s\.io\/v1\nitems:\n- /);
    const table = await request(ns('y2'), { headers: { accept: 'application/yaml;as=Table;g=meta.k8s.io;v=v1' } });
    expect(parse(table.text)).toMatchObject({ kind: 'Table', rows: [{ cells: expect.any(Array) }, {}] });
    const partial = await request(`${ns('y2')}/a`, {
      headers: { accept: 'application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
    });
    expect(partial.text).toMatch(/^apiVersion: meta\.k8s\.io\/v1\nkind: PartialObjectMetadata\nmetadata:\n/);
    const watch = await request(`${ns('y2')}?watch=true`, { headers: yaml });
    expect(watch.status).toBe(406);
    // The error itself is written in YAML, as kube's ErrorNegotiated picks the client's media type.
    expect(watch.headers.get('content-type')).toBe('application/yaml');
    expect(parse(watch.text)).toMatchObject({
      message:
        'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    });
  });

  it('errors and writes answer in YAML when asked', async () => {
    const missing = await request(`${ns('y3')}/nope`, { headers: yaml });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/yaml');
    expect(parse(missing.text)).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
    const made = await request(ns('y3'), { method: 'POST', body: sampleEvent('a', 'y3'), headers: yaml });
    expect(made.status).toBe(201);
    expect(parse(made.text)).toMatchObject({ kind: 'Event', metadata: { name: 'a' } });
    const gone = await request(`${ns('y3')}/a`, { method: 'DELETE', headers: yaml });
    expect(parse(gone.text)).toMatchObject({ kind: 'Status', status: 'Success' });
    // An Accept the error cannot be negotiated with gets JSON, never a 406 hiding the error.
    const html = await request(`${ns('y3')}/nope`, { headers: { accept: 'text/html' } });
    expect(html.status).toBe(406);
    expect(html.headers.get('content-type')).toBe('application/json');
    // As WriteRawJSON writes it: indented, no newline.
    expect(html.text).toBe(JSON.stringify(html.body, null, 2));
  });
});
