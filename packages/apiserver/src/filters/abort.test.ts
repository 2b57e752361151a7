import { afterEach, describe, expect, it } from '@jest/globals';
import { get } from 'node:http';
import { connect as h2connect, constants as h2 } from 'node:http2';
import type { ClientHttp2Session } from 'node:http2';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { AuthenticationRequest, Authenticator, Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { installAuthentication } from './authentication.js';
import { installAuthorization } from './authorization.js';
import { installRequestInfo } from './request-info.js';

/** An asynchronous answer the test gives when it wants. */
interface Held<T> {
  readonly signal: AbortSignal | undefined;
  resolve(v: T): void;
  reject?(err: Error): void;
}

/** An authorizer whose every decision waits for the test; it reads the signal as a webhook does. */
class HeldAuthorizer implements Authorizer {
  readonly name = 'held';
  readonly held: Held<Decision>[] = [];
  authorize(attrs: RequestAttributes): Promise<Decision> {
    const signal = attrs.signal;
    return new Promise((resolve) => this.held.push({ signal, resolve }));
  }
}

/** An authenticator whose answers wait for the test. */
class HeldAuthenticator implements Authenticator {
  readonly held: Held<{ user: { username: string; groups: string[] } } | null>[] = [];
  authenticate(req: AuthenticationRequest): Promise<{ user: { username: string; groups: string[] } } | null> {
    const signal = req.signal;
    return new Promise((resolve, reject) => this.held.push({ signal, resolve, reject }));
  }
}

let app: FastifyInstance | undefined;
let session: ClientHttp2Session | undefined;
afterEach(async () => {
  session?.close();
  session = undefined;
  await app?.close();
  app = undefined;
});

/** A listening server with the filters; counts the handler's runs (a POST would create an object). */
async function serve(o: {
  http2?: boolean;
  authenticator?: Authenticator;
  authorizer?: Authorizer;
}): Promise<{ port: number; handled: string[] }> {
  const a = (o.http2 ? Fastify({ http2: true }) : Fastify()) as unknown as FastifyInstance;
  installRequestInfo(a);
  installAuthentication(a, { ...(o.authenticator ? { authenticator: o.authenticator } : {}) });
  installAuthorization(a, o.authorizer);
  const handled: string[] = [];
  a.all('/*', async (req) => {
    handled.push(`${req.method} ${req.url}`);
    return { created: true };
  });
  await a.listen({ host: '127.0.0.1', port: 0 });
  app = a;
  return { port: (a.server.address() as AddressInfo).port, handled };
}

const until = async (predicate: () => boolean, ms = 3000): Promise<void> => {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const allow: Decision = { decision: 'Allow', reason: '' };
/** A GET over node:http (which makes no AbortController of its own), read to the end. */
const h1get = (port: number, path: string): Promise<number> =>
  new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
const eventPath = '/apis/events.k8s.io/v1/namespaces/ns/events';

/** Sends a request over HTTP/1.1 on a raw socket (a POST with its body), then destroys the socket once `ready()` holds. */
async function sendThenHangUp(port: number, ready: () => boolean, method = 'POST'): Promise<void> {
  const s = connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  const body = '{"metadata":{"name":"e1"}}';
  s.write(
    method === 'POST'
      ? `POST ${eventPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
      : `${method} ${eventPath} HTTP/1.1\r\nHost: x\r\n\r\n`,
  );
  await until(ready);
  s.destroy();
}

/** Sends a request on an HTTP/2 stream (a POST with its body), then resets the stream (RST_STREAM CANCEL) once `ready()` holds. */
async function sendThenReset(port: number, ready: () => boolean, method = 'POST'): Promise<ClientHttp2Session> {
  session = h2connect(`http://127.0.0.1:${port}`);
  const post = method === 'POST';
  const stream = session.request(
    { ':method': method, ':path': eventPath, ...(post ? { 'content-type': 'application/json' } : {}) },
    { endStream: !post },
  );
  stream.on('error', () => undefined);
  if (post) stream.end('{"metadata":{"name":"e1"}}');
  await until(ready);
  stream.close(h2.NGHTTP2_CANCEL);
  return session;
}

/** A GET on an HTTP/2 session, read to the end. */
const h2get = (s: ClientHttp2Session, path: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const st = s.request({ ':path': path });
    let status = 0;
    st.on('response', (h) => (status = Number(h[':status'])));
    st.on('data', () => undefined);
    st.on('end', () => resolve(status));
    st.on('error', reject);
  });

describe('authentication filter: a client that goes away while the answer is pending', () => {
  const alice = { user: { username: 'alice', groups: [] } };
  it.each([
    ['HTTP/1.1', 'a user'],
    ['HTTP/1.1', 'a failure'],
    ['HTTP/2', 'a user'],
    ['HTTP/2', 'a failure'],
  ])('%s: the signal is aborted, and whatever comes after (%s), the chain stops', async (protocol, answer) => {
    const authn = new HeldAuthenticator();
    const authz = new HeldAuthorizer();
    const http2 = protocol === 'HTTP/2';
    const { port, handled } = await serve({ http2, authenticator: authn, authorizer: authz });
    if (http2) await sendThenReset(port, () => authn.held.length === 1);
    else await sendThenHangUp(port, () => authn.held.length === 1);
    const { signal, resolve, reject } = authn.held[0]!;
    await until(() => signal!.aborted);
    if (answer === 'a user') resolve(alice);
    else reject!(new Error('token review failed'));
    await sleep(100);
    expect(authz.held).toEqual([]);
    expect(handled).toEqual([]);
  });
});

describe('authorization filter: a client that goes away while the decision is pending', () => {
  it.each(['GET', 'POST'])(
    'HTTP/1.1 %s, connection closed: the signal is aborted, then nothing is sent and the handler never runs',
    async (method) => {
      const authz = new HeldAuthorizer();
      const { port, handled } = await serve({ authorizer: authz });
      await sendThenHangUp(port, () => authz.held.length === 1, method);
      const { signal, resolve } = authz.held[0]!;
      await until(() => signal!.aborted);
      resolve(allow); // the webhook answers anyway: too late
      await sleep(100);
      expect(handled).toEqual([]);
    },
  );

  it.each(['GET', 'POST'])(
    'HTTP/2 %s, stream reset: the signal is aborted, the handler never runs, the session serves on',
    async (method) => {
      const authz = new HeldAuthorizer();
      const { port, handled } = await serve({ http2: true, authorizer: authz });
      const s = await sendThenReset(port, () => authz.held.length === 1, method);
      const { signal, resolve } = authz.held[0]!;
      await until(() => signal!.aborted);
      resolve(allow);
      await sleep(100);
      expect(handled).toEqual([]);
      // the same connection still works: a later request is decided and handled
      const next = h2get(s, eventPath);
      await until(() => authz.held.length === 2);
      expect(authz.held[1]!.signal!.aborted).toBe(false);
      authz.held[1]!.resolve(allow);
      expect(await next).toBe(200);
      expect(handled).toEqual([`GET ${eventPath}`]);
    },
  );

  it('a client that stays gets its answer; its signal is never aborted', async () => {
    const authz = new HeldAuthorizer();
    const { port, handled } = await serve({ authorizer: authz });
    const res = fetch(`http://127.0.0.1:${port}${eventPath}`, { method: 'POST', body: '{}' });
    await until(() => authz.held.length === 1);
    authz.held[0]!.resolve(allow);
    expect((await res).status).toBe(200);
    expect(authz.held[0]!.signal!.aborted).toBe(false);
    expect(handled).toEqual([`POST ${eventPath}`]);
  });
});

describe('the synchronous path', () => {
  it('makes no AbortController for answers given at once; one per request that waits and reads the signal', async () => {
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const authn: Authenticator = { authenticate: () => ({ user: { username: 'alice', groups: [] } }) };
      let wait = false;
      const authz: Authorizer = {
        name: 'cached-or-not',
        authorize: (attrs) => {
          if (!wait) return allow; // a cache hit
          void attrs.signal; // a miss: about to wait on the webhook
          return Promise.resolve(allow);
        },
      };
      const { port, handled } = await serve({ authenticator: authn, authorizer: authz });
      const base = made;
      for (let i = 0; i < 3; i++) expect(await h1get(port, eventPath)).toBe(200);
      expect(made - base).toBe(0);
      wait = true;
      expect(await h1get(port, eventPath)).toBe(200);
      expect(made - base).toBe(1);
      expect(handled).toHaveLength(4);
    } finally {
      globalThis.AbortController = Original;
    }
  });
});
