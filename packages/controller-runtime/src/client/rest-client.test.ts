import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { causeChain, ControllerRuntimeError } from '../errors.js';
import { testKubeConfig } from '../testing/clients.js';
import { ResourceClient } from './resource-client.js';
import { RestClient } from './rest-client.js';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('transport errors', () => {
  it('name what failed, not only fetch’s "fetch failed": the refused connection, for requests and watches', async () => {
    const port = await closedPort();
    const rest = new RestClient(testKubeConfig(`http://127.0.0.1:${port}`));
    const events = new ResourceClient(rest, {
      group: 'events.k8s.io',
      version: 'v1',
      resource: 'events',
      namespaced: true,
    });
    const err = await events.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    const watched = await new Promise<unknown>((resolve) => {
      events.watch({}, () => undefined, resolve);
    });
    expect((watched as Error).message).toMatch(
      new RegExp(`fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`),
    );
    expect(err).toBeInstanceOf(ControllerRuntimeError);
    expect((err as Error).message).toMatch(
      new RegExp(`^GET /apis/events.k8s.io/v1/events\\S*: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`),
    );
  });

  it('causeChain joins an error’s message with its causes’, each once, at most four deep', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(causeChain(new TypeError('fetch failed', { cause: inner }))).toBe(
      'fetch failed: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(causeChain(new Error('a: b', { cause: new Error('b') }))).toBe('a: b');
    expect(causeChain('plain')).toBe('plain');
    let deep: Error = new Error('5');
    for (const m of ['4', '3', '2', '1']) deep = new Error(m, { cause: deep });
    expect(causeChain(deep)).toBe('1: 2: 3: 4');
  });
});
