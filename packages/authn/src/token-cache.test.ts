import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthenticationConfiguration, AuthenticationResponse } from '@kevents/api';
import { AuthenticationError } from '@kevents/api';
import { AuthenticationChain } from './chain.js';
import { withCredentialExpiry } from './credential-expiry.js';
import { JwtAuthenticatorSet } from './jwt/jwt-set.js';
import { CachedTokenAuthenticator } from './token-cache.js';
import { OidcIssuer } from './testing/index.js';

let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await OidcIssuer.start({ alg: 'ES256' });
});
afterAll(async () => issuer.stop());

const unsignedJwt = (claims: Record<string, unknown>): string =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

describe('token cache bounded by the credential’s expiry', () => {
  it('drops an entry at the expiry the authenticator reported, within the TTL', async () => {
    let now = 1_000_000;
    let calls = 0;
    const inner = {
      authenticateToken: (t: string): Promise<AuthenticationResponse> => {
        calls++;
        return Promise.resolve(withCredentialExpiry({ user: { username: t, groups: [] } }, 1_003_000));
      },
    };
    const cache = new CachedTokenAuthenticator(inner, { successTtlMs: 10_000, now: () => now });
    await cache.authenticateToken('a');
    now = 1_003_000; // the credential's last valid millisecond
    expect(cache.peek('a')).toBeDefined();
    await cache.authenticateToken('a');
    expect(calls).toBe(1);
    now = 1_003_001;
    expect(cache.peek('a')).toBeUndefined();
    await cache.authenticateToken('a');
    expect(calls).toBe(2);
  });

  it('bounds a compact JWT by its own exp whatever authenticator accepted it; the TTL still applies', async () => {
    let now = 1_700_000_000_000;
    const inner = { authenticateToken: () => Promise.resolve({ user: { username: 'u', groups: [] } }) };
    const cache = new CachedTokenAuthenticator(inner, { successTtlMs: 10_000, now: () => now });
    const short = unsignedJwt({ exp: 1_700_000_002 });
    const long = unsignedJwt({ exp: 1_800_000_000 });
    const noExp = unsignedJwt({ sub: 'x' });
    await Promise.all([short, long, noExp, 'opaque'].map((t) => cache.authenticateToken(t)));
    now += 2_001;
    expect(cache.peek(short)).toBeUndefined();
    expect(cache.peek(long)).toBeDefined();
    expect(cache.peek(noExp)).toBeDefined();
    expect(cache.peek('opaque')).toBeDefined();
    now += 8_000;
    expect(cache.peek(long)).toBeUndefined();
    // Already expired when verified (exp 1e300 as Go reads it): never cached.
    const ancient = unsignedJwt({ exp: 1e300 });
    await cache.authenticateToken(ancient);
    expect(cache.peek(ancient)).toBeUndefined();
  });

  it('refuses a cached JWT past its exp even within the 10 s TTL (fake clock, real issuer)', async () => {
    const t0 = Math.floor(Date.now() / 1000) * 1000;
    let clock = t0;
    const set = new JwtAuthenticatorSet(
      [
        {
          issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
          claimMappings: { username: { claim: 'sub', prefix: '' } },
        },
      ],
      { now: () => clock },
    );
    try {
      await Promise.all(set.authenticators.map((a) => a.whenReady()));
      const cache = new CachedTokenAuthenticator(set, { now: () => clock });
      const token = await issuer.mint({ sub: 'short', aud: 'kevents', exp: t0 / 1000 + 3 });
      await expect(cache.authenticateToken(token)).resolves.toMatchObject({ user: { username: 'short' } });
      clock = t0 + 3_000;
      expect(cache.peek(token)).toBeDefined();
      clock = t0 + 3_001;
      expect(cache.peek(token)).toBeUndefined();
      const e = await cache.authenticateToken(token).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(AuthenticationError);
      expect((e as AuthenticationError).code).toBe('ExpiredCredentials');
    } finally {
      set.close();
    }
  });

  it('through the whole chain: the synchronous cached answer stops at exp', async () => {
    const t0 = Math.floor(Date.now() / 1000) * 1000;
    let clock = t0;
    const config: AuthenticationConfiguration = {
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AuthenticationConfiguration',
      jwt: [
        {
          issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
          claimMappings: { username: { claim: 'sub', prefix: '' } },
        },
      ],
    };
    const chain = new AuthenticationChain({
      config,
      anonymousFlag: false,
      now: () => clock,
      tokenCache: { now: () => clock },
    });
    try {
      await Promise.all(chain.jwtAuthenticators!.authenticators.map((a) => a.whenReady()));
      const token = await issuer.mint({ sub: 'brief', aud: 'kevents', exp: t0 / 1000 + 2 });
      const req = { headers: { authorization: `Bearer ${token}` }, method: 'GET', path: '/api' };
      await expect(Promise.resolve(chain.authenticate(req))).resolves.toMatchObject({
        user: { username: 'brief' },
      });
      clock = t0 + 1_000;
      const cached = chain.authenticate(req);
      expect(cached).not.toBeInstanceOf(Promise); // served from the cache
      clock = t0 + 2_500; // past exp, well within the 10 s TTL
      await expect(Promise.resolve(chain.authenticate(req))).rejects.toThrow(/oidc: token is expired/);
    } finally {
      chain.close();
    }
  });
});
