import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { AuthenticationError } from '@kevents/api';
import type { Authenticator, AuthenticationRequest } from '@kevents/api';
import { ApiError } from '../errors/api-error.js';
import { installAuthentication } from './authentication.js';
import { installRequestInfo } from './request-info.js';

describe('authentication filter', () => {
  it('drops the Authorization header after success, logs failures, answers the fixed 401 Status', async () => {
    const seen: AuthenticationRequest[] = [];
    const authenticator: Authenticator = {
      async authenticate(req) {
        seen.push(req);
        if (req.headers['authorization'] === 'Bearer good') return { user: { username: 'alice', groups: [] } };
        if (req.headers['authorization']) throw new AuthenticationError('InvalidCredentials', 'oidc: token is expired');
        return null;
      },
    };
    const logged: unknown[] = [];
    const a = Fastify();
    installRequestInfo(a);
    installAuthentication(a, {
      authenticator,
      anonymous: false,
      logger: { info: (o: unknown) => void logged.push(o) } as never,
    });
    a.setErrorHandler((err, _req, reply) => {
      if (err instanceof ApiError) return reply.code(err.code).send(err.status);
      return reply.code(500).send({ message: String(err) });
    });
    a.get('/*', async (req) => ({ user: req.user, authorization: req.headers.authorization ?? null }));
    const ok = await a.inject({ url: '/api/v1/x%2Fy', headers: { authorization: 'Bearer good' } });
    expect(ok.json()).toEqual({ user: { username: 'alice', groups: [] }, authorization: null });
    expect(seen[0]!.path).toBe('/api/v1/x/y');
    expect(seen[0]!.clientCertificates).toBeUndefined();
    const bad = await a.inject({ url: '/x', headers: { authorization: 'Bearer expired' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toBeUndefined();
    expect(bad.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    expect(logged).toContainEqual(expect.objectContaining({ err: 'oidc: token is expired', path: '/x' }));
    await a.close();
  });
});
