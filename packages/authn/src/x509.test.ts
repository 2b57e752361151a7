import { beforeAll, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';
import type { AuthenticationRequest } from '@kevents/api';
import { AuthenticationError } from '@kevents/api';
import { generateCA, generateClientCert } from './testing/index.js';
import type { KeyPair } from './testing/index.js';
import { X509Authenticator } from './x509.js';

type Options = NonNullable<Parameters<typeof generate>[1]>;
type Extensions = Options['extensions'];

const day = 86_400_000;

/**
 * A certificate signed by `parent` (self-signed without one): a CA unless `ca: false`, with the
 * given path length, key usage, extended key usage and validity.
 */
async function issue(
  parent: KeyPair | undefined,
  cn: string,
  o: {
    ca?: boolean;
    pathLen?: number;
    keyCertSign?: boolean;
    eku?: 'clientAuth' | 'serverAuth';
    notBefore?: Date;
    notAfter?: Date;
    attrs?: { name: string; value: string }[];
  } = {},
): Promise<KeyPair> {
  const ca = o.ca ?? true;
  const extensions = [
    {
      name: 'basicConstraints',
      cA: ca,
      critical: true,
      ...(o.pathLen !== undefined ? { pathLenConstraint: o.pathLen } : {}),
    },
    {
      name: 'keyUsage',
      digitalSignature: true,
      keyCertSign: ca && (o.keyCertSign ?? true),
      critical: true,
    },
    ...(o.eku ? [{ name: 'extKeyUsage', [o.eku]: true }] : []),
  ];
  const pair = await generate(o.attrs ?? [{ name: 'commonName', value: cn }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...(parent ? { ca: { key: parent.key, cert: parent.cert } } : {}),
    notBeforeDate: o.notBefore ?? new Date(Date.now() - day),
    notAfterDate: o.notAfter ?? new Date(Date.now() + 30 * day),
    extensions: extensions as Extensions,
  } as Options);
  return { cert: pair.cert, key: pair.private };
}

const der = (pem: string): Uint8Array => new X509Certificate(pem).raw;
const req = (...pems: string[]): AuthenticationRequest => ({
  headers: {},
  method: 'GET',
  path: '/api',
  clientCertificates: pems.map(der),
});

async function failure(p: Promise<unknown>): Promise<AuthenticationError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof AuthenticationError)) throw new Error(`expected an AuthenticationError, got ${String(e)}`);
  return e;
}

/** kube's prefix: `verifying certificate SN=<n>, SKID=, AKID= failed: `. */
const prefix = (pem: string) =>
  `verifying certificate SN=${BigInt(`0x${new X509Certificate(pem).serialNumber}`).toString()}, SKID=, AKID= failed: `;

let root: KeyPair;
let intermediate: KeyPair;
let leaf: KeyPair;
let auth: X509Authenticator;

beforeAll(async () => {
  root = await generateCA('root CA');
  intermediate = await issue(root, 'intermediate CA');
  leaf = await generateClientCert(intermediate, 'dave', ['team-c']);
  auth = new X509Authenticator(root.cert);
});

describe('x509 client certificates through an intermediate', () => {
  it('accepts leaf + intermediate against the root (and with the root appended, as Node reports the chain)', async () => {
    await expect(auth.authenticate(req(leaf.cert, intermediate.cert))).resolves.toMatchObject({
      user: { username: 'dave', groups: ['team-c'] },
    });
    await expect(auth.authenticate(req(leaf.cert, intermediate.cert, root.cert))).resolves.toMatchObject({
      user: { username: 'dave' },
    });
    await expect(auth.authenticate(req(leaf.cert, root.cert, intermediate.cert))).resolves.toMatchObject({
      user: { username: 'dave' },
    });
  });

  it('accepts a longer chain, and the intermediate in the CA bundle instead of presented', async () => {
    const second = await issue(intermediate, 'second intermediate');
    const deep = await generateClientCert(second, 'erin');
    await expect(auth.authenticate(req(deep.cert, second.cert, intermediate.cert))).resolves.toMatchObject({
      user: { username: 'erin' },
    });
    const bundled = new X509Authenticator(`${root.cert}\n${intermediate.cert}`);
    await expect(bundled.authenticate(req(leaf.cert))).resolves.toMatchObject({ user: { username: 'dave' } });
  });

  it('refuses the leaf without its intermediate', async () => {
    const e = await failure(auth.authenticate(req(leaf.cert)));
    expect(e.message).toBe(`${prefix(leaf.cert)}x509: certificate signed by unknown authority`);
  });

  it('refuses an intermediate that is not a CA', async () => {
    const notCA = await issue(root, 'not a CA', { ca: false });
    const under = await generateClientCert(notCA, 'mallory');
    const e = await failure(auth.authenticate(req(under.cert, notCA.cert)));
    expect(e.code).toBe('InvalidCredentials');
    expect(e.message).toBe(
      `${prefix(under.cert)}x509: certificate signed by unknown authority (possibly because of "x509: invalid signature: parent certificate cannot sign this kind of certificate" while trying to verify candidate authority certificate "not a CA")`,
    );
  });

  it('refuses an intermediate whose key usage does not allow certificate signing', async () => {
    const noSign = await issue(root, 'no keyCertSign', { keyCertSign: false });
    const under = await generateClientCert(noSign, 'mallory');
    const e = await failure(auth.authenticate(req(under.cert, noSign.cert)));
    expect(e.message).toMatch(/parent certificate cannot sign this kind of certificate/);
  });

  it('refuses an expired or not yet valid intermediate', async () => {
    const expired = await issue(root, 'expired CA', {
      notBefore: new Date(Date.now() - 10 * day),
      notAfter: new Date(Date.now() - day),
    });
    const under = await generateClientCert(expired, 'mallory');
    const e = await failure(auth.authenticate(req(under.cert, expired.cert)));
    expect(e.code).toBe('ExpiredCredentials');
    expect(e.message).toMatch(
      /^verifying certificate SN=\d+, SKID=, AKID= failed: x509: certificate has expired or is not yet valid: current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    const future = await issue(root, 'future CA', { notBefore: new Date(Date.now() + day) });
    const early = await generateClientCert(future, 'mallory');
    const f = await failure(auth.authenticate(req(early.cert, future.cert)));
    expect(f.code).toBe('InvalidCredentials');
    expect(f.message).toMatch(/x509: certificate has expired or is not yet valid: current time .* is before /);
  });

  it('refuses a signature that does not match: an impostor intermediate, a tampered leaf', async () => {
    const impostor = await issue(root, 'intermediate CA'); // same name, another key
    const e = await failure(auth.authenticate(req(leaf.cert, impostor.cert)));
    expect(e.message).toBe(
      `${prefix(leaf.cert)}x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority certificate "intermediate CA")`,
    );
    const raw = Buffer.from(der(leaf.cert));
    raw[raw.length - 3]! ^= 0x01; // inside the signature's last integer
    const tampered = { headers: {}, method: 'GET', path: '/', clientCertificates: [raw, der(intermediate.cert)] };
    const t = await failure(auth.authenticate(tampered));
    expect(t.message).toMatch(/possibly because of "x509: ECDSA verification failure"/);
    // The real intermediate among the presented ones still verifies.
    await expect(auth.authenticate(req(leaf.cert, impostor.cert, intermediate.cert))).resolves.toMatchObject({
      user: { username: 'dave' },
    });
  });

  it('enforces path length constraints', async () => {
    const strictRoot = await issue(undefined, 'strict root', { pathLen: 0 });
    const inter = await issue(strictRoot, 'inter under strict root');
    const under = await generateClientCert(inter, 'mallory');
    const strict = new X509Authenticator(strictRoot.cert);
    const e = await failure(strict.authenticate(req(under.cert, inter.cert)));
    expect(e.message).toBe(`${prefix(under.cert)}x509: too many intermediates for path length constraint`);
    const direct = await generateClientCert(strictRoot, 'ok');
    await expect(strict.authenticate(req(direct.cert))).resolves.toMatchObject({ user: { username: 'ok' } });
  });

  it('requires client auth (or no extended key usage) on the leaf and every CA that lists usages', async () => {
    const serverOnlyCA = await issue(root, 'server-only CA', { eku: 'serverAuth' });
    const under = await generateClientCert(serverOnlyCA, 'mallory');
    const e = await failure(auth.authenticate(req(under.cert, serverOnlyCA.cert)));
    expect(e.message).toBe(`${prefix(under.cert)}x509: certificate specifies an incompatible key usage`);
    const clientCA = await issue(root, 'client-only CA', { eku: 'clientAuth' });
    const ok = await generateClientCert(clientCA, 'frank');
    await expect(auth.authenticate(req(ok.cert, clientCA.cert))).resolves.toMatchObject({
      user: { username: 'frank' },
    });
    const serverLeaf = await generateClientCert(intermediate, 'srv', [], { usage: 'serverAuth' });
    expect((await failure(auth.authenticate(req(serverLeaf.cert, intermediate.cert)))).message).toMatch(
      /incompatible key usage$/,
    );
    const noEku = await issue(intermediate, 'no-eku', { ca: false });
    await expect(auth.authenticate(req(noEku.cert, intermediate.cert))).resolves.toMatchObject({
      user: { username: 'no-eku' },
    });
  });

  it('refuses an expired leaf with kube’s text', async () => {
    const old = await generateClientCert(intermediate, 'old', [], { notAfter: new Date(Date.now() - 60_000) });
    const e = await failure(auth.authenticate(req(old.cert, intermediate.cert)));
    expect(e.code).toBe('ExpiredCredentials');
    expect(e.message).toMatch(/x509: certificate has expired or is not yet valid: current time \S+Z is after \S+Z$/);
  });

  it('stops after 100 signature checks', async () => {
    const impostors = await Promise.all(Array.from({ length: 101 }, () => issue(root, 'intermediate CA')));
    const e = await failure(auth.authenticate(req(leaf.cert, ...impostors.map((i) => i.cert), intermediate.cert)));
    expect(e.message).toBe(
      `${prefix(leaf.cert)}x509: signature check attempts limit reached while verifying certificate chain`,
    );
  });

  it('reads the subject as Go does: the last CN is the user, every O a group', async () => {
    const twoCNs = await issue(intermediate, '', {
      ca: false,
      attrs: [
        { name: 'commonName', value: 'first' },
        { name: 'organizationName', value: 'g1' },
        { name: 'commonName', value: 'second' },
        { name: 'organizationName', value: 'g2' },
      ],
    });
    await expect(auth.authenticate(req(twoCNs.cert, intermediate.cert))).resolves.toMatchObject({
      user: { username: 'second', groups: ['g1', 'g2'] },
    });
  });

  it('has no opinion without certificates or with an empty Common Name', async () => {
    await expect(auth.authenticate({ headers: {}, method: 'GET', path: '/' })).resolves.toBeNull();
    const noCN = await issue(intermediate, '', { ca: false, attrs: [{ name: 'organizationName', value: 'o' }] });
    await expect(auth.authenticate(req(noCN.cert, intermediate.cert))).resolves.toBeNull();
  });

  it('refuses malformed certificates', async () => {
    const e = await failure(
      auth.authenticate({
        headers: {},
        method: 'GET',
        path: '/',
        clientCertificates: [new Uint8Array([0x30, 0x03, 1])],
      }),
    );
    expect(e.message).toMatch(/^x509: malformed certificate: /);
  });
});
