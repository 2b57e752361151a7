import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ClaimMappings, JWTAuthenticator } from '@kevents/api';
import { AuthenticationError } from '@kevents/api';
import { OidcIssuer } from '../testing/index.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import { ClaimMapper } from './claim-mappings.js';

/** The mapper alone, on claims (the verification is covered in jwt-authenticator.test.ts). */
const mapper = (m: Partial<ClaimMappings>, rest: Partial<JWTAuthenticator> = {}): ClaimMapper =>
  new ClaimMapper({
    issuer: { url: 'https://issuer.example', audiences: ['kevents'] },
    claimMappings: { username: { claim: 'sub', prefix: '' }, ...m },
    ...rest,
  });

const err = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof AuthenticationError) return e.message;
    throw e;
  }
  throw new Error('expected a failure');
};

describe('claim mappings', () => {
  it('username: claim with prefix; missing, non-string; null is empty', () => {
    const m = mapper({ username: { claim: 'sub', prefix: 'oidc:' } });
    expect(m.map({ sub: 'alice' }).username).toBe('oidc:alice');
    expect(err(() => m.map({}))).toBe('oidc: parse username claims "sub": claim not present');
    expect(err(() => m.map({ sub: 7 }))).toBe(
      'oidc: parse username claims "sub": json: cannot unmarshal number into Go value of type string',
    );
    expect(m.map({ sub: null }).username).toBe('oidc:');
  });

  it('username email rule: email_verified must be a bool and not false; absent is fine', () => {
    const m = mapper({ username: { claim: 'email', prefix: '' } });
    expect(m.map({ email: 'a@x.io' }).username).toBe('a@x.io');
    expect(m.map({ email: 'a@x.io', email_verified: true }).username).toBe('a@x.io');
    expect(err(() => m.map({ email: 'a@x.io', email_verified: false }))).toBe('oidc: email not verified');
    expect(err(() => m.map({ email: 'a@x.io', email_verified: 'true' }))).toBe(
      "oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool",
    );
  });

  it('username expression: string, not empty, not another type; CEL runtime errors', () => {
    const m = mapper({ username: { expression: "'u:' + claims.sub" } });
    expect(m.map({ sub: 'bob' }).username).toBe('u:bob');
    expect(err(() => mapper({ username: { expression: 'claims.n' } }).map({ n: 3 }))).toBe(
      'oidc: error evaluating username claim expression: username claim expression must return a string',
    );
    expect(err(() => mapper({ username: { expression: "''" } }).map({}))).toBe(
      'oidc: empty username via CEL expression is not allowed',
    );
    expect(err(() => mapper({ username: { expression: 'claims.hd' } }).map({}))).toBe(
      "oidc: error evaluating username claim expression: expression 'claims.hd' resulted in error: no such key: hd",
    );
  });

  it('groups: claim string or list with prefix, absent is none, other types fail', () => {
    const m = mapper({ groups: { claim: 'groups', prefix: 'g:' } });
    expect(m.map({ sub: 'a', groups: ['x', 'y'] }).groups).toEqual(['g:x', 'g:y']);
    expect(m.map({ sub: 'a', groups: 'one' }).groups).toEqual(['g:one']);
    expect(m.map({ sub: 'a' }).groups).toEqual([]);
    expect(err(() => m.map({ sub: 'a', groups: 5 }))).toBe(
      'oidc: parse groups claim "groups": json: cannot unmarshal number into Go value of type string',
    );
  });

  it('groups expression: string, list (empties dropped), null; else an error', () => {
    const g = (expression: string, claims: Record<string, unknown> = {}) =>
      mapper({ groups: { expression } }).map({ sub: 'a', ...claims }).groups;
    expect(g("'admins'")).toEqual(['admins']);
    expect(g("''")).toEqual([]);
    expect(g("['a', '', 'b']")).toEqual(['a', 'b']);
    expect(g('null')).toEqual([]);
    expect(g("claims.roles.map(r, 'role:' + r)", { roles: ['x'] })).toEqual(['role:x']);
    expect(err(() => g('1'))).toBe(
      'oidc: error evaluating group claim expression: expression must return a string or a list of strings',
    );
  });

  it('uid: claim required when configured; expression must be a string', () => {
    expect(mapper({ uid: { claim: 'oid' } }).map({ sub: 'a', oid: 'u-1' }).uid).toBe('u-1');
    expect(err(() => mapper({ uid: { claim: 'oid' } }).map({ sub: 'a' }))).toBe(
      'oidc: parse uid claim "oid": claim not present',
    );
    expect(mapper({ uid: { expression: "'id-' + claims.sub" } }).map({ sub: 'a' }).uid).toBe('id-a');
    expect(err(() => mapper({ uid: { expression: 'true' } }).map({ sub: 'a' }))).toBe(
      'oidc: error evaluating uid claim expression: uid claim expression must return a string',
    );
  });

  it('extra: string or list, empty leaves the key out, type errors and CEL errors without the oidc prefix', () => {
    const m = mapper({
      extra: [
        { key: 'example.com/tenant', valueExpression: 'claims.tenant' },
        { key: 'example.com/none', valueExpression: "''" },
        { key: 'example.com/scopes', valueExpression: "claims.scope.split(' ')" },
      ],
    });
    expect(m.map({ sub: 'a', tenant: 't1', scope: 'read write', jti: 'id' }).extra).toEqual({
      'authentication.kubernetes.io/credential-id': ['JTI=id'],
      'example.com/tenant': ['t1'],
      'example.com/scopes': ['read', 'write'],
    });
    expect(err(() => mapper({ extra: [{ key: 'example.com/n', valueExpression: '1' }] }).map({ sub: 'a' }))).toBe(
      'oidc: error evaluating extra claim expression: 1: expression must return a string or a list of strings',
    );
    expect(
      err(() => mapper({ extra: [{ key: 'example.com/n', valueExpression: 'claims.missing' }] }).map({ sub: 'a' })),
    ).toBe("expression 'claims.missing' resulted in error: no such key: missing");
  });
});

describe('claim validation rules', () => {
  it('claim + requiredValue: present, a string, equal', () => {
    const m = mapper({}, { claimValidationRules: [{ claim: 'hd', requiredValue: 'example.com' }] });
    expect(m.map({ sub: 'a', hd: 'example.com' }).username).toBe('a');
    expect(err(() => m.map({ sub: 'a' }))).toBe('oidc: required claim hd not present in ID token');
    expect(err(() => m.map({ sub: 'a', hd: 1 }))).toBe(
      'oidc: parse claim hd: json: cannot unmarshal number into Go value of type string',
    );
    expect(err(() => m.map({ sub: 'a', hd: 'evil.com' }))).toBe(
      'oidc: required claim hd value does not match. Got = evil.com, want = example.com',
    );
  });

  it('expressions: false with its message (or empty), runtime error', () => {
    const rules = [
      { expression: "claims.hd == 'example.com'", message: 'wrong domain' },
      { expression: 'claims.admin == true' },
    ];
    const m = mapper({}, { claimValidationRules: rules });
    expect(m.map({ sub: 'a', hd: 'example.com', admin: true }).username).toBe('a');
    expect(err(() => m.map({ sub: 'a', hd: 'x', admin: true }))).toBe(
      "oidc: error evaluating claim validation expression: validation expression 'claims.hd == 'example.com'' failed: wrong domain",
    );
    expect(err(() => m.map({ sub: 'a', hd: 'example.com', admin: false }))).toBe(
      "oidc: error evaluating claim validation expression: validation expression 'claims.admin == true' failed: ",
    );
    expect(err(() => m.map({ sub: 'a', admin: true }))).toBe(
      "oidc: error evaluating claim validation expression: expression 'claims.hd == 'example.com'' resulted in error: no such key: hd",
    );
  });
});

describe('user validation rules', () => {
  it('see the mapped user (before system:authenticated) and fail with the message', () => {
    const m = mapper(
      { username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: '' } },
      {
        userValidationRules: [
          {
            expression: "!user.username.startsWith('system:')",
            message: 'username cannot used reserved system: prefix',
          },
          { expression: "user.groups.all(g, !g.startsWith('system:'))", message: 'no system groups' },
        ],
      },
    );
    expect(m.map({ sub: 'alice', groups: ['dev'] })).toEqual({ username: 'alice', groups: ['dev'] });
    expect(err(() => m.map({ sub: 'system:admin' }))).toBe(
      "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('system:')' failed: username cannot used reserved system: prefix",
    );
    expect(err(() => m.map({ sub: 'a', groups: ['system:masters'] }))).toBe(
      "oidc: error evaluating user info validation rule: validation expression 'user.groups.all(g, !g.startsWith('system:'))' failed: no system groups",
    );
  });
});

describe('distributed claims for groups', () => {
  let issuer: OidcIssuer;
  let a: JwtAuthenticator;
  beforeAll(async () => {
    issuer = await OidcIssuer.start({ alg: 'ES256' });
    a = new JwtAuthenticator(
      {
        issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
        claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: '' } },
      },
      { discoveryRetryMs: 50 },
    );
    await a.whenReady();
  });
  afterAll(async () => {
    a.close();
    await issuer.stop();
  });

  const distributed = (endpoint: string, accessToken = 'claims-access-token') => ({
    sub: 'dana',
    aud: 'kevents',
    _claim_names: { groups: 'src1' },
    _claim_sources: { src1: { endpoint, access_token: accessToken } },
  });

  it('fetches the groups from the claim source (its JWT verified like the token)', async () => {
    const t = await issuer.mint(distributed(`${issuer.url}/claims/groups`));
    let r: unknown;
    for (let i = 0; i < 200; i++) {
      r = await a.authenticateToken(t).catch((e: Error) => e);
      if (!(r instanceof Error && /verifier not initialized/.test(r.message))) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(r).toMatchObject({ user: { username: 'dana', groups: ['distributed-a', 'distributed-b'] } });
  });

  it('fails with Kubernetes’ text when the source answers an error, and checks the source structure', async () => {
    const bad = await issuer.mint(distributed(`${issuer.url}/claims/groups`, 'wrong'));
    await expect(a.authenticateToken(bad)).rejects.toThrow(
      'oidc: could not expand distributed claims: while getting distributed claim "groups": error while getting distributed claim JWT: 401 Unauthorized',
    );
    const missing = await issuer.mint({
      sub: 'a',
      aud: 'kevents',
      _claim_names: { groups: 'nope' },
      _claim_sources: {},
    });
    await expect(a.authenticateToken(missing)).rejects.toThrow('oidc: verify token: oidc: source does not exist');
    const present = await issuer.mint({ ...distributed('https://unused.invalid/'), groups: ['inline'] });
    await expect(a.authenticateToken(present)).resolves.toMatchObject({ user: { groups: ['inline'] } });
  });
});
