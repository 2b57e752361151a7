import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import type { JWTAuthenticator } from '@kevents/api';
import { AuthenticationError } from '@kevents/api';
import { waitFor } from '@kevents/api/testing';
import { OidcIssuer } from '../testing/index.js';
import { JwtAuthenticator } from './jwt-authenticator.js';

let issuer: OidcIssuer;
const live: JwtAuthenticator[] = [];

beforeAll(async () => {
  issuer = await OidcIssuer.start({ alg: 'RS256' });
});
afterAll(async () => {
  for (const a of live) a.close();
  await issuer.stop();
});

const entry = (over: Partial<JWTAuthenticator> = {}, iss: OidcIssuer = issuer): JWTAuthenticator => ({
  issuer: { url: iss.url, audiences: ['kevents'], certificateAuthority: iss.ca.cert },
  claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: '' } },
  ...over,
});

async function ready(a: JwtAuthenticator): Promise<JwtAuthenticator> {
  live.push(a);
  await a.whenReady();
  return a;
}

const failure = async (p: Promise<unknown>): Promise<AuthenticationError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof AuthenticationError)) throw new Error(`expected an AuthenticationError, got ${String(e)}`);
  return e;
};

describe('JWT authenticator against a real HTTPS issuer', () => {
  let a: JwtAuthenticator;
  beforeAll(async () => {
    a = await ready(new JwtAuthenticator(entry(), { discoveryRetryMs: 100 }));
  });

  it('maps a valid RS256 token to the user, with the jti credential id', async () => {
    const t = await issuer.mint({ sub: 'alice', aud: 'kevents', groups: ['dev', 'ops'], jti: 'j1' });
    await expect(a.authenticateToken(t)).resolves.toEqual({
      user: {
        username: 'alice',
        groups: ['dev', 'ops'],
        extra: { 'authentication.kubernetes.io/credential-id': ['JTI=j1'] },
      },
      audiences: ['kevents'],
    });
    expect(a.healthError()).toBeUndefined();
  });

  it('declines a token of another issuer, and non-JWT tokens', async () => {
    const t = await issuer.mint({ sub: 'alice', aud: 'kevents', iss: 'https://other.example' });
    await expect(a.authenticateToken(t)).resolves.toBeNull();
    await expect(a.authenticateToken('not-a-jwt')).resolves.toBeNull();
    await expect(a.authenticateToken('{"iss":"x"}.a.b')).resolves.toBeNull();
  });

  it('rejects a wrong audience', async () => {
    const t = await issuer.mint({ sub: 'alice', aud: 'someone-else' });
    expect((await failure(a.authenticateToken(t))).message).toBe(
      'oidc: verify token: oidc: expected audience "kevents" got ["someone-else"]',
    );
  });

  it('rejects an expired token (no leeway) and a missing exp', async () => {
    const now = Math.floor(Date.now() / 1000);
    const e = await failure(a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', exp: now - 1 })));
    expect(e.code).toBe('ExpiredCredentials');
    expect(e.message).toMatch(
      /^oidc: verify token: oidc: token is expired \(Token Expiry: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\)$/,
    );
    const noExp = await failure(a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', exp: undefined })));
    expect(noExp.code).toBe('ExpiredCredentials');
  });

  it('accepts nbf within one minute and rejects a later nbf', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(
      a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', nbf: now + 30 })),
    ).resolves.not.toBeNull();
    const e = await failure(a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', nbf: now + 300 })));
    expect(e.message).toMatch(/^oidc: verify token: oidc: current time .* before the nbf \(not before\) time: /);
  });

  it('does not check iat', async () => {
    const future = Math.floor(Date.now() / 1000) + 86_400;
    await expect(
      a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', iat: future })),
    ).resolves.not.toBeNull();
  });

  it('rejects a bad signature', async () => {
    const t = await issuer.mint({ sub: 'alice', aud: 'kevents' });
    const [h, p] = t.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ iss: issuer.url, sub: 'mallory', aud: 'kevents', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url')}.${t.split('.')[2]}`;
    expect(p).toBeDefined();
    const e = await failure(a.authenticateToken(forged));
    expect(e.message).toBe('oidc: verify token: failed to verify signature: failed to verify id token signature');
  });

  it('refuses alg none and HS256 signed with the public key as secret', async () => {
    const payload = { iss: issuer.url, sub: 'mallory', aud: 'kevents', exp: Math.floor(Date.now() / 1000) + 60 };
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;
    expect((await failure(a.authenticateToken(none))).message).toBe('oidc: verify token: oidc: id token not signed');
    const unsigned = `${none}c2ln`;
    expect((await failure(a.authenticateToken(unsigned))).message).toBe(
      'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256" "RS384" "RS512" "ES256" "ES384" "ES512" "PS256" "PS384" "PS512"] got "none"',
    );
    const jwks = (await (await fetchJwks(issuer)).json()) as { keys: Record<string, unknown>[] };
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
    const hs = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: issuer.kids[0]! }).sign(secret);
    expect((await failure(a.authenticateToken(hs))).message).toMatch(/got "HS256"$/);
    const { publicKey } = await generateKeyPair('RS256', { extractable: true });
    const pem = new TextEncoder().encode(await exportSPKI(publicKey));
    const hs2 = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(pem);
    expect((await failure(a.authenticateToken(hs2))).message).toMatch(/unsupported algorithm/);
  });
});

describe('the registered claims are read as go-oidc reads them (real HTTPS issuer)', () => {
  let a: JwtAuthenticator;
  beforeAll(async () => {
    a = await ready(
      new JwtAuthenticator(entry({ claimMappings: { username: { claim: 'name', prefix: '' } } }), {
        discoveryRetryMs: 100,
      }),
    );
  });
  const prefix = 'oidc: verify token: oidc: failed to unmarshal claims: ';

  it('refuses an aud array holding anything but strings (kube: cannot unmarshal)', async () => {
    const t = await issuer.mint({ name: 'alice', aud: ['kevents', 5] as unknown as string[] });
    expect((await failure(a.authenticateToken(t))).message).toBe(
      `${prefix}json: cannot unmarshal number into Go struct field idToken.aud of type string`,
    );
  });

  it('reads AUD as the audience too: the last member wins', async () => {
    const other = await issuer.mint({ name: 'alice', aud: 'kevents', AUD: 'someone-else' });
    expect((await failure(a.authenticateToken(other))).message).toBe(
      'oidc: verify token: oidc: expected audience "kevents" got ["someone-else"]',
    );
    const ours = await issuer.mint({ name: 'alice', aud: 'someone-else', Aud: 'kevents' });
    await expect(a.authenticateToken(ours)).resolves.toMatchObject({ user: { username: 'alice' } });
  });

  it('refuses a sub, nonce or at_hash that is not a string', async () => {
    for (const [claim, v] of [
      ['sub', 42],
      ['nonce', {}],
      ['at_hash', true],
    ] as const) {
      const t = await issuer.mint({ name: 'alice', aud: 'kevents', [claim]: v });
      expect((await failure(a.authenticateToken(t))).message).toMatch(
        new RegExp(`^${prefix}json: cannot unmarshal \\w+ into Go struct field idToken\\.${claim} of type string$`),
      );
    }
  });

  it('picks the authenticator by the last iss in any case, as kube-apiserver peeks', async () => {
    const elsewhere = await issuer.mint({ name: 'alice', aud: 'kevents', ISS: 'https://other.example' });
    await expect(a.authenticateToken(elsewhere)).resolves.toBeNull();
    const typed = await issuer.mint({ name: 'alice', aud: 'kevents', Iss: 5 });
    await expect(a.authenticateToken(typed)).resolves.toBeNull();
    const ours = await issuer.mint({ name: 'alice', aud: 'kevents', iss: 'https://other.example', ISS: issuer.url });
    await expect(a.authenticateToken(ours)).resolves.toMatchObject({ user: { username: 'alice' } });
  });

  it('refuses _claim_names that are not a map of strings', async () => {
    const t = await issuer.mint({ name: 'alice', aud: 'kevents', _claim_names: 'src1' });
    expect((await failure(a.authenticateToken(t))).message).toBe(
      `${prefix}json: cannot unmarshal string into Go struct field idToken._claim_names of type map[string]string`,
    );
  });
});

/** The issuer's JWKS over its own CA (node fetch does not take a CA: read it through the authenticator's client). */
async function fetchJwks(iss: OidcIssuer): Promise<{ json(): Promise<unknown> }> {
  const { issuerHttpClient } = await import('../http-client.js');
  const r = await issuerHttpClient({ ca: iss.ca.cert })(`${iss.url}/jwks`);
  return { json: async () => JSON.parse(r.body) as unknown };
}

describe.each(['ES256', 'PS256', 'RS512', 'ES384'] as const)('signed %s', (alg) => {
  it('verifies', async () => {
    const iss = await OidcIssuer.start({ alg });
    try {
      const a = await ready(new JwtAuthenticator(entry({}, iss)));
      const t = await iss.mint({ sub: `user-${alg}`, aud: 'kevents' });
      await expect(a.authenticateToken(t)).resolves.toMatchObject({ user: { username: `user-${alg}` } });
    } finally {
      await iss.stop();
    }
  });
});

describe('keys and discovery', () => {
  it('picks up a rotated key on an unknown kid; old tokens stop verifying', async () => {
    const iss = await OidcIssuer.start({ alg: 'ES256' });
    try {
      const a = await ready(new JwtAuthenticator(entry({}, iss)));
      const old = await iss.mint({ sub: 'a', aud: 'kevents' });
      await expect(a.authenticateToken(old)).resolves.not.toBeNull();
      expect(iss.requests.get('/jwks')).toBe(1);
      await iss.rotate('ES256');
      const fresh = await iss.mint({ sub: 'b', aud: 'kevents' });
      await expect(a.authenticateToken(fresh)).resolves.toMatchObject({ user: { username: 'b' } });
      expect(iss.requests.get('/jwks')).toBe(2);
      const e = await failure(a.authenticateToken(old));
      expect(e.message).toBe('oidc: verify token: failed to verify signature: failed to verify id token signature');
    } finally {
      await iss.stop();
    }
  });

  it('honours Cache-Control: no refresh before the keys near expiry', async () => {
    const iss = await OidcIssuer.start({ alg: 'ES256' });
    try {
      iss.jwksCacheControl = 'max-age=3600';
      const a = await ready(new JwtAuthenticator(entry({}, iss)));
      await a.authenticateToken(await iss.mint({ sub: 'a', aud: 'kevents' }));
      await iss.rotate('ES256');
      const e = await failure(a.authenticateToken(await iss.mint({ sub: 'b', aud: 'kevents' })));
      expect(e.message).toBe('oidc: verify token: failed to verify signature: failed to verify id token signature');
      expect(iss.requests.get('/jwks')).toBe(1);
    } finally {
      await iss.stop();
    }
  });

  it('shares one JWKS fetch between concurrent tokens; a failed refresh keeps the old keys', async () => {
    const iss = await OidcIssuer.start({ alg: 'ES256' });
    try {
      const a = await ready(new JwtAuthenticator(entry({}, iss)));
      const tokens = await Promise.all([1, 2, 3, 4, 5].map((i) => iss.mint({ sub: `u${i}`, aud: 'kevents' })));
      await Promise.all(tokens.map((t) => a.authenticateToken(t)));
      expect(iss.requests.get('/jwks')).toBe(1);
      const kid = iss.kids[0]!;
      await iss.rotate('ES256', false);
      iss.jwksStatus = 503;
      const unknown = await iss.mint({ sub: 'x', aud: 'kevents' });
      const e = await failure(a.authenticateToken(unknown));
      expect(e.code).toBe('AuthenticatorUnavailable');
      expect(e.message).toBe(
        'oidc: verify token: failed to verify signature: fetching keys oidc: get keys failed: 503 Service Unavailable keys unavailable',
      );
      await expect(
        a.authenticateToken(await iss.mint({ sub: 'still', aud: 'kevents' }, { kid })),
      ).resolves.not.toBeNull();
    } finally {
      await iss.stop();
    }
  });

  it('is not ready while discovery returns another issuer', async () => {
    const iss = await OidcIssuer.start();
    try {
      iss.discoveryIssuer = `${iss.url}/`;
      const a = new JwtAuthenticator(entry({}, iss), { discoveryRetryMs: 50 });
      live.push(a);
      await waitFor(() => /issuer did not match/.test(a.healthError() ?? ''), 10_000, undefined, { intervalMs: 20 });
      expect(a.healthError()).toBe(
        `oidc: authenticator for issuer "${iss.url}" is not healthy: oidc: issuer did not match the issuer returned by provider, expected "${iss.url}" got "${iss.url}/"`,
      );
      const e = await failure(a.authenticateToken(await iss.mint({ sub: 'a', aud: 'kevents' })));
      expect(e.message).toBe('oidc: authenticator not initialized');
      iss.discoveryIssuer = undefined;
      await a.whenReady();
      await expect(a.authenticateToken(await iss.mint({ sub: 'a', aud: 'kevents' }))).resolves.not.toBeNull();
    } finally {
      await iss.stop();
    }
  });

  it('retries discovery of an issuer down at start until it comes up', async () => {
    const first = await OidcIssuer.start();
    const port = first.port;
    const ca = first.ca;
    await first.stop();
    const a = new JwtAuthenticator(
      {
        ...entry(),
        issuer: { url: `https://127.0.0.1:${port}`, audiences: ['kevents'], certificateAuthority: ca.cert },
      },
      { discoveryRetryMs: 50 },
    );
    live.push(a);
    await waitFor(() => /ECONNREFUSED/.test(a.healthError() ?? ''), 10_000, undefined, { intervalMs: 20 });
    const up = await OidcIssuer.start({ port, ca });
    try {
      await a.whenReady();
      expect(a.healthError()).toBeUndefined();
      await expect(a.authenticateToken(await up.mint({ sub: 'late', aud: 'kevents' }))).resolves.toMatchObject({
        user: { username: 'late' },
      });
    } finally {
      await up.stop();
    }
  });

  it('trusts only certificateAuthority when set', async () => {
    const other = await OidcIssuer.start();
    try {
      const a = new JwtAuthenticator(
        { ...entry(), issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: other.ca.cert } },
        { discoveryRetryMs: 50 },
      );
      live.push(a);
      await waitFor(() => /certificate/.test(a.healthError() ?? ''), 10_000, undefined, { intervalMs: 20 });
      expect(a.healthError()).toMatch(/not healthy: Get ".*\/.well-known\/openid-configuration": .*certificate/);
    } finally {
      await other.stop();
    }
  });

  it('uses discoveryURL for the document but still requires the issuer URL', async () => {
    const a = await ready(
      new JwtAuthenticator(
        {
          ...entry(),
          issuer: {
            url: issuer.url,
            discoveryURL: `${issuer.url}/.well-known/openid-configuration?via=discovery`,
            audiences: ['kevents'],
            certificateAuthority: issuer.ca.cert,
          },
        },
        { discoveryRetryMs: 50 },
      ),
    );
    await expect(a.authenticateToken(await issuer.mint({ sub: 'd', aud: 'kevents' }))).resolves.not.toBeNull();
  });
});

describe('time claims as go-oidc v2.3.0 reads them (kube-apiserver’s vendored verifier)', () => {
  const t0 = Math.floor(Date.now() / 1000) * 1000; // a whole second, for exact texts
  let clock = t0;
  let a: JwtAuthenticator;
  beforeAll(async () => {
    a = await ready(new JwtAuthenticator(entry(), { now: () => clock }));
  });
  const s = (ms: number) => Math.floor(ms / 1000);

  it('treats exp 1e300 as expired (int64(1e300) is math.MinInt64), with kube’s text', async () => {
    clock = t0;
    const e = await failure(a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', exp: 1e300 })));
    expect(e.code).toBe('ExpiredCredentials');
    expect(e.message).toBe(
      'oidc: verify token: oidc: token is expired (Token Expiry: 292277026596-12-04 15:30:08 +0000 UTC)',
    );
    const big = await failure(a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', exp: 2 ** 63 })));
    expect(big.code).toBe('ExpiredCredentials');
  });

  it('reads exp as Go decodes a json.Number: a numeric string counts, other strings fail', async () => {
    clock = t0;
    const future = String(s(t0) + 600);
    await expect(
      a.authenticateToken(await issuer.mint({ sub: 'str', aud: 'kevents', exp: future as unknown as number })),
    ).resolves.toMatchObject({ user: { username: 'str' } });
    const e = await failure(
      a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', exp: 'soon' as unknown as number })),
    );
    expect(e.message).toBe(
      'oidc: verify token: oidc: failed to unmarshal claims: json: invalid number literal, trying to unmarshal "\\"soon\\"" into Number',
    );
  });

  it('matches claim names case-insensitively, the last one winning, as Go’s encoding/json', async () => {
    clock = t0;
    const t = await issuer.mint({ sub: 'a', aud: 'kevents', exp: s(t0) + 600, Exp: s(t0) - 600 });
    expect((await failure(a.authenticateToken(t))).code).toBe('ExpiredCredentials');
  });

  it('accepts nbf up to one minute ahead, refuses it later, with kube’s text', async () => {
    clock = t0;
    await expect(
      a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', nbf: s(t0) + 60 })),
    ).resolves.not.toBeNull();
    const e = await failure(a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', nbf: s(t0) + 61 })));
    expect(e.code).toBe('InvalidCredentials');
    const fmt = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('.000Z', ' +0000 UTC');
    expect(e.message).toBe(
      `oidc: verify token: oidc: current time ${fmt(t0)} before the nbf (not before) time: ${fmt(t0 + 61_000)}`,
    );
    const str = await failure(
      a.authenticateToken(
        await issuer.mint({ sub: 'a', aud: 'kevents', nbf: String(s(t0) + 3000) as unknown as number }),
      ),
    );
    expect(str.message).toMatch(/before the nbf \(not before\) time: /);
  });

  it('does not check iat, but it must decode', async () => {
    clock = t0;
    await expect(
      a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', iat: 1e300 })),
    ).resolves.not.toBeNull();
    const e = await failure(
      a.authenticateToken(await issuer.mint({ sub: 'a', aud: 'kevents', iat: true as unknown as number })),
    );
    expect(e.message).toBe(
      'oidc: verify token: oidc: failed to unmarshal claims: json: cannot unmarshal bool into Go struct field idToken.iat of type json.Number',
    );
  });

  it('expires at exp included: valid at exp, refused one millisecond later', async () => {
    const exp = s(t0) + 30;
    const t = await issuer.mint({ sub: 'edge', aud: 'kevents', exp });
    clock = exp * 1000;
    await expect(a.authenticateToken(t)).resolves.not.toBeNull();
    clock = exp * 1000 + 1;
    expect((await failure(a.authenticateToken(t))).code).toBe('ExpiredCredentials');
  });
});
