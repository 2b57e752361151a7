import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { get } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeProtobuf } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import { goJsonText, jsonToYaml } from '@kevents/apiserver';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/** More than `listStreamMinItems`: these lists are streamed. */
const count = 1200;
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io';

let srv: TestServer;

/** Stores `n` copies of one event created through the API (the stored form), named `ev-<i>`. */
async function fill(target: TestServer, namespace: string, n: number, pad = ''): Promise<void> {
  const created = await request(`${target.url}/apis/events.k8s.io/v1/namespaces/${namespace}/events`, {
    method: 'POST',
    body: sampleEvent('seed', namespace, { eventTime: '2020-01-02T03:04:05.123456Z' }),
  });
  expect(created.status).toBe(201);
  const seed = await target.storage.get<KubeObject>({ resource: 'events', namespace, name: 'seed' });
  for (let i = 0; i < n; i++) {
    const name = `ev-${String(i).padStart(6, '0')}`;
    const copy = structuredClone(seed) as KubeObject & { metadata: Record<string, unknown> };
    copy.metadata = { ...copy.metadata, name, uid: `uid-${i}`, resourceVersion: undefined };
    if (pad) copy.metadata['annotations'] = { pad };
    await target.storage.create({ resource: 'events', namespace, name }, copy);
  }
}

/** Every page of a list (limit 400: each page is answered in one buffered write), parsed. */
async function pages(url: string, accept?: string): Promise<{ first: Record<string, unknown>; all: unknown[] }> {
  const headers = accept ? { accept } : undefined;
  const all: unknown[] = [];
  let first: Record<string, unknown> | undefined;
  let cont = '';
  do {
    const sep = url.includes('?') ? '&' : '?';
    const page = await request(`${url}${sep}limit=400${cont ? `&continue=${cont}` : ''}`, headers ? { headers } : {});
    expect(page.status).toBe(200);
    expect(page.headers.get('transfer-encoding')).toBeNull();
    // The buffered answer is canonical JSON: parsing and re-encoding gives it back byte for byte.
    expect(`${JSON.stringify(page.body)}\n`).toBe(page.text);
    first ??= page.body;
    all.push(...(page.body.items ?? page.body.rows));
    cont = page.body.metadata.continue ?? '';
  } while (cont);
  return { first: first!, all };
}

beforeAll(async () => {
  srv = await startTestServer();
  await fill(srv, 'big', count);
});
afterAll(async () => srv.close());

describe('large unpaged lists', () => {
  it.each([
    ['events.k8s.io/v1', '/apis/events.k8s.io/v1/namespaces/big/events'],
    ['core/v1', '/api/v1/namespaces/big/events'],
    ['events.k8s.io/v1, all namespaces', '/apis/events.k8s.io/v1/events'],
  ])('are streamed (chunked) with the bytes of the buffered answer: %s', async (_name, path) => {
    const { first, all } = await pages(`${srv.url}${path}`);
    expect(all).toHaveLength(count + 1);
    const whole = {
      kind: first['kind'],
      apiVersion: first['apiVersion'],
      metadata: { resourceVersion: (first['metadata'] as { resourceVersion: string }).resourceVersion },
      items: all,
    };
    const list = await request(`${srv.url}${path}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('transfer-encoding')).toBe('chunked');
    expect(list.headers.get('content-type')).toBe('application/json');
    expect(list.headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(list.text).toBe(`${JSON.stringify(whole)}\n`);
    const pretty = await request(`${srv.url}${path}?pretty=true`);
    expect(pretty.headers.get('transfer-encoding')).toBe('chunked');
    expect(pretty.text).toBe(JSON.stringify(whole, null, 2));
  });

  it.each([
    ['events.k8s.io/v1', '/apis/events.k8s.io/v1/namespaces/big/events', ''],
    ['core/v1 with includeObject=Object', '/api/v1/namespaces/big/events', '?includeObject=Object'],
    ['core/v1 with includeObject=None, pretty', '/api/v1/namespaces/big/events', '?includeObject=None&pretty=1'],
  ])('streams Tables with the bytes of the buffered answer: %s', async (_name, path, query) => {
    const { first, all } = await pages(`${srv.url}${path}${query.replace('&pretty=1', '')}`, tableAccept);
    const whole = {
      ...first,
      metadata: { resourceVersion: (first['metadata'] as { resourceVersion: string }).resourceVersion },
      rows: all,
    };
    const table = await request(`${srv.url}${path}${query}`, { headers: { accept: tableAccept } });
    expect(table.status).toBe(200);
    expect(table.headers.get('transfer-encoding')).toBe('chunked');
    const pretty = query.includes('pretty');
    expect(table.text).toBe(pretty ? JSON.stringify(whole, null, 2) : `${JSON.stringify(whole)}\n`);
  });

  it.each([
    ['events', '', 'application/yaml'],
    ['a Table', '', 'application/yaml;as=Table;v=v1;g=meta.k8s.io'],
    ['a PartialObjectMetadataList', '', 'application/yaml;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'],
  ])('streams YAML with the bytes kube writes for the whole list: %s', async (_name, query, accept) => {
    const path = '/apis/events.k8s.io/v1/namespaces/big/events';
    const jsonAccept = accept.replace('application/yaml', 'application/json');
    const json = await request(`${srv.url}${path}${query}`, { headers: { accept: jsonAccept } });
    const yaml = await request(`${srv.url}${path}${query}`, { headers: { accept } });
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('transfer-encoding')).toBe('chunked');
    expect(yaml.headers.get('content-type')).toBe('application/yaml');
    // Tables are timed: the Last Seen cells are the same within a run as long as the clock’s minute holds.
    expect(yaml.text).toBe(jsonToYaml(goJsonText(json.text.trimEnd())));
  });

  it('encodes a large protobuf list a batch per turn into the bytes of the whole list', async () => {
    const path = `${srv.url}/apis/events.k8s.io/v1/namespaces/big/events`;
    const json = await request(path);
    const res = await fetch(path, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(encodeProtobuf(json.body, 'events/v1.EventList'))).toBe(true);
  });

  it('streams a short list whose items pass 8 MiB, and every indented or YAML list', async () => {
    const heavy = await startTestServer();
    try {
      await fill(heavy, 'heavy', 4, 'x'.repeat(2_500_000));
      const path = `${heavy.url}/apis/events.k8s.io/v1/namespaces/heavy/events`;
      const list = await request(path);
      expect(list.headers.get('transfer-encoding')).toBe('chunked');
      expect(list.body.items).toHaveLength(5);
      expect(`${JSON.stringify(list.body)}\n`).toBe(list.text);
      const small = await request(`${path}?limit=1`);
      expect(small.headers.get('transfer-encoding')).toBeNull();
      for (const [query, accept] of [
        ['?limit=1&pretty=true', 'application/json'],
        ['?limit=1', 'application/yaml'],
      ] as const) {
        const r = await request(`${path}${query}`, { headers: { accept } });
        expect([query, accept, r.headers.get('transfer-encoding')]).toEqual([query, accept, 'chunked']);
      }
    } finally {
      await heavy.close();
    }
  });

  it('serves other requests while a list waits for its client, and holds only a few chunks of it', async () => {
    const big = await startTestServer();
    try {
      // About 20 MB of JSON: far more than the socket buffers between a paused client and the server.
      await fill(big, 'huge', 12_000, 'x'.repeat(1500));
      let serverSide: ServerResponse | undefined;
      big.server.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        if (req.url === '/apis/events.k8s.io/v1/namespaces/huge/events') serverSide = res;
      });
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        get(`${big.url}/apis/events.k8s.io/v1/namespaces/huge/events`, resolve).on('error', reject),
      );
      response.pause();
      // The server stops encoding once the paused client's socket is full.
      await waitUntil(() => serverSide?.socket?.writableNeedDrain === true);
      const livez = await request(`${big.url}/livez`);
      expect(livez.status).toBe(200);
      const socket = serverSide!.socket!;
      const produced = socket.bytesWritten + socket.writableLength;
      expect(produced).toBeLessThan(10 * 1024 * 1024);
      // The list is still whole once the client reads on.
      let bytes = 0;
      let tail = '';
      response.on('data', (d: Buffer) => {
        bytes += d.length;
        tail = (tail + d.toString('latin1')).slice(-3);
      });
      response.resume();
      await new Promise((r) => response.once('end', r));
      expect(bytes).toBeGreaterThan(20 * 1024 * 1024);
      expect(tail).toBe(']}\n');
    } finally {
      await big.close();
    }
  });
});

/** Resolves once `cond()` holds (checked every turn of the event loop), or fails after 10 s. */
async function waitUntil(cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
