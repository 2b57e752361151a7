import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { Registry } from 'prom-client';
import type { AuthenticationConfiguration, AuthenticationRequest } from '@kevents/api';
import { AuthenticationError } from '@kevents/api';
import { AuthenticationChain } from './chain.js';
import { AuthenticationMetrics } from './metrics.js';
import { JwtAuthenticatorSet } from './jwt/jwt-set.js';
import { CachedTokenAuthenticator } from './token-cache.js';
import { OidcIssuer, generateCA, generateClientCert } from './testing/index.js';
import type { KeyPair } from './testing/index.js';

let issuer: OidcIssuer;
let ca: KeyPair;
beforeAll(async () => {
  issuer = await OidcIssuer.start({ alg: 'ES256' });
  ca = await generateCA('client CA');
});
afterAll(async () => issuer.stop());

const config = (anonymous?: AuthenticationConfiguration['anonymous']): AuthenticationConfiguration => ({
  apiVersion: 'apiserver.config.k8s.io/v1',
  kind: 'AuthenticationConfiguration',
  jwt: [
    {
      issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
      claimMappings: { username: { claim: 'sub', prefix: 'oidc:' } },
    },
  ],
  ...(anonymous ? { anonymous } : {}),
});

const req = (o: Partial<AuthenticationRequest> = {}): AuthenticationRequest => ({
  headers: {},
  method: 'GET',
  path: '/apis/events.k8s.io/v1/events',
  ...o,
});
const bearer = (t: string, path?: string) =>
  req({ headers: { authorization: `Bearer ${t}` }, ...(path ? { path } : {}) });
const der = (pem: string): Uint8Array => new X509Certificate(pem).raw;

/** The chain's answer as a promise, whether it came synchronously or not. */
const answer = async (c: AuthenticationChain, r: AuthenticationRequest) => c.authenticate(r);

async function chain(o: ConstructorParameters<typeof AuthenticationChain>[0]): Promise<AuthenticationChain> {
  const c = new AuthenticationChain({ discoveryRetryMs: 50, ...o });
  await Promise.all(c.jwtAuthenticators?.authenticators.map((a) => a.whenReady()) ?? []);
  return c;
}

describe('authentication chain', () => {
  it('a valid token: the mapped user plus system:authenticated', async () => {
    const c = await chain({ config: config() });
    const t = await issuer.mint({ sub: 'alice', aud: 'kevents' });
    await expect(answer(c, bearer(t))).resolves.toEqual({
      user: { username: 'oidc:alice', groups: ['system:authenticated'] },
      audiences: ['kevents'],
    });
    c.close();
  });

  it('an unknown token is `invalid bearer token`, never anonymous; no credentials are anonymous', async () => {
    const c = await chain({ config: config(), anonymousFlag: true });
    const e = await answer(c, bearer('opaque-token')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AuthenticationError);
    expect((e as Error).message).toBe('invalid bearer token');
    const bad = await issuer.mint({ sub: 'a', aud: 'other' });
    await expect(answer(c, bearer(bad))).rejects.toThrow(/expected audience/);
    await expect(answer(c, req())).resolves.toEqual({
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    c.close();
  });

  it('ignores other schemes and empty tokens (anonymous when allowed)', async () => {
    const c = await chain({ config: config() });
    for (const authorization of ['Basic YTpi', 'Bearer', 'Bearer ', 'bearer'])
      await expect(answer(c, req({ headers: { authorization } }))).resolves.toMatchObject({
        user: { username: 'system:anonymous' },
      });
    const t = await issuer.mint({ sub: 'casey', aud: 'kevents' });
    await expect(answer(c, req({ headers: { authorization: `bEaReR ${t}` } }))).resolves.toMatchObject({
      user: { username: 'oidc:casey' },
    });
    c.close();
  });

  it('anonymous block with conditions: only the exact listed paths', async () => {
    const c = await chain({ config: config({ enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] }) });
    await expect(answer(c, req({ path: '/livez' }))).resolves.toMatchObject({
      user: { username: 'system:anonymous' },
    });
    await expect(answer(c, req({ path: '/livez/' }))).resolves.toBeNull();
    await expect(answer(c, req({ path: '/livez/ping' }))).resolves.toBeNull();
    await expect(answer(c, req())).resolves.toBeNull();
    await expect(answer(c, bearer('garbage', '/livez'))).rejects.toThrow('invalid bearer token');
    c.close();
  });

  it('anonymous block disabled, and the legacy flag off: no user', async () => {
    const off = await chain({ config: config({ enabled: false }) });
    await expect(answer(off, req({ path: '/livez' }))).resolves.toBeNull();
    off.close();
    const flagOff = await chain({ config: config(), anonymousFlag: false });
    await expect(answer(flagOff, req())).resolves.toBeNull();
    flagOff.close();
    const flagOnly = await chain({ anonymousFlag: true });
    await expect(answer(flagOnly, bearer('anything'))).resolves.toMatchObject({
      user: { username: 'system:anonymous' },
    });
  });

  it('client certificates: CN is the user, O the groups, credential id the fingerprint', async () => {
    const client = await generateClientCert(ca, 'carol', ['team-a', 'team-b']);
    const c = await chain({ clientCA: ca.cert, anonymousFlag: false });
    const r = await answer(c, req({ clientCertificates: [der(client.cert)] }));
    expect(r?.user.username).toBe('carol');
    expect(r?.user.groups).toEqual(['team-a', 'team-b', 'system:authenticated']);
    expect(r?.user.extra?.['authentication.kubernetes.io/credential-id']?.[0]).toMatch(/^X509SHA256=[0-9a-f]{64}$/);
    expect(createPrivateKey(client.key)).toBeDefined();
  });

  it('client certificates from another CA, or for server auth only, are rejected', async () => {
    const other = await generateCA('other CA');
    const stranger = await generateClientCert(other, 'eve');
    const serverOnly = await generateClientCert(ca, 'srv', [], { usage: 'serverAuth' });
    const c = await chain({ clientCA: ca.cert, anonymousFlag: true });
    await expect(answer(c, req({ clientCertificates: [der(stranger.cert)] }))).rejects.toThrow(
      /x509: certificate signed by unknown authority$/,
    );
    await expect(answer(c, req({ clientCertificates: [der(serverOnly.cert)] }))).rejects.toThrow(
      /incompatible key usage/,
    );
  });

  it('a certificate and a token: the union tries the token when the certificate fails', async () => {
    const other = await generateCA('other CA');
    const stranger = await generateClientCert(other, 'eve');
    const c = await chain({ clientCA: ca.cert, config: config() });
    const t = await issuer.mint({ sub: 'tok', aud: 'kevents' });
    await expect(
      answer(c, req({ clientCertificates: [der(stranger.cert)], headers: { authorization: `Bearer ${t}` } })),
    ).resolves.toMatchObject({ user: { username: 'oidc:tok' } });
    c.close();
  });

  it('counts attempts and durations with Kubernetes’ names', async () => {
    const registry = new Registry();
    const metrics = new AuthenticationMetrics(registry, 'apiserver-test');
    const c = await chain({ config: config({ enabled: true, conditions: [{ path: '/livez' }] }), metrics });
    await answer(c, bearer(await issuer.mint({ sub: 'm', aud: 'kevents' })));
    await answer(c, req()).catch(() => undefined);
    await answer(c, bearer('nope')).catch(() => undefined);
    const text = await registry.metrics();
    expect(text).toMatch(/^authentication_attempts\{result="success"\} 1$/m);
    expect(text).toMatch(/^authentication_attempts\{result="failure"\} 1$/m);
    expect(text).toMatch(/^authentication_attempts\{result="error"\} 1$/m);
    expect(text).toMatch(/^authentication_duration_seconds_count\{result="success"\} 1$/m);
    expect(text).toMatch(/^authenticated_user_requests\{username="other"\} 1$/m);
    expect(text).toMatch(
      /^apiserver_authentication_jwt_authenticator_latency_seconds_count\{result="success",jwt_issuer_hash="sha256:[0-9a-f]{64}"\} 1$/m,
    );
    expect(text).toMatch(
      /^apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds\{result="success",jwt_issuer_hash="sha256:[0-9a-f]{64}",apiserver_id_hash="sha256:[0-9a-f]{64}"\} \d/m,
    );
    expect(text).toMatch(
      /^apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info\{.*hash="sha256:[0-9a-f]{64}"\} 1$/m,
    );
    c.close();
  });

  it('answers a cached token synchronously with what the whole chain answers, and counts it', async () => {
    const registry = new Registry();
    const metrics = new AuthenticationMetrics(registry);
    let now = 0;
    const c = await chain({ config: config(), metrics, tokenCache: { now: () => now } });
    const t = await issuer.mint({ sub: 'cached', aud: 'kevents', groups: ['dev'] });
    const first = c.authenticate(bearer(t));
    expect(first).toBeInstanceOf(Promise);
    const verified = await first;
    const again = c.authenticate(bearer(t));
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual(verified);
    expect(again).toEqual({
      user: { username: 'oidc:cached', groups: ['system:authenticated'] },
      audiences: ['kevents'],
    });
    expect(await registry.metrics()).toMatch(/^authentication_attempts\{result="success"\} 2$/m);
    // A client certificate is x509's to answer first: no shortcut. Nor once the entry is stale.
    const cert = await generateClientCert(ca, 'x');
    expect(c.authenticate({ ...bearer(t), clientCertificates: [der(cert.cert)] })).toBeInstanceOf(Promise);
    now = 10_000;
    expect(c.authenticate(bearer(t))).toBeInstanceOf(Promise);
    c.close();
  });

  it('answers a request with no credentials synchronously, as the whole chain would, and counts it', async () => {
    const registry = new Registry();
    const metrics = new AuthenticationMetrics(registry);
    const c = await chain({ config: config({ enabled: true, conditions: [{ path: '/livez' }] }), metrics });
    // With no x509 member a client certificate changes nothing, but it makes the chain take its full path.
    const unrelated = der((await generateClientCert(ca, 'unrelated')).cert);
    const viaChain = (r: AuthenticationRequest) => answer(c, { ...r, clientCertificates: [unrelated] });
    for (const r of [
      req({ path: '/livez' }),
      req(),
      req({ path: '/livez', headers: { authorization: 'Basic YTpi' } }),
    ]) {
      const fast = c.authenticate(r);
      expect(fast).not.toBeInstanceOf(Promise);
      expect(fast).toEqual(await viaChain(r));
    }
    expect(c.authenticate(req({ path: '/livez' }))).toEqual({
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    expect(c.authenticate(req())).toBeNull();
    // A token that is not cached yet still takes the whole chain (and may fail there).
    const slow = c.authenticate(bearer('garbage', '/livez'));
    expect(slow).toBeInstanceOf(Promise);
    await expect(slow).rejects.toThrow('invalid bearer token');
    // Each of the three requests twice (fast and full path), then one more of each kind.
    const text = await registry.metrics();
    expect(text).toMatch(/^authentication_attempts\{result="success"\} 5$/m);
    expect(text).toMatch(/^authentication_attempts\{result="failure"\} 3$/m);
    expect(text).toMatch(/^authentication_attempts\{result="error"\} 1$/m);
    expect(text).toMatch(/^authentication_duration_seconds_count\{result="success"\} 5$/m);
    c.close();
    // Without a config nobody reads the Authorization header: client certificates or anonymous.
    const x509Only = await chain({ clientCA: ca.cert, anonymousFlag: true });
    expect(x509Only.authenticate(bearer('anything'))).toEqual({
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    const client = await generateClientCert(ca, 'carol', ['team']);
    expect(x509Only.authenticate(req({ clientCertificates: [der(client.cert)] }))).toBeInstanceOf(Promise);
  });

  it("a verified front proxy's request without a user header: its bearer token and anonymous's path conditions decide, as in the whole chain", async () => {
    const frontProxyCA = await generateCA('front-proxy-ca');
    const proxy = der((await generateClientCert(frontProxyCA, 'front-proxy-client')).cert);
    const requestHeader = { clientCA: frontProxyCA.cert };
    const viaProxy = (o: Partial<AuthenticationRequest>) => req({ clientCertificates: [proxy], ...o });
    const c = await chain({ config: config({ enabled: true, conditions: [{ path: '/livez' }] }), requestHeader });
    const t = await issuer.mint({ sub: 'alice', aud: 'kevents' });
    const alice = { user: { username: 'oidc:alice', groups: ['system:authenticated'] }, audiences: ['kevents'] };
    const first = c.authenticate(viaProxy({ headers: { authorization: `Bearer ${t}` } }));
    expect(first).toBeInstanceOf(Promise);
    await expect(first).resolves.toEqual(alice);
    // Now in the token cache: answered synchronously, the same user.
    expect(c.authenticate(viaProxy({ headers: { authorization: `Bearer ${t}` } }))).toEqual(alice);
    // No token: anonymous only where its conditions allow.
    expect(c.authenticate(viaProxy({ path: '/livez' }))).toEqual({
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    expect(await answer(c, viaProxy({}))).toBeNull();
    await expect(answer(c, viaProxy({ headers: { authorization: 'Bearer not-a-jwt' } }))).rejects.toThrow(
      AuthenticationError,
    );
    c.close();
  });

  it('replaceJwt swaps issuers atomically and forgets cached tokens', async () => {
    const second = await OidcIssuer.start({ alg: 'PS256' });
    try {
      const c = await chain({ config: config() });
      const old = await issuer.mint({ sub: 'old', aud: 'kevents' });
      await expect(answer(c, bearer(old))).resolves.not.toBeNull();
      const next = new JwtAuthenticatorSet([
        {
          issuer: { url: second.url, audiences: ['kevents'], certificateAuthority: second.ca.cert },
          claimMappings: { username: { claim: 'sub', prefix: '' } },
        },
      ]);
      await next.authenticators[0]!.whenReady();
      expect(next.healthErrors()).toEqual([]);
      c.replaceJwt(next).close();
      await expect(answer(c, bearer(old))).rejects.toThrow('invalid bearer token');
      await expect(answer(c, bearer(await second.mint({ sub: 'new', aud: 'kevents' })))).resolves.toMatchObject({
        user: { username: 'new' },
      });
      c.close();
    } finally {
      await second.stop();
    }
  });
});

describe('token cache', () => {
  it('keeps successes for the TTL, never failures, and shares concurrent checks', async () => {
    let calls = 0;
    let now = 0;
    const inner = {
      authenticateToken: async (t: string) => {
        calls++;
        await new Promise((r) => setTimeout(r, 5));
        if (t === 'bad') throw new AuthenticationError('InvalidCredentials', 'bad');
        return { user: { username: t, groups: [] } };
      },
    };
    const cache = new CachedTokenAuthenticator(inner, { successTtlMs: 10_000, now: () => now });
    await Promise.all([cache.authenticateToken('a'), cache.authenticateToken('a'), cache.authenticateToken('a')]);
    expect(calls).toBe(1);
    now = 9_999;
    await cache.authenticateToken('a');
    expect(calls).toBe(1);
    now = 10_000;
    await cache.authenticateToken('a');
    expect(calls).toBe(2);
    await expect(cache.authenticateToken('bad')).rejects.toThrow('bad');
    await expect(cache.authenticateToken('bad')).rejects.toThrow('bad');
    expect(calls).toBe(4);
  });
});
