import { Buffer } from 'node:buffer';
import { generalNames, keyUsageCertSign, oidAnyExtendedKeyUsage } from './x509-certificate.js';
import type { ParsedCertificate, PublicKeyAlgorithm } from './x509-certificate.js';

/**
 * Go's `(*x509.Certificate).Verify` (crypto/x509/verify.go), as kube-apiserver's x509
 * authenticator calls it: roots from `--client-ca-file`, the other certificates the client
 * presented as intermediates, `KeyUsages: [ExtKeyUsageClientAuth]`. Chains are built
 * depth-first (roots before intermediates, candidates ordered by key-identifier match), at most
 * 100 signature checks in all; each parent must be a CA (basic constraints), may restrict the
 * key usage to certificate signing, must be within its validity period and path length
 * constraint, and carry no unhandled critical extension. The chain's extended key usages must
 * allow client authentication at every level that lists any. Errors carry Go's texts.
 */

/** A verification failure, with Go's text; `expired` when a certificate's validity period has ended. */
export class VerifyError extends Error {
  override readonly name = 'VerifyError';
  readonly expired: boolean;
  constructor(message: string, expired = false) {
    super(message);
    this.expired = expired;
  }
}

/** What {@link verifyCertificate} checks against. */
export interface VerifyCertificateOptions {
  readonly roots: readonly ParsedCertificate[];
  readonly intermediates: readonly ParsedCertificate[];
  /** Requested extended key usages (OIDs); anyExtendedKeyUsage accepts every chain. */
  readonly keyUsages: readonly string[];
  /** Milliseconds since the epoch. */
  readonly now: number;
}

/** Go's `maxChainSignatureChecks`. */
export const maxChainSignatureChecks = 100;

type CertType = 'leaf' | 'intermediate' | 'root';

const insecure = (name: string) => new VerifyError(`x509: cannot verify signature: insecure algorithm ${name}`);
const unsupported = () => new VerifyError('x509: cannot verify signature: algorithm unimplemented');
const constraintViolation = () =>
  new VerifyError('x509: invalid signature: parent certificate cannot sign this kind of certificate');

interface SignatureAlgorithm {
  readonly name: string;
  readonly key: PublicKeyAlgorithm;
  readonly insecure?: boolean;
  readonly unsupported?: boolean;
}

const signatureAlgorithms: Record<string, SignatureAlgorithm> = {
  '1.2.840.113549.1.1.2': { name: 'MD2-RSA', key: 'RSA', unsupported: true },
  '1.2.840.113549.1.1.4': { name: 'MD5-RSA', key: 'RSA', insecure: true },
  '1.2.840.113549.1.1.5': { name: 'SHA1-RSA', key: 'RSA', insecure: true },
  '1.2.840.113549.1.1.11': { name: 'SHA256-RSA', key: 'RSA' },
  '1.2.840.113549.1.1.12': { name: 'SHA384-RSA', key: 'RSA' },
  '1.2.840.113549.1.1.13': { name: 'SHA512-RSA', key: 'RSA' },
  '1.2.840.10040.4.3': { name: 'DSA-SHA1', key: 'DSA', insecure: true },
  '2.16.840.1.101.3.4.3.2': { name: 'DSA-SHA256', key: 'DSA', unsupported: true },
  '1.2.840.10045.4.1': { name: 'ECDSA-SHA1', key: 'ECDSA', insecure: true },
  '1.2.840.10045.4.3.2': { name: 'ECDSA-SHA256', key: 'ECDSA' },
  '1.2.840.10045.4.3.3': { name: 'ECDSA-SHA384', key: 'ECDSA' },
  '1.2.840.10045.4.3.4': { name: 'ECDSA-SHA512', key: 'ECDSA' },
  '1.3.101.112': { name: 'Ed25519', key: 'Ed25519' },
};

const goKeyType: Record<PublicKeyAlgorithm, string> = {
  RSA: '*rsa.PublicKey',
  ECDSA: '*ecdsa.PublicKey',
  Ed25519: 'ed25519.PublicKey',
  DSA: '*dsa.PublicKey',
  X25519: '*ecdh.PublicKey',
  Unknown: '<nil>',
};

/** Go's `checkSignature` of `child` with `parent`'s key (SHA-1 and MD5 refused). */
function checkSignature(child: ParsedCertificate, parent: ParsedCertificate): VerifyError | undefined {
  let alg = signatureAlgorithms[child.signatureAlgorithm];
  if (child.signatureAlgorithm === '1.2.840.113549.1.1.10' && child.pssHash)
    alg = { name: `${child.pssHash}-RSAPSS`, key: 'RSA' };
  if (!alg || alg.unsupported) return unsupported();
  if (alg.insecure) return insecure(alg.name);
  const key = parent.publicKeyAlgorithm;
  if (key === 'DSA' || key === 'X25519' || key === 'Unknown' || !parent.publicKey) return unsupported();
  if (key !== alg.key)
    return new VerifyError(
      `x509: signature algorithm specifies an ${alg.key} public key, but have public key of type ${goKeyType[key]}`,
    );
  let ok = false;
  try {
    ok = child.x509.verify(parent.publicKey);
  } catch {
    ok = false;
  }
  if (ok) return undefined;
  if (key === 'RSA') return new VerifyError('crypto/rsa: verification error');
  if (key === 'ECDSA') return new VerifyError('x509: ECDSA verification failure');
  return new VerifyError('x509: Ed25519 verification failure');
}

/** Go's `CheckSignatureFrom`: the parent must be allowed to sign certificates. */
function checkSignatureFrom(child: ParsedCertificate, parent: ParsedCertificate): VerifyError | undefined {
  if ((parent.version === 3 && !parent.basicConstraintsValid) || (parent.basicConstraintsValid && !parent.isCA))
    return constraintViolation();
  if (parent.keyUsage !== 0 && (parent.keyUsage & keyUsageCertSign) === 0) return constraintViolation();
  return checkSignature(child, parent);
}

/** Go's `time.RFC3339` of an instant in UTC, without fractional seconds. */
const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** Go's `isValid` for one certificate at its place in the chain being built. */
function isValid(
  c: ParsedCertificate,
  certType: CertType,
  currentChain: readonly ParsedCertificate[],
  now: number,
): VerifyError | undefined {
  if (c.unhandledCriticalExtensions.length) return new VerifyError('x509: unhandled critical extension');
  if (currentChain.length) {
    const child = currentChain[currentChain.length - 1]!;
    if (!equal(child.rawIssuer, c.rawSubject))
      return new VerifyError('x509: issuer name does not match subject from issuing certificate');
  }
  if (now < c.notBefore)
    return new VerifyError(
      `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is before ${rfc3339(c.notBefore)}`,
    );
  if (now > c.notAfter)
    return new VerifyError(
      `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is after ${rfc3339(c.notAfter)}`,
      true,
    );
  if (certType !== 'leaf' && c.hasNameConstraints) {
    // Name constraints are not evaluated: a constrained CA over names it would have to check fails closed.
    const named = [currentChain[0], c].some(
      (x) => x?.subjectAltName && generalNames(x.subjectAltName).some((n) => [1, 2, 6, 7].includes(n.tag)),
    );
    if (named)
      return new VerifyError(
        'x509: a root or intermediate certificate is not authorized to sign for this name: name constraints are not supported',
      );
  }
  if (certType === 'intermediate' && (!c.basicConstraintsValid || !c.isCA))
    return new VerifyError('x509: certificate is not authorized to sign other certificates');
  if (c.basicConstraintsValid && c.maxPathLen >= 0 && currentChain.length - 1 > c.maxPathLen)
    return new VerifyError('x509: too many intermediates for path length constraint');
  return undefined;
}

const equal = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0;

/** Go's `alreadyInChain`: same subject, same key, same subjectAltName. */
function alreadyInChain(candidate: ParsedCertificate, chain: readonly ParsedCertificate[]): boolean {
  for (const c of chain) {
    if (!equal(candidate.rawSubject, c.rawSubject)) continue;
    if (!candidate.publicKey || !c.publicKey || !candidate.publicKey.equals(c.publicKey)) continue;
    const a = candidate.subjectAltName;
    const b = c.subjectAltName;
    if (a === undefined && b === undefined) return true;
    if (a === undefined || b === undefined) continue;
    if (equal(a, b)) return true;
  }
  return false;
}

/**
 * Go's `CertPool.findPotentialParents`: certificates whose subject is the child's issuer, those
 * whose subject key id matches the child's authority key id first, then those where only one of
 * the two is present, then mismatches.
 */
function potentialParents(pool: readonly ParsedCertificate[], child: ParsedCertificate): ParsedCertificate[] {
  const matching: ParsedCertificate[] = [];
  const one: ParsedCertificate[] = [];
  const mismatch: ParsedCertificate[] = [];
  for (const c of pool) {
    if (!equal(c.rawSubject, child.rawIssuer)) continue;
    if (equal(c.subjectKeyId, child.authorityKeyId)) matching.push(c);
    else if ((c.subjectKeyId.length === 0) !== (child.authorityKeyId.length === 0)) one.push(c);
    else mismatch.push(c);
  }
  return [...matching, ...one, ...mismatch];
}

/** Go's `UnknownAuthorityError` text. */
function unknownAuthority(hint: { err: VerifyError; cert: ParsedCertificate } | undefined): VerifyError {
  let s = 'x509: certificate signed by unknown authority';
  if (hint) {
    const c = hint.cert;
    const name = c.commonName || c.organizations[0] || `serial:${c.serialNumber.toString()}`;
    s += ` (possibly because of ${JSON.stringify(hint.err.message)} while trying to verify candidate authority certificate ${JSON.stringify(name)})`;
  }
  return new VerifyError(s);
}

/** A CertPool: unique by DER, in the order added. */
function pool(certs: readonly ParsedCertificate[]): ParsedCertificate[] {
  const seen = new Set<string>();
  const out: ParsedCertificate[] = [];
  for (const c of certs) {
    const k = Buffer.from(c.raw).toString('base64');
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(c);
  }
  return out;
}

/** Go's `buildChains`, depth-first with a shared signature-check budget. */
function buildChains(
  c: ParsedCertificate,
  currentChain: readonly ParsedCertificate[],
  budget: { checks: number },
  o: { roots: readonly ParsedCertificate[]; intermediates: readonly ParsedCertificate[]; now: number },
): { chains: ParsedCertificate[][]; err: VerifyError | undefined } {
  let chains: ParsedCertificate[][] = [];
  let err: VerifyError | undefined;
  let hint: { err: VerifyError; cert: ParsedCertificate } | undefined;
  const consider = (certType: CertType, candidate: ParsedCertificate): void => {
    if (!candidate.publicKey || alreadyInChain(candidate, currentChain)) return;
    if (++budget.checks > maxChainSignatureChecks) {
      err = new VerifyError('x509: signature check attempts limit reached while verifying certificate chain');
      return;
    }
    const sigErr = checkSignatureFrom(c, candidate);
    if (sigErr) {
      hint ??= { err: sigErr, cert: candidate };
      return;
    }
    err = isValid(candidate, certType, currentChain, o.now);
    if (err) {
      hint ??= { err, cert: candidate };
      return;
    }
    const next = [...currentChain, candidate];
    if (certType === 'root') chains.push(next);
    else {
      const sub = buildChains(candidate, next, budget, o);
      err = sub.err;
      chains = chains.concat(sub.chains);
    }
  };
  for (const r of potentialParents(o.roots, c)) consider('root', r);
  for (const i of potentialParents(o.intermediates, c)) consider('intermediate', i);
  if (chains.length) err = undefined;
  else if (!err) err = unknownAuthority(hint);
  return { chains, err };
}

/** Go's `checkChainForKeyUsage`: every certificate that lists extended key usages must allow one requested. */
function chainAllows(chain: readonly ParsedCertificate[], keyUsages: readonly string[]): boolean {
  const remaining = new Set(keyUsages);
  for (let i = chain.length - 1; i >= 0; i--) {
    const eku = chain[i]!.extKeyUsage;
    if (eku.length === 0 || eku.includes(oidAnyExtendedKeyUsage)) continue;
    for (const u of [...remaining]) if (!eku.includes(u)) remaining.delete(u);
    if (remaining.size === 0) return false;
  }
  return true;
}

/**
 * Verifies `leaf` as Go's `Certificate.Verify`; returns the chains (leaf first, root last).
 * @throws VerifyError with Go's text when no chain is valid.
 */
export function verifyCertificate(leaf: ParsedCertificate, o: VerifyCertificateOptions): ParsedCertificate[][] {
  const roots = pool(o.roots);
  const intermediates = pool(o.intermediates);
  const leafErr = isValid(leaf, 'leaf', [], o.now);
  if (leafErr) throw leafErr;
  let chains: ParsedCertificate[][];
  if (roots.some((r) => equal(r.raw, leaf.raw))) chains = [[leaf]];
  else {
    const built = buildChains(leaf, [leaf], { checks: 0 }, { roots, intermediates, now: o.now });
    if (built.err) throw built.err;
    chains = built.chains;
  }
  if (o.keyUsages.includes(oidAnyExtendedKeyUsage)) return chains;
  const usages = o.keyUsages.length ? o.keyUsages : ['1.3.6.1.5.5.7.3.1'];
  const ok = chains.filter((ch) => chainAllows(ch, usages));
  if (!ok.length) throw new VerifyError('x509: certificate specifies an incompatible key usage');
  return ok;
}
