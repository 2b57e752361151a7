import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:http2';
import { request } from 'node:http';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { AuthenticationHeaders, AuthenticationRequest, Authenticator } from '@kevents/api';
import { installAuthentication } from './authentication.js';
import { installRequestInfo } from './request-info.js';

const frontProxy: AuthenticationHeaders = {
  names: ['x-remote-user', 'x-remote-group'],
  prefixes: ['x-remote-extra-'],
};

/** An authenticator holding front-proxy headers: it knows one bearer token and records what it was given. */
function authenticator(seen: AuthenticationRequest['headers'][]): Authenticator {
  return {
    authenticationHeaders: frontProxy,
    authenticate(req) {
      seen.push(req.headers);
      return req.headers['authorization'] === 'Bearer good' ? { user: { username: 'alice', groups: [] } } : null;
    },
  };
}

/** A server whose handler answers the headers it reads, as any later filter or handler would. */
async function server(http2: boolean, seen: AuthenticationRequest['headers'][]): Promise<FastifyInstance> {
  const app = (http2 ? Fastify({ http2: true }) : Fastify()) as FastifyInstance;
  installRequestInfo(app);
  installAuthentication(app, { authenticator: authenticator(seen) });
  app.get('/*', async (req) => ({ user: req.user.username, headers: req.headers, raw: req.raw.headers }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

const sent = {
  'x-remote-user': 'mallory',
  'x-remote-group': 'system:masters',
  'x-remote-extra-scopes': 'all',
  'x-remote-users': 'kept: not a front-proxy name',
  accept: 'application/json',
};

function expectCleared(body: { headers: Record<string, unknown>; raw: Record<string, unknown> }): void {
  for (const h of [body.headers, body.raw]) {
    expect(h).not.toHaveProperty('x-remote-user');
    expect(h).not.toHaveProperty('x-remote-group');
    expect(h).not.toHaveProperty('x-remote-extra-scopes');
    expect(h['x-remote-users']).toBe('kept: not a front-proxy name');
    expect(h['accept']).toBe('application/json');
  }
}

const port = (app: FastifyInstance): number => (app.server.address() as { port: number }).port;

describe('front-proxy headers are removed before anything after authentication reads the request', () => {
  const seen: AuthenticationRequest['headers'][] = [];
  let h1: FastifyInstance;
  let h2: FastifyInstance;
  beforeAll(async () => {
    h1 = await server(false, seen);
    h2 = await server(true, seen);
  });
  afterAll(async () => {
    await h1.close();
    await h2.close();
  });

  it('over HTTP/1.1, anonymous and authenticated, while the authenticator saw them', async () => {
    for (const extra of [{}, { authorization: 'Bearer good' }]) {
      const body = await new Promise<string>((resolve, reject) => {
        const r = request(
          { port: port(h1), host: '127.0.0.1', path: '/apis/x', headers: { ...sent, ...extra } },
          (res) => {
            let s = '';
            res.setEncoding('utf8').on('data', (c: string) => (s += c));
            res.on('end', () => resolve(s));
          },
        );
        r.on('error', reject).end();
      });
      const parsed = JSON.parse(body);
      expect(parsed.user).toBe('authorization' in extra ? 'alice' : 'system:anonymous');
      expectCleared(parsed);
      expect(parsed.headers).not.toHaveProperty('authorization');
    }
    expect(seen.at(-1)!['x-remote-user']).toBe('mallory');
  });

  it('over HTTP/2 (a request object without a headers setter)', async () => {
    const session = connect(`http://127.0.0.1:${port(h2)}`);
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const s = session.request({ ':path': '/apis/x', ...sent });
        let out = '';
        s.setEncoding('utf8').on('data', (c: string) => (out += c));
        s.on('end', () => resolve(out)).on('error', reject);
      });
      const parsed = JSON.parse(body);
      expect(parsed.user).toBe('system:anonymous');
      expectCleared(parsed);
      expect(parsed.headers[':path']).toBe('/apis/x');
    } finally {
      session.close();
    }
  });

  it('through inject, where nothing is to remove the headers object is the one Node parsed', async () => {
    const app = Fastify();
    installRequestInfo(app);
    installAuthentication(app, { authenticator: authenticator([]) });
    let same = false;
    app.get('/*', async (req) => {
      same = req.headers === req.raw.headers;
      return { headers: req.headers, raw: req.raw.headers };
    });
    const r = await app.inject({ url: '/apis/x', headers: sent });
    expectCleared(r.json());
    const plain = await app.inject({ url: '/apis/x', headers: { accept: 'application/json' } });
    expect(plain.json().headers.accept).toBe('application/json');
    expect(same).toBe(true);
    await app.close();
  });
});
