import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event, WatchEvent } from '@kevents/api';
import { ApiError } from '../errors.js';
import { testKubeConfig } from '../testing/clients.js';
import { ResourceClient } from './resource-client.js';
import { RestClient } from './rest-client.js';

const events = { group: 'events.k8s.io', version: 'v1', resource: 'events', namespaced: true } as const;

/** A server whose watch answers are written by each test, chunk by chunk. */
let server: Server;
let base = '';
let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function client(options: ConstructorParameters<typeof RestClient>[1] = {}): ResourceClient<Event> {
  return new ResourceClient<Event>(new RestClient(testKubeConfig(base), options), events);
}

/** Runs one watch to its end: the events seen and what `done` received. */
function watchAll(
  c: ResourceClient<Event>,
  onEvent?: (ev: WatchEvent<Event>, seen: WatchEvent<Event>[]) => void,
): Promise<{ seen: WatchEvent<Event>[]; err: unknown; calls: number }> {
  return new Promise((resolve) => {
    const seen: WatchEvent<Event>[] = [];
    let calls = 0;
    void c.watch(
      { namespace: 'demo', resourceVersion: '7', allowWatchBookmarks: true },
      (ev) => {
        seen.push(ev);
        onEvent?.(ev, seen);
      },
      (err) => {
        calls++;
        setTimeout(() => resolve({ seen, err, calls }), 50);
      },
    );
  });
}

const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;

describe('ResourceClient.watch', () => {
  it('reads lines split anywhere, a character split between chunks, ERROR lines, and skips what is not an event', async () => {
    const note = 'café ☕ €';
    const text =
      line('ADDED', { metadata: { name: 'a', resourceVersion: '8' }, note }) +
      'not json\n\n' +
      line('BOOKMARK', { metadata: { resourceVersion: '9' } }) +
      line('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
    const bytes = Buffer.from(text);
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      const next = (): void => {
        if (i >= bytes.length) return void res.end();
        res.write(bytes.subarray(i, i + 7));
        i += 7;
        setImmediate(next);
      };
      next();
    };
    const { seen, err, calls } = await watchAll(client());
    expect(err).toBeNull();
    expect(calls).toBe(1);
    expect(seen.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK', 'ERROR']);
    expect(seen[0]!.object.note).toBe(note);
    expect(requests.at(-1)).toBe(
      '/apis/events.k8s.io/v1/namespaces/demo/events?resourceVersion=7&allowWatchBookmarks=true&watch=true',
    );
  });

  it("reads an object's escaped keys as JSON says after a text that makes Node 24's JSON.parse misread them (nodejs/node#63785)", async () => {
    JSON.parse('{"metadata":{"annotations":{"zz.example.com/first":"","zz.example.com\\\\/tea":"x"}}}');
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        '{"type":"ADDED","object":{"metadata":{"annotations":{"zz.example.com/first":"","zz.example.com\\/team":"y"}}}}\n',
      );
    };
    const { seen } = await watchAll(client());
    expect(seen[0]!.object.metadata.annotations).toEqual({ 'zz.example.com/first': '', 'zz.example.com/team': 'y' });
  });

  it("a non-2xx answer ends the watch with an ApiError holding the server's Status", async () => {
    answer = (_req, res) => {
      res.writeHead(410, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'too old resource version: 7 (9)',
          reason: 'Expired',
          code: 410,
        }),
      );
    };
    const { seen, err, calls } = await watchAll(client());
    expect(seen).toEqual([]);
    expect(calls).toBe(1);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).httpStatus).toBe(410);
    expect((err as ApiError).reason).toBe('Expired');
  });

  it('stop() ends it once, with no error and no event after it', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(line('MODIFIED', { metadata: { name: 'a' } })), 5);
      res.on('close', () => clearInterval(timer));
    };
    const c = client();
    const result = await new Promise<{ seen: number; after: number; errs: unknown[] }>((resolve) => {
      let seen = 0;
      const errs: unknown[] = [];
      void c
        .watch(
          {},
          () => seen++,
          (err) => errs.push(err),
        )
        .then(async (h) => {
          while (seen < 3) await new Promise((r) => setTimeout(r, 5));
          h.stop();
          const at = seen;
          h.stop();
          await new Promise((r) => setTimeout(r, 60));
          resolve({ seen: at, after: seen, errs });
        });
    });
    expect(result.after).toBe(result.seen);
    expect(result.errs).toEqual([null]);
  });

  it('ends a silent watch after watchIdleTimeoutMs without an error (the caller resumes it), and any byte keeps it open', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let n = 0;
      const timer = setInterval(() => {
        if (n++ < 6) res.write(n % 2 ? '\n' : line('BOOKMARK', { metadata: { resourceVersion: String(n) } }));
      }, 60);
      res.on('close', () => clearInterval(timer));
    };
    const started = Date.now();
    const { seen, err } = await watchAll(client({ watchIdleTimeoutMs: 150 }));
    const took = Date.now() - started;
    expect(err).toBeNull();
    expect(seen.map((e) => e.type)).toEqual(['BOOKMARK', 'BOOKMARK', 'BOOKMARK']);
    expect(took).toBeGreaterThanOrEqual(360 + 150);
  });

  it('ends a watch whose line passes 16 MiB with a Transport error, promptly, and keeps the lines before it', async () => {
    // Before: the pending text was scanned again per chunk: a 16 MiB line without a newline took 7.8 s
    // (the event loop held up to 1.7 s at a time), 64 MiB 136 s, and memory grew with the line.
    const chunk = Buffer.alloc(64 * 1024, 'a');
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(line('BOOKMARK', { metadata: { resourceVersion: '8' } }));
      let sent = 0;
      const next = (): void => {
        if (res.destroyed || sent++ >= 512) return void res.end();
        if (res.write(chunk)) setImmediate(next);
        else res.once('drain', next);
      };
      next();
    };
    const started = Date.now();
    const { seen, err } = await watchAll(client());
    expect(seen.map((e) => e.type)).toEqual(['BOOKMARK']);
    expect((err as { code?: string }).code).toBe('Transport');
    expect(String(err)).toMatch(/a watch line is longer than 16777216 bytes/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ends a watch at its timeoutSeconds even when the server keeps it alive, as client-go does', async () => {
    // Before: a server that drips a newline every 100 ms (never silent, never ending) held it forever.
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write('\n'), 100);
      res.on('close', () => clearInterval(timer));
    };
    const started = Date.now();
    const { err } = await new Promise<{ err: unknown }>((resolve) => {
      void client().watch(
        { namespace: 'demo', timeoutSeconds: 1 },
        () => undefined,
        (e) => resolve({ err: e }),
      );
    });
    expect(err).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a connection refused ends it with a Transport error', async () => {
    const c = new ResourceClient<Event>(new RestClient(testKubeConfig('http://127.0.0.1:9')), events);
    const { err } = await watchAll(c);
    expect((err as { code?: string }).code).toBe('Transport');
  });
});
