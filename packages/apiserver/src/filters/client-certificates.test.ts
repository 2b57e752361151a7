import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:http2';
import { Agent, request } from 'node:https';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { AuthenticationHeaders, AuthenticationRequest, Authenticator } from '@kevents/api';
import { generateCA, generateClientCert, generateServingCert } from '@kevents/api/testing';
import type { KeyPair } from '@kevents/api/testing';
import { installAuthentication } from './authentication.js';
import { installRequestInfo } from './request-info.js';

const frontProxy: AuthenticationHeaders = { names: ['x-remote-user', 'x-remote-group'], prefixes: ['x-remote-extra-'] };

/** What the authenticator was given of each request. */
interface Seen {
  readonly chain: string[] | undefined;
  readonly group: unknown;
}

/** Records the client certificates (as base64 DER) and the group header it is given; claims nobody. */
function recording(seen: Seen[]): Authenticator {
  return {
    authenticationHeaders: frontProxy,
    authenticate(req: AuthenticationRequest) {
      seen.push({
        chain: req.clientCertificates?.map((c) => Buffer.from(c).toString('base64')),
        group: req.headers['x-remote-group'],
      });
      return null;
    },
  };
}

const der = (pem: string): string => new X509Certificate(pem).raw.toString('base64');
const port = (app: FastifyInstance): number => (app.server.address() as { port: number }).port;

let ca: KeyPair;
let client: KeyPair;
let stranger: KeyPair;
const seen: Seen[] = [];
let h1: FastifyInstance;
let h2: FastifyInstance;

beforeAll(async () => {
  ca = await generateCA('kevents-test-ca');
  const serving = await generateServingCert(ca, '127.0.0.1');
  client = await generateClientCert(ca, 'front-proxy');
  stranger = await generateClientCert(await generateCA('other-ca'), 'stranger');
  const tls = { key: serving.key, cert: serving.cert, ca: ca.cert, requestCert: true, rejectUnauthorized: false };
  const make = async (http2: boolean): Promise<FastifyInstance> => {
    const app = (
      http2 ? Fastify({ http2: true, https: { ...tls, allowHTTP1: false } }) : Fastify({ https: tls })
    ) as FastifyInstance;
    installRequestInfo(app);
    installAuthentication(app, { authenticator: recording(seen) });
    app.get('/*', async (req) => ({ user: req.user.username }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  };
  h1 = await make(false);
  h2 = await make(true);
}, 60_000);

afterAll(async () => {
  await h1?.close();
  await h2?.close();
});

/** GETs over HTTP/1.1 with the given client key pair (or none), on one keep-alive connection per agent. */
function get(agent: Agent, headers: Record<string, string | string[]> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request(
      { agent, host: '127.0.0.1', port: port(h1), path: '/apis/x', headers, ca: ca.cert, servername: '127.0.0.1' },
      (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    r.on('error', reject).end();
  });
}

const agents: Agent[] = [];
afterEach(() => {
  for (const a of agents.splice(0)) a.destroy();
});

/** A keep-alive agent (one connection) presenting `pair`, or no certificate; destroyed after the test. */
const agentWith = (pair?: KeyPair): Agent => {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 1,
    ca: ca.cert,
    ...(pair ? { key: pair.key, cert: pair.cert } : {}),
  });
  agents.push(agent);
  return agent;
};

describe('TLS client certificates reach the authenticator', () => {
  it('as the chain the server verified, leaf first, on every request of a connection', async () => {
    const agent = agentWith(client);
    seen.length = 0;
    expect(await get(agent)).toBe(200);
    expect(await get(agent)).toBe(200);
    expect(seen.map((s) => s.chain)).toEqual([
      [der(client.cert), der(ca.cert)],
      [der(client.cert), der(ca.cert)],
    ]);
  });

  it('as the leaf alone when its issuer is unknown to the server, and as nothing without a certificate', async () => {
    seen.length = 0;
    await get(agentWith(stranger));
    await get(agentWith());
    expect(seen.map((s) => s.chain)).toEqual([[der(stranger.cert)], undefined]);
  });

  it('with front-proxy header lines kept apart only when a certificate was presented', async () => {
    seen.length = 0;
    await get(agentWith(client), { 'x-remote-group': ['a', 'b'] });
    await get(agentWith(), { 'x-remote-group': ['a', 'b'] });
    expect(seen.map((s) => s.group)).toEqual([['a', 'b'], 'a, b']);
  });

  it('over HTTP/2, with front-proxy header lines kept apart too', async () => {
    seen.length = 0;
    const session = connect(`https://127.0.0.1:${port(h2)}`, { ca: ca.cert, key: client.key, cert: client.cert });
    try {
      for (const group of [['a', 'b'], 'a, b', ['a, b', 'c']]) {
        await new Promise<void>((resolve, reject) => {
          const s = session.request({ ':path': '/apis/x', 'x-remote-group': group });
          s.resume()
            .on('end', () => resolve())
            .on('error', reject);
        });
      }
      expect(seen.map((s) => s.group)).toEqual([['a', 'b'], ['a, b'], ['a, b', 'c']]);
    } finally {
      session.close();
    }
  });

  it('over HTTP/2, from the session of the stream', async () => {
    seen.length = 0;
    const session = connect(`https://127.0.0.1:${port(h2)}`, { ca: ca.cert, key: client.key, cert: client.cert });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const s = session.request({ ':path': '/apis/x' });
        let code = 0;
        s.on('response', (h) => (code = Number(h[':status'])));
        s.resume()
          .on('end', () => resolve(code))
          .on('error', reject);
      });
      expect(status).toBe(200);
      expect(seen.map((s) => s.chain)).toEqual([[der(client.cert), der(ca.cert)]]);
    } finally {
      session.close();
    }
  });
});
