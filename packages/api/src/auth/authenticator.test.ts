import { describe, expect, it } from '@jest/globals';
import { AuthenticationError } from './authenticator.js';
import type { Authenticator, AuthenticationRequest } from './authenticator.js';
import { anonymousUser } from './user-info.js';

/** A toy bearer-token authenticator, to show the three outcomes of the contract. */
const tokens: Authenticator = {
  authenticate: async (req) => {
    const h = req.headers['authorization'];
    const value = Array.isArray(h) ? h[0] : h;
    if (typeof value !== 'string' || !value.startsWith('Bearer ')) return null;
    if (value === 'Bearer good')
      return { user: { username: 'alice', groups: ['system:authenticated'] }, audiences: ['kevents'] };
    throw new AuthenticationError('InvalidCredentials', 'token not recognized');
  },
};
const req = (authorization?: string): AuthenticationRequest => ({
  headers: authorization ? { authorization } : {},
  method: 'GET',
  path: '/apis/coordination.k8s.io/v1/leases',
});

describe('Authenticator contract', () => {
  it('answers a user, no opinion (null), or rejects with a coded AuthenticationError', async () => {
    await expect(tokens.authenticate(req('Bearer good'))).resolves.toEqual({
      user: { username: 'alice', groups: ['system:authenticated'] },
      audiences: ['kevents'],
    });
    await expect(tokens.authenticate(req())).resolves.toBeNull();
    const err = await Promise.resolve(tokens.authenticate(req('Bearer bad'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      name: 'AuthenticationError',
      code: 'InvalidCredentials',
      message: 'token not recognized',
    });
  });

  it('keeps the cause of an error', () => {
    const cause = new Error('jwks fetch failed');
    expect(new AuthenticationError('AuthenticatorUnavailable', 'issuer not ready', { cause }).cause).toBe(cause);
  });

  it('names the anonymous user like kube-apiserver', () => {
    expect(anonymousUser).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });
});
