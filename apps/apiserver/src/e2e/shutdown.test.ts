import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { haveRedisServer, RedisServer, waitFor } from '@kevents/storage-redis/testing';
import { ApiserverProcess } from '../testing/apiserver-process.js';
import { sampleEvent } from '../testing/server.js';

/**
 * SIGTERM to the real kevents-apiserver process during mixed load with open watches and a large
 * list in flight: `/readyz` fails first, requests in flight all finish, watches end cleanly, the
 * process exits 0; on the memory store and on a real Redis (where nothing is stored for a request
 * that got no answer).
 */

type Outcome =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly text: string;
      readonly headers: IncomingMessage['headers'];
    }
  | { readonly kind: 'refused' }
  | { readonly kind: 'cut'; readonly error: string };

/**
 * One request, on a connection of its own or through `agent`; `onResponse` sees the response
 * before its body is read. A failure before any answer on a connection opened for this request
 * is `refused`: the server never took the request (the connection was refused, or reset while it
 * waited in the kernel's accept queue as the listener closed). Any other failure is `cut`.
 */
function send(
  url: string,
  method = 'GET',
  body?: unknown,
  onResponse?: (res: IncomingMessage) => void,
  agent: Agent | false = false,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      url,
      {
        method,
        agent,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            kind: 'answer',
            status: res.statusCode!,
            text: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
        res.on('error', (err) => resolve({ kind: 'cut', error: `${method} ${url}: response: ${err.message}` }));
        onResponse?.(res);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve(
        err.code === 'ECONNREFUSED' || (!req.reusedSocket && err.code === 'ECONNRESET')
          ? { kind: 'refused' }
          : { kind: 'cut', error: `${method} ${url}: ${err.message} (reused connection: ${req.reusedSocket})` },
      ),
    );
    req.end(payload);
  });
}

/** A watch stream: how it ended (`end`: the chunked stream was terminated cleanly). */
function openWatch(url: string): Promise<{ ended: Promise<'end' | string>; lines: () => number }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = httpRequest(url, { agent: false }, (res) => {
      const ended = new Promise<'end' | string>((done) => {
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => done('end'));
        res.on('error', (err) => done(`watch cut: ${err.message}`));
      });
      resolve({ ended, lines: () => text.split('\n').length - 1 });
    });
    req.on('error', reject);
    req.end();
  });
}

const pad = 'p'.repeat(2000);

/** Creates `n` events in `namespace` (20 at a time). */
async function preload(url: string, namespace: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 20) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 20); j++) {
      const ev = sampleEvent(`big-${j}`, namespace);
      (ev['metadata'] as Record<string, unknown>)['annotations'] = { pad };
      batch.push(send(`${url}/apis/events.k8s.io/v1/namespaces/${namespace}/events`, 'POST', ev));
    }
    for (const o of await Promise.all(batch)) expect(o.kind === 'answer' && o.status).toBe(201);
  }
}

interface LoadResult {
  created: Set<string>;
  answers: number;
  refusals: number;
  cut: string[];
}

/**
 * `workers` loops of create, get, small list, each worker on its own keep-alive connection (as
 * clients do), until the server refuses one.
 */
function load(url: string, workers: number): { result: LoadResult; done: Promise<void> } {
  const result: LoadResult = { created: new Set(), answers: 0, refusals: 0, cut: [] };
  const ns = `${url}/apis/events.k8s.io/v1/namespaces/load/events`;
  const worker = async (w: number): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await steps(w, agent);
    } finally {
      agent.destroy();
    }
  };
  const steps = async (w: number, agent: Agent): Promise<void> => {
    for (let i = 0; ; i++) {
      const name = `w${w}-${i}`;
      const steps: [string, string, unknown?][] = [
        ['POST', ns, sampleEvent(name, 'load')],
        ['GET', `${ns}/${name}`],
        ['GET', `${ns}?limit=20`],
      ];
      for (const [method, target, body] of steps) {
        const o = await send(target, method, body, undefined, agent);
        if (o.kind === 'cut') result.cut.push(o.error);
        if (o.kind === 'refused' || (o.kind === 'answer' && o.status === 429)) {
          result.refusals++;
          return;
        }
        if (o.kind === 'answer') {
          result.answers++;
          if (method === 'POST' && o.status === 201) result.created.add(name);
        }
      }
    }
  };
  return { result, done: Promise.all(Array.from({ length: workers }, (_, w) => worker(w))).then(() => undefined) };
}

const storages: [string, () => Promise<string>][] = [['memory', async () => 'memory']];
let redis: RedisServer | undefined;
if (haveRedisServer()) {
  storages.push([
    'redis',
    async () => {
      redis ??= await RedisServer.start();
      return redis.url;
    },
  ]);
}

const procs: ApiserverProcess[] = [];
afterEach(async () => {
  await Promise.all(procs.splice(0).map((p) => p.stop()));
});
afterAll(async () => {
  await redis?.stop();
});
beforeAll(() => {
  expect(storages.length).toBe(2);
});

describe.each(storages)('SIGTERM during mixed load (%s)', (_name, storageUrl) => {
  it('fails /readyz first, finishes every request in flight, ends watches cleanly, exits 0', async () => {
    const storage = await storageUrl();
    const a = await ApiserverProcess.start(storage, ['--shutdown-delay-duration=2s']);
    procs.push(a);
    await preload(a.url, 'big', 3000);

    const watches = await Promise.all([
      openWatch(`${a.url}/apis/events.k8s.io/v1/namespaces/load/events?watch=true`),
      openWatch(`${a.url}/api/v1/events?watch=true&allowWatchBookmarks=true`),
      openWatch(`${a.url}/apis/events.k8s.io/v1/watch/events`),
    ]);
    // A ~7 MB list whose client reads only once the server has begun to drain.
    let listResponse: IncomingMessage | undefined;
    const list = send(`${a.url}/apis/events.k8s.io/v1/namespaces/big/events`, 'GET', undefined, (res) => {
      res.pause();
      listResponse = res;
    });
    await waitFor(
      async () => listResponse !== undefined,
      10_000,
      () => 'the large list did not start',
    );

    const { result, done } = load(a.url, 4);
    await waitFor(
      async () => result.answers >= 60,
      20_000,
      () => `load too slow: ${result.answers}`,
    );
    const exited = a.exited();
    a.kill('SIGTERM');

    // During --shutdown-delay-duration: /readyz fails, /livez and the API still answer.
    let readyz: Outcome | undefined;
    await waitFor(
      async () => {
        readyz = await send(`${a.url}/readyz?verbose`);
        return readyz.kind === 'answer' && readyz.status === 500;
      },
      10_000,
      () => `/readyz never failed: ${JSON.stringify(readyz)}`,
    );
    expect(readyz).toMatchObject({ kind: 'answer', status: 500 });
    expect((readyz as { text: string }).text).toContain('[-]shutdown failed: reason withheld');
    expect(await send(`${a.url}/livez`)).toMatchObject({ kind: 'answer', status: 200 });
    const answersAtSigterm = result.answers;

    // Draining: new connections are refused; the paused list is still in flight. Read it now.
    await waitFor(
      async () => result.refusals > 0,
      20_000,
      () => 'the server never stopped accepting',
    );
    expect(result.answers).toBeGreaterThan(answersAtSigterm);
    listResponse!.resume();
    const listed = await list;
    expect(listed.kind).toBe('answer');
    const body = JSON.parse((listed as { text: string }).text) as { items: unknown[] };
    expect(body.items).toHaveLength(3000);

    await done;
    expect(result.cut).toEqual([]);
    for (const w of watches) expect(await w.ended).toBe('end');
    expect(await exited).toEqual({ code: 0, signal: null });

    if (storage !== 'memory') {
      // Nothing was stored for a request that got no answer, and everything answered 201 was.
      const b = await ApiserverProcess.start(storage);
      procs.push(b);
      const stored = await send(`${b.url}/apis/events.k8s.io/v1/namespaces/load/events`);
      const names = (JSON.parse((stored as { text: string }).text) as { items: { metadata: { name: string } }[] }).items
        .map((i) => i.metadata.name)
        .sort();
      expect(names).toEqual([...result.created].sort());
    }
  }, 90_000);
});

describe('shutdown limits', () => {
  it('--shutdown-send-retry-after answers 429 with Retry-After while draining; --request-timeout cuts what is left', async () => {
    const a = await ApiserverProcess.start('memory', ['--shutdown-send-retry-after', '--request-timeout=2s']);
    procs.push(a);
    await preload(a.url, 'big', 3000);
    let listResponse: IncomingMessage | undefined;
    const list = send(`${a.url}/api/v1/namespaces/big/events`, 'GET', undefined, (res) => {
      res.pause();
      listResponse = res;
    });
    await waitFor(
      async () => listResponse !== undefined,
      10_000,
      () => 'the large list did not start',
    );
    const exited = a.exited();
    const sigtermAt = Date.now();
    a.kill('SIGTERM');

    let refused: Outcome | undefined;
    await waitFor(
      async () => {
        refused = await send(`${a.url}/api/v1/namespaces/default/events`);
        return refused.kind === 'answer' && refused.status === 429;
      },
      10_000,
      () => `no 429 while draining: ${JSON.stringify(refused)}`,
    );
    const r = refused as Extract<Outcome, { kind: 'answer' }>;
    expect(r.headers['retry-after']).toBe('5');
    expect(r.headers['connection']).toBe('close');
    // kube-apiserver's WithRetryAfter answers with Go's http.Error: plain text, not a Status.
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.text).toBe('The apiserver is shutting down, please try again later.\n');
    // The health checks are still answered while draining.
    expect(await send(`${a.url}/livez`)).toMatchObject({ kind: 'answer', status: 200 });

    // The list's client never reads: the grace period ends it, and the process still exits 0.
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - sigtermAt).toBeGreaterThanOrEqual(2000);
    listResponse!.resume();
    expect((await list).kind).toBe('cut');
  }, 60_000);
});
