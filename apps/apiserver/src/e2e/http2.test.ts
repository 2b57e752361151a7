import { execFile } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import http2 from 'node:http2';
import type { ClientHttp2Session, ClientHttp2Stream, IncomingHttpHeaders } from 'node:http2';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { servingCert } from '../server/tls.js';
import { Kubectl, sampleEvent, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/** One request the server saw: the HTTP version the raw Node server parsed. */
interface Seen {
  readonly httpVersion: string;
  readonly method: string;
  readonly url: string;
  readonly userAgent: string;
}

let srv: TestServer;
let ca: string;
const seen: Seen[] = [];

beforeAll(async () => {
  const pair = await servingCert('', '', '127.0.0.1');
  ca = pair.cert;
  srv = await startTestServer({ https: { key: pair.key, cert: pair.cert } });
  srv.server.app.server.on('request', (req: IncomingMessage) => {
    seen.push({
      httpVersion: req.httpVersion,
      method: req.method ?? '',
      url: req.url ?? '',
      userAgent: String(req.headers['user-agent'] ?? ''),
    });
  });
});
afterAll(async () => srv?.close());

const connect = async (): Promise<ClientHttp2Session> => {
  const session = http2.connect(srv.url, { ca });
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  return session;
};

interface H2Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly text: string;
}

/** One request on an HTTP/2 session, read to the end. */
const h2 = (session: ClientHttp2Session, method: string, path: string, body?: unknown): Promise<H2Answer> =>
  new Promise((resolve, reject) => {
    const headers: http2.OutgoingHttpHeaders = { ':method': method, ':path': path, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const stream = session.request(headers, { endStream: body === undefined });
    let responseHeaders: IncomingHttpHeaders = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (responseHeaders = h));
    stream.on('data', (d: string) => (text += d));
    stream.on('end', () => {
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      resolve({ status: Number(responseHeaders[':status']), headers: responseHeaders, body: parsed, text });
    });
    stream.on('error', reject);
    if (body !== undefined) stream.end(JSON.stringify(body));
  });

/** A watch on an HTTP/2 stream: events as they arrive. */
class H2Watch {
  readonly events: { type: string; object: Record<string, any> }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly stream: ClientHttp2Stream;
  status = 0;
  headers: IncomingHttpHeaders = {};
  ended = false;
  #buffer = '';
  #waiters: (() => void)[] = [];

  constructor(session: ClientHttp2Session, path: string) {
    this.stream = session.request({ ':method': 'GET', ':path': path, accept: 'application/json' });
    this.stream.setEncoding('utf8');
    this.stream.on('response', (h) => {
      this.headers = h;
      this.status = Number(h[':status']);
      this.#wake();
    });
    this.stream.on('data', (d: string) => {
      this.#buffer += d;
      let nl: number;
      while ((nl = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, nl).trim();
        this.#buffer = this.#buffer.slice(nl + 1);
        if (line) this.events.push(JSON.parse(line));
      }
      this.#wake();
    });
    this.stream.on('close', () => {
      this.ended = true;
      this.#wake();
    });
    this.stream.on('error', () => undefined);
  }

  #wake(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }

  /** Waits until `n` events arrived (or fails after `ms`). */
  async take(n: number, ms = 5000): Promise<H2Watch['events']> {
    const deadline = Date.now() + ms;
    while (this.events.length < n) {
      if (this.ended) throw new Error(`the stream ended after ${this.events.length} events`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out with ${this.events.length} of ${n} events`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return this.events.slice(0, n);
  }

  async responded(ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.status) {
      if (Date.now() > deadline) throw new Error('no response headers');
      await new Promise<void>((r) => {
        const t = setTimeout(r, 50);
        this.#waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  close(): void {
    this.stream.close(http2.constants.NGHTTP2_CANCEL);
  }
}

const eventsPath = (ns: string, q = ''): string => `/apis/events.k8s.io/v1/namespaces/${ns}/events${q}`;
const untilTrue = async (f: () => boolean, ms = 5000, what = 'condition'): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!f()) {
    if (Date.now() > deadline) throw new Error(`${what} not reached`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('HTTP/2 over TLS (ALPN h2)', () => {
  it('negotiates h2 and serves GET, POST and list on one session', async () => {
    const session = await connect();
    try {
      expect(session.alpnProtocol).toBe('h2');
      expect((session.socket as TLSSocket).alpnProtocol).toBe('h2');
      const version = await h2(session, 'GET', '/version');
      expect(version.status).toBe(200);
      expect(version.headers['content-type']).toMatch(/^application\/json/);
      expect(version.body.major).toBeDefined();
      // HTTP/2 forbids connection-specific headers.
      for (const h of ['connection', 'keep-alive', 'transfer-encoding', 'upgrade']) {
        expect(version.headers[h]).toBeUndefined();
      }

      const created = await h2(session, 'POST', eventsPath('h2'), sampleEvent('one', 'h2'));
      expect(created.status).toBe(201);
      expect(created.body.metadata.name).toBe('one');
      const got = await h2(session, 'GET', `${eventsPath('h2')}/one`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);
      const list = await h2(session, 'GET', eventsPath('h2'));
      expect(list.status).toBe(200);
      expect(list.body.kind).toBe('EventList');
      expect(list.body.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toEqual(['one']);
      const missing = await h2(session, 'GET', `${eventsPath('h2')}/nope`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
      const deleted = await h2(session, 'DELETE', `${eventsPath('h2')}/one`);
      expect(deleted.status).toBe(200);
      expect(seen.filter((s) => s.url.startsWith(eventsPath('h2'))).every((s) => s.httpVersion === '2.0')).toBe(true);
    } finally {
      session.close();
    }
  });

  it('serves many concurrent requests multiplexed on one session', async () => {
    const session = await connect();
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          h2(session, 'POST', eventsPath('h2-many'), sampleEvent(`e-${i}`, 'h2-many')),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(201));
      const list = await h2(session, 'GET', eventsPath('h2-many'));
      expect(list.body.items).toHaveLength(40);
    } finally {
      session.close();
    }
  });

  it('a watch streams over h2: initial ADDED, then changes as they happen', async () => {
    const session = await connect();
    try {
      await h2(session, 'POST', eventsPath('h2-watch'), sampleEvent('before', 'h2-watch'));
      const w = new H2Watch(session, eventsPath('h2-watch', '?watch=true'));
      await w.responded();
      expect(w.status).toBe(200);
      expect(w.headers['content-type']).toMatch(/^application\/json/);
      expect(w.headers['content-length']).toBeUndefined();
      expect((await w.take(1))[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'before' } } });
      // A POST on the same session while the watch stream is open.
      const created = await h2(session, 'POST', eventsPath('h2-watch'), sampleEvent('after', 'h2-watch'));
      expect(created.status).toBe(201);
      const [, added] = await w.take(2);
      expect(added).toEqual({ type: 'ADDED', object: created.body });
      const del = await h2(session, 'DELETE', `${eventsPath('h2-watch')}/after`);
      expect(del.status).toBe(200);
      expect((await w.take(3))[2]).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'after' } } });
      w.close();
    } finally {
      session.close();
    }
  });

  it('several watches multiplex on one session, each sees only its namespace', async () => {
    const session = await connect();
    const before = srv.server.watches.size;
    try {
      const namespaces = ['mx-a', 'mx-b', 'mx-c', 'mx-d'];
      const watches = namespaces.map((ns) => new H2Watch(session, eventsPath(ns, '?watch=1&allowWatchBookmarks=true')));
      const all = new H2Watch(session, '/apis/events.k8s.io/v1/events?watch=true&labelSelector=mx%3Dyes');
      await Promise.all([...watches, all].map((w) => w.responded()));
      await untilTrue(
        () => srv.server.watches.size === before + namespaces.length + 1,
        5000,
        `watches: ${before} + 5 (now ${srv.server.watches.size})`,
      );
      // One session: every watch stream belongs to it.
      for (const w of [...watches, all]) expect(w.stream.session).toBe(session);
      for (const ns of namespaces) {
        for (const n of [1, 2]) {
          const body = sampleEvent(`${ns}-${n}`, ns);
          (body['metadata'] as Record<string, unknown>)['labels'] = { mx: 'yes' };
          expect((await h2(session, 'POST', eventsPath(ns), body)).status).toBe(201);
        }
      }
      for (const [i, ns] of namespaces.entries()) {
        const evs = (await watches[i]!.take(2)).filter((e) => e.type !== 'BOOKMARK');
        expect(evs.map((e) => `${e.type} ${e.object['metadata'].namespace}/${e.object['metadata'].name}`)).toEqual([
          `ADDED ${ns}/${ns}-1`,
          `ADDED ${ns}/${ns}-2`,
        ]);
      }
      const everything = await all.take(8);
      expect(everything.map((e) => e.object['metadata'].name).sort()).toEqual(
        namespaces.flatMap((ns) => [`${ns}-1`, `${ns}-2`]).sort(),
      );
      // Cancelling one stream (RST_STREAM) ends that watch on the server; the others go on.
      watches[0]!.close();
      await untilTrue(() => srv.server.watches.size === before + namespaces.length, 5000, 'one watch less');
      expect((await h2(session, 'POST', eventsPath('mx-b'), sampleEvent('mx-b-3', 'mx-b'))).status).toBe(201);
      expect((await watches[1]!.take(3))[2]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'mx-b-3' } } });
    } finally {
      // close() would wait for the open watch streams; destroy() drops the connection.
      session.destroy();
    }
    // Dropping the connection ends every watch on it.
    await untilTrue(() => srv.server.watches.size === before, 5000, 'no watch left');
  });

  it('a watch with timeoutSeconds ends its stream cleanly (END_STREAM, not a reset)', async () => {
    const session = await connect();
    try {
      const w = new H2Watch(session, eventsPath('h2-timeout', '?watch=true&timeoutSeconds=1'));
      await w.responded();
      expect(w.status).toBe(200);
      await untilTrue(() => w.ended, 5000);
      expect(w.stream.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
      // The session is still usable.
      expect((await h2(session, 'GET', '/version')).status).toBe(200);
    } finally {
      session.close();
    }
  });
});

describe('HTTP/1.1 on the same TLS port', () => {
  const get = (
    path: string,
    alpn: string[] | undefined,
  ): Promise<{
    status: number;
    httpVersion: string;
    alpn: string | false | null;
    headers: IncomingMessage['headers'];
    text: string;
  }> =>
    new Promise((resolve, reject) => {
      const url = new URL(path, srv.url);
      const req = https.request(
        url,
        {
          ca,
          ...(alpn ? { ALPNProtocols: alpn } : {}),
          agent: false,
          headers: { accept: 'application/json' },
        } as https.RequestOptions,
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              httpVersion: res.httpVersion,
              alpn: (res.socket as TLSSocket).alpnProtocol,
              headers: res.headers,
              text,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('ALPN http/1.1: an HTTP/1.1 answer', async () => {
    const r = await get(eventsPath('h1'), ['http/1.1']);
    expect(r.alpn).toBe('http/1.1');
    expect(r.httpVersion).toBe('1.1');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text).kind).toBe('EventList');
  });

  it('no ALPN at all (allowHTTP1): an HTTP/1.1 answer', async () => {
    const r = await get('/version', undefined);
    expect(r.alpn).toBe(false);
    expect(r.httpVersion).toBe('1.1');
    expect(r.status).toBe(200);
  });

  it('a watch over HTTP/1.1 is a chunked stream', async () => {
    const url = new URL(eventsPath('h1-watch', '?watch=true'), srv.url);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = https.request(
        url,
        { ca, ALPNProtocols: ['http/1.1'], agent: false } as https.RequestOptions,
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    try {
      expect(res.httpVersion).toBe('1.1');
      expect(res.statusCode).toBe(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const first = new Promise<string>((resolve) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
          if (text.includes('\n')) resolve(text);
        });
      });
      const session = await connect();
      try {
        expect((await h2(session, 'POST', eventsPath('h1-watch'), sampleEvent('x', 'h1-watch'))).status).toBe(201);
      } finally {
        session.close();
      }
      expect(JSON.parse((await first).split('\n')[0]!)).toMatchObject({
        type: 'ADDED',
        object: { metadata: { name: 'x' } },
      });
    } finally {
      res.destroy();
    }
  });
});

describe('kubectl and curl speak HTTP/2 to the server', () => {
  // An https server without credentials makes kubectl prompt for a username: give it a token
  // (the default authenticator accepts any request).
  const tls = ['--insecure-skip-tls-verify', '--token=e2e'];

  it('kubectl -v=8 get events -A: every request is HTTP/2', async () => {
    const kubectl = new Kubectl(srv.url);
    const session = await connect();
    try {
      await h2(session, 'POST', eventsPath('kctl'), sampleEvent('k1', 'kctl', { note: 'over h2' }));
    } finally {
      session.close();
    }
    const from = seen.length;
    const r = await kubectl.run(['-v=8', ...tls, 'get', 'events', '-A'], '');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('over h2');
    // -v=8 logs requests and responses (it does not print the protocol: the server tells).
    expect(r.stderr).toMatch(/GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/events\?limit=500/);
    expect(r.stderr).toContain('Response Status: 200 OK');
    const mine = seen.slice(from).filter((s) => s.userAgent.startsWith('kubectl/'));
    expect(mine.map((s) => s.url)).toContain('/api/v1/events?limit=500');
    expect(mine.every((s) => s.httpVersion === '2.0')).toBe(true);
  });

  it('kubectl get events -w streams over HTTP/2', async () => {
    const kubectl = new Kubectl(srv.url);
    const from = seen.length;
    const w = kubectl.spawn([...tls, 'get', 'events', '-n', 'kwatch', '-w']);
    try {
      await untilTrue(
        () => seen.slice(from).some((s) => s.userAgent.startsWith('kubectl/') && s.url.includes('watch=true')),
        15_000,
      );
      const out = waitForOutput(w, (o) => o.includes('watched over h2'), 15_000);
      const session = await connect();
      try {
        await h2(session, 'POST', eventsPath('kwatch'), sampleEvent('kw', 'kwatch', { note: 'watched over h2' }));
      } finally {
        session.close();
      }
      expect(await out).toContain('watched over h2');
      const watch = seen.slice(from).find((s) => s.userAgent.startsWith('kubectl/') && s.url.includes('watch=true'));
      expect(watch?.httpVersion).toBe('2.0');
      expect(watch?.url).toMatch(/^\/api\/v1\/namespaces\/kwatch\/events\?.*watch=true/);
    } finally {
      w.kill();
    }
  });

  const curl = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('curl', ['-sS', '-k', '-v', ...args], { timeout: 15_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('curl --http2: ALPN h2 and an HTTP/2 200', async () => {
    const r = await curl(['--http2', `${srv.url}/apis/events.k8s.io/v1/events`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/ALPN[^\n]*h2/);
    expect(r.stderr).toMatch(/^< HTTP\/2 200/m);
    expect(JSON.parse(r.stdout).kind).toBe('EventList');
  });

  it('curl --http1.1: HTTP/1.1 200 on the same port', async () => {
    const r = await curl(['--http1.1', `${srv.url}/apis/events.k8s.io/v1/events`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^< HTTP\/1\.1 200/m);
    expect(JSON.parse(r.stdout).kind).toBe('EventList');
  });
});
