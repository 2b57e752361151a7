import { X509Certificate } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import {
  DerError,
  Tag,
  bitStringOf,
  booleanOf,
  childrenOf,
  contentOf,
  expectTag,
  integerOf,
  oidOf,
  rawOf,
  readWhole,
  stringOf,
  timeOf,
} from './der.js';

/** Go's `x509.KeyUsageCertSign` (bit 5 of the keyUsage BIT STRING). */
export const keyUsageCertSign = 1 << 5;

export const oidClientAuth = '1.3.6.1.5.5.7.3.2';
export const oidAnyExtendedKeyUsage = '2.5.29.37.0';

/** The public key algorithms of Go's `x509.PublicKeyAlgorithm` that can verify signatures. */
export type PublicKeyAlgorithm = 'RSA' | 'ECDSA' | 'Ed25519' | 'DSA' | 'X25519' | 'Unknown';

/** One extension as found in the certificate. */
export interface Extension {
  readonly id: string;
  readonly critical: boolean;
  readonly value: Uint8Array;
}

/** One `GeneralName` of a subjectAltName (tag number and content). */
export interface GeneralName {
  readonly tag: number;
  readonly value: Uint8Array;
}

/**
 * A client or CA certificate with the fields Go's `x509.Certificate` has and chain verification
 * reads, parsed from DER (names from the RDN sequence, not from a printed subject).
 */
export interface ParsedCertificate {
  readonly raw: Uint8Array;
  readonly x509: X509Certificate;
  readonly version: number;
  readonly serialNumber: bigint;
  readonly rawIssuer: Uint8Array;
  readonly rawSubject: Uint8Array;
  /** Go's `Subject.CommonName`: the last CN attribute. */
  readonly commonName: string;
  /** Go's `Subject.Organization`: every O attribute, in order. */
  readonly organizations: readonly string[];
  readonly notBefore: number;
  readonly notAfter: number;
  readonly signatureAlgorithm: string;
  /** The PSS hash when the algorithm is RSASSA-PSS with parameters Go accepts. */
  readonly pssHash: string | undefined;
  readonly publicKey: KeyObject | undefined;
  readonly publicKeyAlgorithm: PublicKeyAlgorithm;
  readonly extensions: readonly Extension[];
  readonly basicConstraintsValid: boolean;
  readonly isCA: boolean;
  /** -1 when the basic constraints carry no pathLenConstraint. */
  readonly maxPathLen: number;
  /** Go's `KeyUsage` bits (0: no keyUsage extension, or none set). */
  readonly keyUsage: number;
  /** Every extendedKeyUsage OID, in order (empty: no extension). */
  readonly extKeyUsage: readonly string[];
  readonly subjectKeyId: Uint8Array;
  readonly authorityKeyId: Uint8Array;
  /** The subjectAltName extension's value, when there is one. */
  readonly subjectAltName: Uint8Array | undefined;
  /** The name constraints of the supported kinds (DNS, email, IP, URI): any at all. */
  readonly hasNameConstraints: boolean;
  /** Critical extensions Go's parser does not handle (`UnhandledCriticalExtensions`). */
  readonly unhandledCriticalExtensions: readonly string[];
}

const supportedNameTags = new Set([1, 2, 6, 7]); // rfc822Name, dNSName, URI, iPAddress

/** The `GeneralName`s of a SEQUENCE (subjectAltName, a name-constraints subtree). */
export function generalNames(value: Uint8Array): GeneralName[] {
  const seq = expectTag(readWhole(value), Tag.sequence, 'general names');
  return childrenOf(value, seq).map((n) => ({ tag: n.tag & 0x1f, value: contentOf(value, n) }));
}

/** Whether a nameConstraints extension holds supported and unsupported subtree kinds. */
function nameConstraintKinds(value: Uint8Array): { supported: boolean; unsupported: boolean } {
  const out = { supported: false, unsupported: false };
  const seq = expectTag(readWhole(value), Tag.sequence, 'name constraints');
  for (const subtrees of childrenOf(value, seq)) {
    if (subtrees.tag !== 0xa0 && subtrees.tag !== 0xa1) throw new DerError('malformed name constraints');
    for (const subtree of childrenOf(value, subtrees)) {
      const base = childrenOf(value, expectTag(subtree, Tag.sequence, 'name constraint'))[0];
      if (!base) throw new DerError('malformed name constraint');
      if (supportedNameTags.has(base.tag & 0x1f)) out.supported = true;
      else out.unsupported = true;
    }
  }
  return out;
}

const rsaPssHashes: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'SHA256',
  '2.16.840.1.101.3.4.2.2': 'SHA384',
  '2.16.840.1.101.3.4.2.3': 'SHA512',
};

/** The hash of RSASSA-PSS parameters, when they are the ones Go accepts (MGF1 with the same hash). */
function pssHashOf(buf: Uint8Array, params: ReturnType<typeof childrenOf>[number] | undefined): string | undefined {
  if (!params || params.tag !== Tag.sequence) return undefined;
  try {
    let hash: string | undefined;
    let mgfHash: string | undefined;
    for (const p of childrenOf(buf, params)) {
      const inner = childrenOf(buf, p)[0];
      if (p.tag === 0xa0 && inner) {
        const alg = childrenOf(buf, inner)[0];
        if (alg) hash = rsaPssHashes[oidOf(contentOf(buf, alg))];
      } else if (p.tag === 0xa1 && inner) {
        const [mgf, mgfParams] = childrenOf(buf, inner);
        if (!mgf || oidOf(contentOf(buf, mgf)) !== '1.2.840.113549.1.1.8' || !mgfParams) return undefined;
        const h = childrenOf(buf, mgfParams)[0];
        if (h) mgfHash = rsaPssHashes[oidOf(contentOf(buf, h))];
      }
    }
    return hash && hash === mgfHash ? hash : undefined;
  } catch {
    return undefined;
  }
}

function publicKeyAlgorithmOf(key: KeyObject): PublicKeyAlgorithm {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'RSA';
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      return curve && ['prime256v1', 'secp384r1', 'secp521r1', 'secp224r1'].includes(curve) ? 'ECDSA' : 'Unknown';
    }
    case 'ed25519':
      return 'Ed25519';
    case 'dsa':
      return 'DSA';
    case 'x25519':
      return 'X25519';
    default:
      return 'Unknown';
  }
}

/**
 * Parses a DER certificate. @throws Error (`x509: malformed certificate: ...`) when it is not
 * one Go's parser would read.
 */
export function parseCertificate(der: Uint8Array): ParsedCertificate {
  try {
    return parse(Uint8Array.from(der));
  } catch (e) {
    throw new Error(`x509: malformed certificate: ${(e as Error).message}`, { cause: e });
  }
}

function parse(raw: Uint8Array): ParsedCertificate {
  const x509 = new X509Certificate(raw);
  const cert = expectTag(readWhole(raw), Tag.sequence, 'certificate');
  const [tbs, outerSigAlg, sigValue] = childrenOf(raw, cert);
  expectTag(tbs, Tag.sequence, 'tbs certificate');
  expectTag(outerSigAlg, Tag.sequence, 'signature algorithm');
  expectTag(sigValue, Tag.bitString, 'signature');
  const fields = childrenOf(raw, tbs!);
  let i = 0;
  let version = 1;
  if (fields[0]?.tag === 0xa0) {
    const v = expectTag(childrenOf(raw, fields[0])[0], Tag.integer, 'version');
    version = Number(integerOf(contentOf(raw, v))) + 1;
    if (version < 1 || version > 3) throw new DerError('invalid version');
    i++;
  }
  const serialNumber = integerOf(contentOf(raw, expectTag(fields[i++], Tag.integer, 'serial number')));
  const innerSigAlg = expectTag(fields[i++], Tag.sequence, 'signature algorithm');
  if (Buffer.compare(rawOf(raw, innerSigAlg), rawOf(raw, outerSigAlg!)) !== 0)
    throw new DerError("inner and outer signature algorithm identifiers don't match");
  const issuer = expectTag(fields[i++], Tag.sequence, 'issuer');
  const validity = expectTag(fields[i++], Tag.sequence, 'validity');
  const subject = expectTag(fields[i++], Tag.sequence, 'subject');
  expectTag(fields[i++], Tag.sequence, 'public key');
  const [nb, na] = childrenOf(raw, validity);
  if (!nb || !na) throw new DerError('malformed validity');
  const notBefore = timeOf(nb.tag, contentOf(raw, nb));
  const notAfter = timeOf(na.tag, contentOf(raw, na));

  let commonName = '';
  const organizations: string[] = [];
  for (const rdn of childrenOf(raw, subject)) {
    expectTag(rdn, Tag.set, 'RDN');
    for (const atv of childrenOf(raw, rdn)) {
      const [type, value] = childrenOf(raw, expectTag(atv, Tag.sequence, 'attribute'));
      const oid = oidOf(contentOf(raw, expectTag(type, Tag.oid, 'attribute type')));
      if (!value) throw new DerError('malformed attribute');
      const s = stringOf(value.tag, contentOf(raw, value));
      if (oid === '2.5.4.3') commonName = s;
      else if (oid === '2.5.4.10') organizations.push(s);
    }
  }
  for (const rdn of childrenOf(raw, issuer)) {
    for (const atv of childrenOf(raw, expectTag(rdn, Tag.set, 'RDN'))) {
      const value = childrenOf(raw, expectTag(atv, Tag.sequence, 'attribute'))[1];
      if (!value) throw new DerError('malformed attribute');
      stringOf(value.tag, contentOf(raw, value));
    }
  }

  const sigAlgParts = childrenOf(raw, outerSigAlg!);
  const signatureAlgorithm = oidOf(contentOf(raw, expectTag(sigAlgParts[0], Tag.oid, 'signature algorithm')));
  const pssHash = signatureAlgorithm === '1.2.840.113549.1.1.10' ? pssHashOf(raw, sigAlgParts[1]) : undefined;

  const extensions: Extension[] = [];
  for (; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.tag === 0x81 || f.tag === 0x82 || f.tag === 0xa1 || f.tag === 0xa2) continue; // unique IDs
    if (f.tag !== 0xa3) throw new DerError('unexpected field');
    const list = expectTag(childrenOf(raw, f)[0], Tag.sequence, 'extensions');
    for (const e of childrenOf(raw, list)) {
      const parts = childrenOf(raw, expectTag(e, Tag.sequence, 'extension'));
      const id = oidOf(contentOf(raw, expectTag(parts[0], Tag.oid, 'extension id')));
      let critical = false;
      let k = 1;
      if (parts[1]?.tag === Tag.boolean) {
        critical = booleanOf(contentOf(raw, parts[1]));
        k = 2;
      }
      const value = contentOf(raw, expectTag(parts[k], Tag.octetString, 'extension value'));
      if (extensions.some((x) => x.id === id)) throw new DerError(`duplicate extension ${id}`);
      extensions.push({ id, critical, value });
    }
  }

  let basicConstraintsValid = false;
  let isCA = false;
  let maxPathLen = -1;
  let keyUsage = 0;
  const extKeyUsage: string[] = [];
  let subjectKeyId: Uint8Array = new Uint8Array();
  let authorityKeyId: Uint8Array = new Uint8Array();
  let subjectAltName: Uint8Array | undefined;
  let hasNameConstraints = false;
  const unhandled: string[] = [];
  for (const e of extensions) {
    let handled = true;
    const v = e.value;
    switch (e.id) {
      case '2.5.29.19': {
        basicConstraintsValid = true;
        const seq = expectTag(readWhole(v), Tag.sequence, 'basic constraints');
        for (const c of childrenOf(v, seq)) {
          if (c.tag === Tag.boolean) isCA = booleanOf(contentOf(v, c));
          else if (c.tag === Tag.integer) maxPathLen = Number(integerOf(contentOf(v, c)));
          else throw new DerError('malformed basic constraints');
        }
        break;
      }
      case '2.5.29.15': {
        const { bytes, bitLength } = bitStringOf(contentOf(v, expectTag(readWhole(v), Tag.bitString, 'key usage')));
        for (let b = 0; b < 9 && b < bitLength; b++) if ((bytes[b >> 3]! >> (7 - (b & 7))) & 1) keyUsage |= 1 << b;
        break;
      }
      case '2.5.29.37': {
        const seq = expectTag(readWhole(v), Tag.sequence, 'extended key usage');
        for (const o of childrenOf(v, seq)) extKeyUsage.push(oidOf(contentOf(v, expectTag(o, Tag.oid, 'key purpose'))));
        break;
      }
      case '2.5.29.14':
        subjectKeyId = contentOf(v, expectTag(readWhole(v), Tag.octetString, 'subject key id'));
        break;
      case '2.5.29.35': {
        const seq = expectTag(readWhole(v), Tag.sequence, 'authority key id');
        for (const c of childrenOf(v, seq)) if (c.tag === 0x80) authorityKeyId = contentOf(v, c);
        break;
      }
      case '2.5.29.17': {
        subjectAltName = v;
        handled = generalNames(v).some((n) => supportedNameTags.has(n.tag));
        break;
      }
      case '2.5.29.30': {
        const kinds = nameConstraintKinds(v);
        hasNameConstraints = kinds.supported;
        handled = !kinds.unsupported;
        break;
      }
      case '2.5.29.31': // CRL distribution points
      case '2.5.29.32': // certificate policies
      case '2.5.29.33': // policy mappings
      case '2.5.29.36': // policy constraints
      case '2.5.29.54': // inhibit anyPolicy
        break;
      case '1.3.6.1.5.5.7.1.1':
        if (e.critical) throw new DerError('authority info access incorrectly marked critical');
        break;
      default:
        handled = false;
    }
    if (e.critical && !handled) unhandled.push(e.id);
  }

  let publicKey: KeyObject | undefined;
  let publicKeyAlgorithm: PublicKeyAlgorithm = 'Unknown';
  try {
    publicKey = x509.publicKey;
    publicKeyAlgorithm = publicKeyAlgorithmOf(publicKey);
  } catch {
    publicKey = undefined;
  }
  if (publicKeyAlgorithm === 'Unknown') publicKey = undefined;

  return {
    raw,
    x509,
    version,
    serialNumber,
    rawIssuer: rawOf(raw, issuer),
    rawSubject: rawOf(raw, subject),
    commonName,
    organizations,
    notBefore,
    notAfter,
    signatureAlgorithm,
    pssHash,
    publicKey,
    publicKeyAlgorithm,
    extensions,
    basicConstraintsValid,
    isCA,
    maxPathLen,
    keyUsage,
    extKeyUsage,
    subjectKeyId,
    authorityKeyId,
    subjectAltName,
    hasNameConstraints,
    unhandledCriticalExtensions: unhandled,
  };
}
