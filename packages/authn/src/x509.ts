import { createHash, X509Certificate } from 'node:crypto';
import type { AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';
import { expiredCredentials, invalidCredentials } from './errors.js';

const clientAuthOid = '1.3.6.1.5.5.7.3.2';
const anyExtendedKeyUsageOid = '2.5.29.37.0';

/** Splits a PEM bundle (`--client-ca-file`) into certificates. @throws Error when it holds none. */
export function parseCertificateBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const certs = blocks.map((b) => new X509Certificate(b));
  if (!certs.length) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  return certs;
}

/** The subject's values of one attribute (`CN`, `O`), in order, from Node's one-per-line subject. */
function subjectValues(cert: X509Certificate, attr: string): string[] {
  const out: string[] = [];
  for (const line of cert.subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && line.slice(0, eq) === attr) out.push(line.slice(eq + 1));
  }
  return out;
}

/**
 * kube-apiserver's x509 client-certificate authenticator (`--client-ca-file`): verifies the chain
 * the client presented against the CA bundle for client authentication, then the leaf's Common
 * Name is the username and its Organizations the groups; `authentication.kubernetes.io/credential-id`
 * is `X509SHA256=<fingerprint>`. No certificate: no opinion.
 */
export class X509Authenticator implements Authenticator {
  readonly #roots: readonly X509Certificate[];
  readonly #now: () => number;

  constructor(caBundlePem: string, options: { now?: () => number } = {}) {
    this.#roots = parseCertificateBundle(caBundlePem);
    this.#now = options.now ?? Date.now;
  }

  authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> {
    const der = req.clientCertificates;
    if (!der || der.length === 0) return Promise.resolve(null);
    let chain: X509Certificate[];
    try {
      chain = der.map((d) => new X509Certificate(d));
    } catch (e) {
      return Promise.reject(invalidCredentials(`x509: malformed certificate: ${(e as Error).message}`, e));
    }
    const leaf = chain[0]!;
    try {
      this.#verify(chain);
    } catch (e) {
      return Promise.reject(e);
    }
    const cn = subjectValues(leaf, 'CN')[0] ?? '';
    if (cn === '') return Promise.resolve(null);
    const fingerprint = createHash('sha256').update(leaf.raw).digest('hex');
    return Promise.resolve({
      user: {
        username: cn,
        groups: subjectValues(leaf, 'O'),
        extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint}`] },
      },
    });
  }

  /** Go's `Certificate.Verify` with the CA pool as roots, the rest of the chain as intermediates, ExtKeyUsageClientAuth. */
  #verify(chain: readonly X509Certificate[]): void {
    const leaf = chain[0]!;
    const now = this.#now();
    const what = `verifying certificate SN=${BigInt(`0x${leaf.serialNumber}`).toString()}, SKID=, AKID= failed`;
    const eku = leaf.keyUsage;
    if (eku && eku.length && !eku.includes(clientAuthOid) && !eku.includes(anyExtendedKeyUsageOid))
      throw invalidCredentials(`${what}: x509: certificate specifies an incompatible key usage`);
    const intermediates = chain.slice(1);
    let current = leaf;
    for (let depth = 0; depth < 10; depth++) {
      if (now > Date.parse(current.validTo) || now < Date.parse(current.validFrom)) {
        const expired = now > Date.parse(current.validTo);
        const msg = `${what}: x509: certificate has expired or is not yet valid: current time ${new Date(now).toISOString()} is ${expired ? 'after' : 'before'} ${new Date(expired ? current.validTo : current.validFrom).toISOString()}`;
        throw expired ? expiredCredentials(msg) : invalidCredentials(msg);
      }
      const root = this.#roots.find((r) => current.checkIssued(r) && current.verify(r.publicKey));
      if (root) {
        if (now > Date.parse(root.validTo) || now < Date.parse(root.validFrom)) break;
        return;
      }
      const next = intermediates.find(
        (c) => c !== current && c.ca && current.checkIssued(c) && current.verify(c.publicKey),
      );
      if (!next) break;
      current = next;
    }
    throw invalidCredentials(`${what}: x509: certificate signed by unknown authority`);
  }
}
