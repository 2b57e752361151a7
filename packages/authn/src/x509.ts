import { createHash, X509Certificate } from 'node:crypto';
import type { AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';
import { expiredCredentials, invalidCredentials } from './errors.js';
import { oidClientAuth, parseCertificate } from './x509-certificate.js';
import type { ParsedCertificate } from './x509-certificate.js';
import { VerifyError, verifyCertificate } from './x509-verify.js';

/** Splits a PEM bundle (`--client-ca-file`) into certificates. @throws Error when it holds none. */
export function parseCertificateBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const certs = blocks.map((b) => new X509Certificate(b));
  if (!certs.length) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  return certs;
}

/** Go's `%X` of a key id, colon-separated (kube's `columnSeparatedHex`). */
const columnSeparatedHex = (b: Uint8Array): string =>
  Buffer.from(b)
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');

/** kube's `certificateIdentifier`: `SN=<decimal>, SKID=<AA:BB>, AKID=<CC:DD>`. */
const certificateIdentifier = (c: ParsedCertificate): string =>
  `SN=${c.serialNumber.toString()}, SKID=${columnSeparatedHex(c.subjectKeyId)}, AKID=${columnSeparatedHex(c.authorityKeyId)}`;

/**
 * Verifies a presented client certificate chain (leaf first, DER) as kube's x509 Verifier does:
 * Go's `x509.Verify` with the other certificates as intermediates and client-auth usage. Returns
 * the parsed chain, leaf first. @throws AuthenticationError worded like kube's (`verifying
 * certificate SN=... failed: x509: ...`), an expired one as such.
 */
export function verifyClientChain(
  der: readonly Uint8Array[],
  roots: Parameters<typeof verifyCertificate>[1]['roots'],
  now: Parameters<typeof verifyCertificate>[1]['now'],
): readonly ParsedCertificate[] {
  let presented: ParsedCertificate[];
  try {
    presented = der.map((d) => parseCertificate(d));
  } catch (e) {
    throw invalidCredentials((e as Error).message, e);
  }
  const leaf = presented[0]!;
  try {
    verifyCertificate(leaf, { roots, intermediates: presented.slice(1), keyUsages: [oidClientAuth], now });
  } catch (e) {
    if (!(e instanceof VerifyError)) throw e;
    const msg = `verifying certificate ${certificateIdentifier(leaf)} failed: ${e.message}`;
    throw e.expired ? expiredCredentials(msg) : invalidCredentials(msg, e);
  }
  return presented;
}

/**
 * kube-apiserver's x509 client-certificate authenticator (`--client-ca-file`): verifies the leaf
 * the client presented as Go's `x509.Verify` does, with the CA bundle as roots and the rest of
 * the presented chain as intermediates, for client authentication (see `x509-verify.ts`); then
 * the leaf's Common Name (the last CN attribute, as Go reads it) is the username and its
 * Organizations the groups; `authentication.kubernetes.io/credential-id` is
 * `X509SHA256=<fingerprint>`. No certificate, or an empty Common Name: no opinion.
 */
export class X509Authenticator implements Authenticator {
  readonly #roots: readonly ParsedCertificate[];
  readonly #now: () => number;

  constructor(caBundlePem: string, options: { now?: () => number } = {}) {
    this.#roots = parseCertificateBundle(caBundlePem).map((c) => parseCertificate(c.raw));
    this.#now = options.now ?? Date.now;
  }

  authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> {
    try {
      return Promise.resolve(this.#authenticate(req));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  #authenticate(req: AuthenticationRequest): AuthenticationResponse | null {
    const der = req.clientCertificates;
    if (!der || der.length === 0) return null;
    const leaf = verifyClientChain(der, this.#roots, this.#now())[0]!;
    if (leaf.commonName === '') return null;
    const fingerprint = createHash('sha256').update(leaf.raw).digest('hex');
    return {
      user: {
        username: leaf.commonName,
        groups: [...leaf.organizations],
        extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint}`] },
      },
    };
  }
}
