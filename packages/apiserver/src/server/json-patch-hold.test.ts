import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryStorage } from '@kevents/storage';
import { leasesResource } from '../resources/leases/resource.js';
import { buildApiServer } from './build-server.js';
import type { ApiServer } from './build-server.js';

// A JSON patch of 3 MiB is read and applied on the JSON patch thread (patch/json-patch-thread.ts):
// while it is, the server goes on answering. Arrays nested near the bound are the slowest shape
// to read and parse: the event loop's thread spent 307-946 ms of CPU on one before the thread, and
// 17-98 ms with it (receiving the text, handing it to the thread, answering, collecting garbage),
// on a 2-core VM at a load average of 5-8.

const leases = '/apis/coordination.k8s.io/v1/namespaces/ns/leases';
const size = 3 * 1024 * 1024 - 200;
const nested = '['.repeat(990) + ']'.repeat(990);
const deepText = `[{"op":"add","path":"/x","value":[${Array.from({ length: Math.floor(size / (nested.length + 1)) - 1 }, () => nested).join(',')}]}]`;

const deepBytes = Buffer.from(deepText);

let server: ApiServer;
let base: string;
beforeAll(async () => {
  server = buildApiServer({ storage: new MemoryStorage(), resources: [leasesResource()] });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  for (const name of ['target', 'raced']) {
    const r = await fetch(`${base}${leases}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name }, spec: { holderIdentity: 'old' } }),
    });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await server.watches.closeAll();
  await server.app.close();
});

const patch = (name: string, body: string, type = 'application/json-patch+json'): Promise<Response> =>
  fetch(`${base}${leases}/${name}`, { method: 'PATCH', headers: { 'content-type': type }, body });

/** A PATCH through node:http of a body encoded beforehand: its status and Status message. */
function send(body: Buffer): Promise<{ code: number; message: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${leases}/target`,
      { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const answer = JSON.parse(Buffer.concat(chunks).toString()) as { message: string };
          resolve({ code: res.statusCode ?? 0, message: answer.message });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One PATCH: its answer, and the CPU time this thread (the event loop's: the server's, and the
 * little the client adds) spent while it ran, which bounds the longest the event loop was held.
 * Measured as CPU, not as the longest wait of another request, so that a loaded machine (other
 * test files, other work) stretching the wait does not fail it.
 */
async function held(body: Buffer): Promise<{ code: number; message: string; cpuMs: number }> {
  const before = process.threadCpuUsage();
  const answer = await send(body);
  const cpu = process.threadCpuUsage(before);
  return { ...answer, cpuMs: (cpu.user + cpu.system) / 1000 };
}

describe('a JSON patch of 3 MiB', () => {
  it('of arrays nested near the bound does not hold the event loop while it is read (answered as before)', async () => {
    expect(deepBytes.length).toBeGreaterThan(3 * 1024 * 1024 - 4096);
    const tries = [];
    for (let i = 0; i < 4; i++) tries.push(await held(deepBytes));
    for (const t of tries) {
      expect([t.code, t.message]).toEqual([
        413,
        'Request entity too large: limit is 10000 values (object members and array elements) in one object',
      ]);
    }
    // The best of three after one that starts the thread: 3× what the thread leaves the event
    // loop, half of what the patch took of it alone.
    expect(Math.min(...tries.slice(1).map((t) => t.cpuMs))).toBeLessThan(150);
  });

  it('is applied to the object as it is when the update runs, when it changed while the thread read the patch', async () => {
    // The thread works on the object before a small patch lands; the update sees the new one.
    const numbers = Array.from({ length: 300_000 }, (_, i) => i % 10).join(',');
    const body = `[{"op":"test","path":"/spec/holderIdentity","value":"new"},{"op":"add","path":"/x","value":[${numbers}]},{"op":"remove","path":"/x"},{"op":"add","path":"/metadata/labels","value":{"big":"yes"}}]`;
    const large = patch('raced', body);
    const small = await patch('raced', '{"spec":{"holderIdentity":"new"}}', 'application/merge-patch+json');
    expect(small.status).toBe(200);
    const r = await large;
    const lease = (await r.json()) as {
      spec: { holderIdentity: string };
      metadata: { labels: Record<string, string> };
    };
    expect([r.status, lease.spec.holderIdentity, lease.metadata.labels]).toEqual([200, 'new', { big: 'yes' }]);
  });
});
