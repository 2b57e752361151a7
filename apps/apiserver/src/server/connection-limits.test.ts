import http2 from 'node:http2';
import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@kevents/api/testing';
import { ServerLifecycle } from '@kevents/apiserver';
import { MemoryStorage } from '@kevents/storage';
import { servingCert } from './tls.js';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/**
 * The connection bounds of a listener, with real servers and raw sockets: the TLS handshake and
 * header timeouts, a body left unread after a refusal, the connection cap, and HTTP/2's
 * MAX_CONCURRENT_STREAMS (kube-apiserver's secure serving; Go's net/http).
 */

let pair: { cert: string; key: string };
const servers: TestServer[] = [];
beforeAll(async () => {
  pair = await servingCert('', '', '127.0.0.1');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const start = async (options: Parameters<typeof startTestServer>[0]): Promise<TestServer> => {
  const s = await startTestServer(options);
  servers.push(s);
  return s;
};
const portOf = (s: TestServer): number => Number(new URL(s.url).port);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A raw connection: what it received, and when it closed (ms after it was opened), once it has. */
interface Conn {
  readonly socket: Socket;
  readonly received: () => string;
  readonly closed: Promise<number>;
  readonly isClosed: () => boolean;
}

function watchConn(socket: Socket): Conn {
  const t0 = Date.now();
  let text = '';
  let done = false;
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      done = true;
      resolve(Date.now() - t0);
    }),
  );
  return { socket, received: () => text, closed, isClosed: () => done };
}

const plain = (s: TestServer): Conn => watchConn(netConnect(portOf(s), '127.0.0.1'));
const http1OverTLS = (s: TestServer): Conn =>
  watchConn(tlsConnect({ port: portOf(s), host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }));

/** Resolves with how long `conn` took to close, or rejects after `ms`. */
async function closesWithin(conn: Conn, ms: number, what: string): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`${what}: still open after ${ms} ms; received: ${JSON.stringify(conn.received().slice(0, 300))}`),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([conn.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

const rejectAll = { authenticate: () => null };

describe('the TLS handshake', () => {
  it('a connection that never sends a ClientHello is closed once the handshake bound passes', async () => {
    const s = await start({ https: pair, limits: { tlsHandshakeTimeoutMs: 1000 } });
    const idle = plain(s);
    const ms = await closesWithin(idle, 5000, 'a connection without ClientHello');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(idle.received()).toBe('');
    // A real client handshakes and is served.
    const ok = http1OverTLS(s);
    ok.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await closesWithin(ok, 5000, 'a served request');
    expect(ok.received()).toMatch(/^HTTP\/1\.1 200 /);
  }, 20_000);
});

describe('HTTP/1.1 headers', () => {
  it('a client that drips its headers gets a 408 and its connection closed once the header bound passes', async () => {
    const s = await start({ limits: { headersTimeoutMs: 1000 } });
    const c = plain(s);
    c.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => c.socket.writable && c.socket.write('X-Drip: 1\r\n'), 200);
    try {
      const ms = await closesWithin(c, 5000, 'a client dripping headers');
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(c.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    } finally {
      clearInterval(drip);
    }
  }, 20_000);
});

describe('a request body left unread', () => {
  const dripPost = (c: Conn, length: number): NodeJS.Timeout => {
    c.socket.write(
      `POST /apis/events.k8s.io/v1/namespaces/d/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`,
    );
    return setInterval(() => c.socket.writable && c.socket.write(' '), 100);
  };

  for (const [name, open, https] of [
    ['plain HTTP/1.1', plain, false],
    ['HTTP/1.1 over TLS', http1OverTLS, true],
  ] as const) {
    it(`${name}: a POST announcing 1 MB that drips is answered 401 and its connection closed`, async () => {
      const s = await start({ authenticator: rejectAll, ...(https ? { https: pair } : {}) });
      const c = open(s);
      const drip = dripPost(c, 1024 * 1024);
      try {
        await closesWithin(c, 3000, 'a dripping POST after its 401');
        expect(c.received()).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
        expect(c.received()).toMatch(/\r\nconnection: close\r\n/i);
      } finally {
        clearInterval(drip);
      }
    }, 20_000);
  }

  it('a small body left unread is drained and the connection kept, as Go does below 256 KiB', async () => {
    const s = await start({ authenticator: rejectAll });
    const c = plain(s);
    const body = JSON.stringify({ kind: 'Event', note: 'x'.repeat(1000) });
    const post = `POST /apis/events.k8s.io/v1/namespaces/d/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    c.socket.write(post + post);
    const answers = (): number => (c.received().match(/HTTP\/1\.1 401 /g) ?? []).length;
    await waitFor(
      () => answers() >= 2,
      5000,
      () => `${answers()} answers: ${c.received()}`,
    );
    expect(answers()).toBe(2);
    expect(c.isClosed()).toBe(false);
    expect(c.received()).not.toMatch(/connection: close/i);
    c.socket.destroy();
  }, 20_000);
});

describe('the connection cap', () => {
  it('a connection past --max-connections is closed on accept; one is accepted again once another closes', async () => {
    const s = await start({ limits: { maxConnections: 3 } });
    const held = [plain(s), plain(s), plain(s)];
    await Promise.all(held.map((c) => new Promise((r) => c.socket.once('connect', r))));
    // The server has accepted all three before the fourth arrives.
    const net = s.server.app.server as unknown as { getConnections(cb: (err: Error | null, n: number) => void): void };
    const count = (): Promise<number> => new Promise((r) => net.getConnections((_e, n) => r(n)));
    await waitFor(
      async () => (await count()) >= 3,
      5000,
      async () => `${await count()} connections, not 3`,
    );
    const extra = plain(s);
    extra.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
    await closesWithin(extra, 3000, 'a connection past the cap');
    expect(extra.received()).toBe('');
    expect(held.every((c) => !c.isClosed())).toBe(true);

    held[0]!.socket.destroy();
    await held[0]!.closed;
    await waitFor(
      async () => (await count()) <= 2,
      10_000,
      async () => `${await count()} connections, not 2`,
    );
    const again = plain(s);
    again.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await closesWithin(again, 3000, 'a request once a connection is free');
    expect(again.received()).toMatch(/^HTTP\/1\.1 200 /);
    for (const c of held) c.socket.destroy();
  }, 20_000);
});

/** HTTP/2 frames, written by hand so that a client can open more streams than the server allows. */
const frame = (type: number, flags: number, stream: number, payload: Buffer = Buffer.alloc(0)): Buffer => {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
};
/** An HPACK header block of literal fields without indexing (names and values under 127 bytes). */
const hpack = (headers: [string, string][]): Buffer =>
  Buffer.concat(
    headers.map(([n, v]) =>
      Buffer.concat([Buffer.from([0, n.length]), Buffer.from(n), Buffer.from([v.length]), Buffer.from(v)]),
    ),
  );

describe('HTTP/2 streams per connection', () => {
  it("SETTINGS advertise MAX_CONCURRENT_STREAMS: kube-apiserver's 100 by default, else --http2-max-streams-per-connection", async () => {
    for (const [limits, expected] of [
      [undefined, 100],
      [{ http2MaxStreamsPerConnection: 0 }, 100],
      [{ http2MaxStreamsPerConnection: 7 }, 7],
    ] as const) {
      const s = await start({ https: pair, ...(limits ? { limits } : {}) });
      const session = http2.connect(s.url, { rejectUnauthorized: false });
      const settings = await new Promise<http2.Settings>((resolve, reject) => {
        session.once('remoteSettings', resolve);
        session.once('error', reject);
      });
      session.close();
      expect(settings.maxConcurrentStreams).toBe(expected);
    }
  }, 20_000);

  /**
   * A raw HTTP/2 client: preface, empty SETTINGS, then `n + 1` watches at once (they stay open);
   * with `ack` it acknowledges the server's SETTINGS first (the limit is then in force, not pending).
   */
  async function openStreams(
    s: TestServer,
    n: number,
    ack: boolean,
  ): Promise<{ frames: { type: number; flags: number; stream: number; payload: Buffer }[]; conn: Conn }> {
    const conn = watchConn(
      tlsConnect({ port: portOf(s), host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['h2'] }),
    );
    const socket = conn.socket;
    await new Promise((r) => socket.once('secureConnect', r));
    let buf = Buffer.alloc(0);
    const frames: { type: number; flags: number; stream: number; payload: Buffer }[] = [];
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 9 && buf.length >= 9 + buf.readUIntBE(0, 3)) {
        const len = buf.readUIntBE(0, 3);
        const f = {
          type: buf[3]!,
          flags: buf[4]!,
          stream: buf.readUInt32BE(5) & 0x7fffffff,
          payload: buf.subarray(9, 9 + len),
        };
        frames.push(f);
        if (ack && f.type === 4 && (f.flags & 1) === 0) socket.write(frame(4, 1, 0));
        buf = buf.subarray(9 + len);
      }
    });
    socket.write(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'));
    socket.write(frame(4, 0, 0));
    await until(() => frames.some((f) => f.type === 4 && (f.flags & 1) === 1), 'the SETTINGS ACK', frames);
    if (ack) await sleep(50);
    for (let i = 0; i <= n; i++) {
      const block = hpack([
        [':method', 'GET'],
        [':scheme', 'https'],
        [':authority', '127.0.0.1'],
        [':path', '/apis/events.k8s.io/v1/namespaces/h2/events?watch=true'],
      ]);
      // END_STREAM | END_HEADERS
      socket.write(frame(1, 0x5, 2 * i + 1, block));
    }
    return { frames, conn };
  }

  const until = (cond: () => boolean, what: string, frames: { type: number; stream: number }[]): Promise<void> =>
    waitFor(cond, 5000, () => `timed out: ${what}; frames: ${JSON.stringify(frames.map((f) => [f.type, f.stream]))}`, {
      intervalMs: 10,
    });

  it('a stream past the limit is refused (RST_STREAM REFUSED_STREAM) while the others are served', async () => {
    const n = 3;
    const s = await start({ https: pair, limits: { http2MaxStreamsPerConnection: n } });
    // A client whose streams cross the server's SETTINGS on the wire (it has not acknowledged them yet).
    const { frames, conn } = await openStreams(s, n, false);
    const last = 2 * n + 1;
    const rst = (id: number) => frames.find((f) => f.type === 3 && f.stream === id);
    await until(() => rst(last) !== undefined, `RST_STREAM on stream ${last}`, frames);
    expect(rst(last)!.payload.readUInt32BE(0)).toBe(0x7); // REFUSED_STREAM
    // The first n were answered (HEADERS) and stay open.
    await until(
      () => [...Array(n).keys()].every((i) => frames.some((f) => f.type === 1 && f.stream === 2 * i + 1)),
      'the response HEADERS of the first streams',
      frames,
    );
    for (let i = 0; i < n; i++) expect(rst(2 * i + 1)).toBeUndefined();
    expect(conn.isClosed()).toBe(false);
    conn.socket.destroy();
  }, 20_000);

  it('a client that acknowledged the limit and opens more loses the connection (nghttp2: a connection error)', async () => {
    const n = 3;
    const s = await start({ https: pair, limits: { http2MaxStreamsPerConnection: n } });
    const { frames, conn } = await openStreams(s, n, true);
    await closesWithin(conn, 5000, 'a connection past its stream limit');
    // Go's server answers RST_STREAM PROTOCOL_ERROR here; nghttp2 sends GOAWAY PROTOCOL_ERROR and closes.
    const goaway = frames.find((f) => f.type === 7);
    if (goaway) expect(goaway.payload.readUInt32BE(4)).toBe(0x1);
    expect(frames.some((f) => f.type === 1 && f.stream === 2 * n + 1)).toBe(false);
  }, 20_000);
});

describe('answers a client stopped reading', () => {
  /** A store with a list of `n` events in namespace `big` (~1 KB each), filled through a plain listener. */
  async function bigList(n: number): Promise<MemoryStorage> {
    const storage = new MemoryStorage();
    const filler = await start({ storage });
    const note = 'x'.repeat(900);
    for (let i = 0; i < n; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, (_, j) =>
          request(`${filler.url}/apis/events.k8s.io/v1/namespaces/big/events`, {
            method: 'POST',
            body: sampleEvent(`e${i + j}`, 'big', { note }),
          }),
        ),
      );
    return storage;
  }

  it('an HTTP/2 stream the client closes while its answer waits on flow control ends, and leaves no request in flight', async () => {
    const lifecycle = new ServerLifecycle();
    const s = await start({ https: pair, storage: await bigList(300), lifecycle });
    const session = http2.connect(s.url, { rejectUnauthorized: false });
    session.on('error', () => undefined);
    const streams = Array.from({ length: 5 }, () => {
      const st = session.request({ ':path': '/apis/events.k8s.io/v1/namespaces/big/events' });
      st.on('error', () => undefined);
      st.pause();
      return st;
    });
    // Every answer is under way, held by the client's full window (300 KB each against 64 KiB).
    await waitFor(
      () => lifecycle.inFlight === 5,
      5000,
      () => `in flight: ${lifecycle.inFlight}`,
      { intervalMs: 10 },
    );
    await sleep(200);
    expect(lifecycle.inFlight).toBe(5);
    // NO_ERROR resets, then a graceful close: Node would keep each stream (and its handler) forever.
    for (const st of streams) st.close();
    session.close();
    await waitFor(
      () => lifecycle.inFlight === 0,
      5000,
      () => `still in flight: ${lifecycle.inFlight}`,
      {
        intervalMs: 10,
      },
    );
    // The client's own paused streams keep its session open (the same Node behaviour, client side).
    session.destroy();
  }, 30_000);

  it('pipelined HTTP/1.1 requests are served one at a time, as Go does: a client that does not read holds one answer', async () => {
    const lifecycle = new ServerLifecycle();
    const s = await start({ storage: await bigList(300), lifecycle });
    const socket = netConnect(portOf(s), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    const get = 'GET /apis/events.k8s.io/v1/namespaces/big/events HTTP/1.1\r\nHost: x\r\n\r\n';
    socket.write(get.repeat(30));
    await waitFor(
      () => lifecycle.inFlight === 1,
      5000,
      () => `in flight: ${lifecycle.inFlight}`,
      { intervalMs: 10 },
    );
    await sleep(300);
    // Node parsed all 30; only the first is being answered (each ~300 KB held otherwise).
    expect(lifecycle.inFlight).toBe(1);
    // Read them all: every answer comes, in order.
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.resume();
    await waitFor(
      () => text.split('HTTP/1.1 200 OK').length - 1 === 30,
      20_000,
      () => `answers: ${text.split('HTTP/1.1 200 OK').length - 1}`,
      {
        intervalMs: 20,
      },
    );
    socket.destroy();
  }, 40_000);
});
