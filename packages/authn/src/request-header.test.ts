import { beforeAll, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import fc from 'fast-check';
import type { AuthenticationRequest } from '@kevents/api';
import { AuthenticationError, withoutAuthenticationHeaders } from '@kevents/api';
import { AuthenticationChain } from './chain.js';
import { RequestHeaderAuthenticator, authenticationHeaderNames, unescapeExtraKey } from './request-header.js';
import { generateCA, generateClientCert } from './testing/index.js';
import type { KeyPair } from './testing/index.js';

const der = (pem: string): Uint8Array => new X509Certificate(pem).raw;

const request = (headers: AuthenticationRequest['headers'], certs?: readonly Uint8Array[]): AuthenticationRequest => ({
  headers,
  ...(certs ? { clientCertificates: certs } : {}),
  method: 'GET',
  path: '/apis/events.k8s.io/v1/events',
  signal: new AbortController().signal,
});

/** A request whose front-proxy headers the server gave apart (as the filter does on a TLS connection). */
const proxied = (
  fp: Readonly<Record<string, readonly string[]>>,
  certs: readonly Uint8Array[],
  other: AuthenticationRequest['headers'] = {},
): AuthenticationRequest => ({
  headers: { ...other, ...fp },
  frontProxyHeaders: fp,
  clientCertificates: certs,
  method: 'GET',
  path: '/apis/events.k8s.io/v1/events',
});

describe('RequestHeaderAuthenticator (headerrequest + x509.Verifier)', () => {
  let frontProxyCA: KeyPair;
  let otherCA: KeyPair;
  let proxy: Uint8Array;
  let other: Uint8Array;
  let stranger: Uint8Array;
  let serverUsage: Uint8Array;
  beforeAll(async () => {
    frontProxyCA = await generateCA('front-proxy-ca');
    otherCA = await generateCA('other-ca');
    proxy = der((await generateClientCert(frontProxyCA, 'front-proxy-client')).cert);
    other = der((await generateClientCert(frontProxyCA, 'someone-else')).cert);
    stranger = der((await generateClientCert(otherCA, 'front-proxy-client')).cert);
    serverUsage = der((await generateClientCert(frontProxyCA, 'front-proxy-client', [], { usage: 'serverAuth' })).cert);
  });

  const headers = {
    'x-remote-user': 'alice',
    'x-remote-uid': 'uid-1',
    'x-remote-group': ['devs', ' ', 'ops'],
    'x-remote-extra-scopes': ['view', 'edit'],
    'x-remote-extra-example.com%2fteam': 'blue',
    'x-remote-extra-bad%zz': 'kept',
  };

  it('takes the user, uid, groups and extra from a verified front proxy with an allowed name', () => {
    const a = new RequestHeaderAuthenticator({
      clientCA: frontProxyCA.cert,
      allowedNames: ['front-proxy-client'],
      uidHeaders: ['X-Remote-Uid'],
    });
    expect(a.authenticate(request(headers, [proxy]))).toEqual({
      user: {
        username: 'alice',
        uid: 'uid-1',
        groups: ['devs', 'ops'],
        extra: { scopes: ['view', 'edit'], 'example.com/team': ['blue'], 'bad%zz': ['kept'] },
      },
    });
  });

  it('ignores the headers without a client certificate', () => {
    const a = new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert });
    expect(a.authenticate(request(headers))).toBeNull();
  });

  it('fails for a certificate from another CA, a client certificate for server use, or a CN not allowed', () => {
    const a = new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert, allowedNames: ['front-proxy-client'] });
    expect(() => a.authenticate(request(headers, [stranger]))).toThrow(AuthenticationError);
    expect(() => a.authenticate(request(headers, [stranger]))).toThrow(/x509: certificate signed by unknown authority/);
    expect(() => a.authenticate(request(headers, [serverUsage]))).toThrow(AuthenticationError);
    expect(() => a.authenticate(request(headers, [other]))).toThrow(
      'x509: subject with cn=someone-else is not in the allowed list',
    );
    // No allowed names: any certificate the CA verifies.
    const any = new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert });
    expect(any.authenticate(request(headers, [other]))?.user.username).toBe('alice');
  });

  it("verifies a connection's chain once, and again once a certificate of it may have expired", async () => {
    let now = Date.now();
    const a = new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert }, { now: () => now });
    const chain = [proxy];
    expect(a.authenticate(request(headers, chain))?.user.username).toBe('alice');
    const notAfter = new X509Certificate(Buffer.from(proxy)).validToDate.getTime();
    now = notAfter + 1000;
    expect(() => a.authenticate(request(headers, chain))).toThrow(/x509: certificate has expired or is not yet valid/);
  });

  it('has no opinion without a username; reads the first header with a value', () => {
    const a = new RequestHeaderAuthenticator({
      clientCA: frontProxyCA.cert,
      usernameHeaders: ['X-User-A', 'X-User-B'],
    });
    expect(a.authenticate(request({ 'x-remote-group': 'g' }, [proxy]))).toBeNull();
    expect(a.authenticate(request({ 'x-user-a': '', 'x-user-b': 'bob' }, [proxy]))?.user.username).toBe('bob');
  });

  it('decodes extra keys as url.PathUnescape, after lower-casing', () => {
    expect(unescapeExtraKey('a%2Fb')).toBe('a/b');
    expect(unescapeExtraKey('a+b')).toBe('a+b');
    expect(unescapeExtraKey('100%')).toBe('100%');
    expect(unescapeExtraKey('%e2%82%ac')).toBe('€');
  });

  it('clears every named header and every header under a prefix', () => {
    const h: Record<string, string | string[] | undefined> = {
      'x-remote-user': 'a',
      'x-remote-group': 'g',
      'x-remote-extra-foo': 'b',
      'x-remote-uid': 'u',
      accept: 'json',
    };
    const cleared = withoutAuthenticationHeaders(h, authenticationHeaderNames({ uidHeaders: ['X-Remote-Uid'] }));
    expect(cleared).toEqual({ accept: 'json' });
    expect(h['x-remote-user']).toBe('a');
    const none = { accept: 'json', 'x-remote': 'not a prefix match' };
    expect(withoutAuthenticationHeaders(none, authenticationHeaderNames({}))).toBe(none);
  });

  it("answers a connection's repeated front-proxy headers with the same response, and others afresh", () => {
    const a = new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert });
    const connection = [proxy];
    const alice = { 'x-remote-user': ['alice'], 'x-remote-group': ['devs'] };
    const first = a.authenticate(proxied(alice, connection));
    expect(first).toEqual({ user: { username: 'alice', groups: ['devs'], extra: {} } });
    // New objects with the same lines (each request gets its own): the same response.
    expect(a.authenticate(proxied({ 'x-remote-user': ['alice'], 'x-remote-group': ['devs'] }, connection))).toBe(first);
    // Anything else on the connection: read afresh.
    const bob = a.authenticate(proxied({ 'x-remote-user': ['bob'], 'x-remote-group': ['devs'] }, connection));
    expect(bob?.user.username).toBe('bob');
    expect(a.authenticate(proxied({ 'x-remote-user': ['alice'] }, connection))?.user).toEqual({
      username: 'alice',
      groups: [],
      extra: {},
    });
    expect(
      a.authenticate(proxied({ 'x-remote-user': ['alice'], 'x-remote-group': ['devs', 'ops'] }, connection))?.user
        .groups,
    ).toEqual(['devs', 'ops']);
    expect(a.authenticate(proxied({ 'x-remote-group': ['devs'] }, connection))).toBeNull();
    // Another connection (another chain array) does not share the first's answer.
    const other = a.authenticate(proxied(alice, [proxy]));
    expect(other).toEqual(first);
    expect(other).not.toBe(first);
    // The same values under other names, or in another order of names (extras under two
    // spellings of one key gather in the order of the names), are other headers.
    const ab = { 'x-remote-user': ['u'], 'x-remote-extra-a%62': ['1'], 'x-remote-extra-ab': ['2'] };
    const ba = { 'x-remote-user': ['u'], 'x-remote-extra-ab': ['2'], 'x-remote-extra-a%62': ['1'] };
    expect(a.authenticate(proxied(ab, connection))?.user.extra).toEqual({ ab: ['1', '2'] });
    expect(a.authenticate(proxied(ba, connection))?.user.extra).toEqual({ ab: ['2', '1'] });
  });

  it("never answers one request's headers with another's user (property)", () => {
    const a = new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert, uidHeaders: ['X-Remote-Uid'] });
    const fresh = (fp: Record<string, string[]>) =>
      new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert, uidHeaders: ['X-Remote-Uid'] }).authenticate(
        proxied(fp, [proxy]),
      );
    const name = fc.constantFrom(
      'x-remote-user',
      'x-remote-uid',
      'x-remote-group',
      'x-remote-extra-scopes',
      'x-remote-extra-a%62',
      'x-remote-extra-ab',
    );
    const headerSet = fc.dictionary(
      name,
      fc.array(fc.constantFrom('', 'alice', 'bob', 'a, b', 'devs'), { maxLength: 3 }),
    );
    const connections = [[proxy], [proxy]];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), headerSet), { maxLength: 12 }), (requests) => {
        for (const [c, fp] of requests) {
          const copy = Object.fromEntries(Object.entries(fp).map(([k, v]) => [k, [...v]]));
          expect(a.authenticate(proxied(copy, connections[c]!))).toEqual(fresh(fp));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads the front-proxy headers given apart, not the others', () => {
    const a = new RequestHeaderAuthenticator({ clientCA: frontProxyCA.cert });
    const r = a.authenticate(
      proxied({ 'x-remote-user': ['alice'] }, [proxy], { 'x-remote-extra-x': 'not given apart' }),
    );
    expect(r?.user.extra).toEqual({});
  });

  it('in the chain: system:authenticated is added, a failed front proxy is a 401 even with anonymous on', async () => {
    const chain = new AuthenticationChain({ requestHeader: { clientCA: frontProxyCA.cert } });
    expect(chain.authenticationHeaders?.names).toEqual(['x-remote-user', 'x-remote-group']);
    const r = await chain.authenticate(request(headers, [proxy]));
    expect(r?.user.groups).toEqual(['devs', 'ops', 'system:authenticated']);
    await expect(Promise.resolve(chain.authenticate(request(headers, [stranger])))).rejects.toThrow(
      AuthenticationError,
    );
    expect((await chain.authenticate(request(headers)))?.user.username).toBe('system:anonymous');
  });

  it('in the chain: a verified front proxy without a user header is answered synchronously, as the whole chain would', async () => {
    const chain = new AuthenticationChain({ requestHeader: { clientCA: frontProxyCA.cert } });
    const anonymous = { user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } };
    const fast = chain.authenticate(request({}, [proxy]));
    expect(fast).not.toBeInstanceOf(Promise);
    expect(fast).toEqual(anonymous);
    // A certificate the front-proxy CA did not sign still fails (401), and a member that reads
    // client certificates as users (x509) keeps the whole chain.
    await expect(Promise.resolve(chain.authenticate(request({}, [stranger])))).rejects.toThrow(AuthenticationError);
    const withX509 = new AuthenticationChain({
      requestHeader: { clientCA: frontProxyCA.cert },
      clientCA: frontProxyCA.cert,
    });
    const full = withX509.authenticate(request({}, [proxy]));
    expect(full).toBeInstanceOf(Promise);
    expect((await full)?.user.username).toBe('front-proxy-client');
    const off = new AuthenticationChain({ requestHeader: { clientCA: frontProxyCA.cert }, anonymousFlag: false });
    expect(off.authenticate(request({}, [proxy]))).toBeNull();
  });

  it("in the chain: a connection's repeated headers get the same user object, each user its own", async () => {
    const chain = new AuthenticationChain({ requestHeader: { clientCA: frontProxyCA.cert }, anonymousFlag: false });
    const connection = [proxy];
    const alice = () => ({ 'x-remote-user': ['alice'], 'x-remote-group': ['devs'] });
    const first = await chain.authenticate(proxied(alice(), connection));
    expect(first?.user).toEqual({ username: 'alice', groups: ['devs', 'system:authenticated'], extra: {} });
    expect(await chain.authenticate(proxied(alice(), connection))).toBe(first);
    const bob = await chain.authenticate(proxied({ 'x-remote-user': ['bob'] }, connection));
    expect(bob?.user).toEqual({ username: 'bob', groups: ['system:authenticated'], extra: {} });
    const again = await chain.authenticate(proxied(alice(), connection));
    expect(again?.user).toEqual(first?.user);
  });
});
