/**
 * A minimal DER reader: enough of ASN.1 to take X.509 certificates apart the way Go's
 * `crypto/x509` parser does (tags, lengths, OIDs, integers, times, strings). Definite lengths
 * only, low tag numbers only (what certificates use); anything else is malformed.
 */

/** One tag-length-value element: `tag` is the whole identifier octet (class, constructed bit, number). */
export interface Tlv {
  readonly tag: number;
  /** Offset of the identifier octet in the buffer. */
  readonly start: number;
  /** Offset of the first content octet. */
  readonly contentStart: number;
  /** Offset just past the element. */
  readonly end: number;
}

/** DER tags used by certificates. */
export const Tag = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  sequence: 0x30,
  set: 0x31,
  numericString: 0x12,
  printableString: 0x13,
  t61String: 0x14,
  ia5String: 0x16,
  utcTime: 0x17,
  generalizedTime: 0x18,
  bmpString: 0x1e,
} as const;

export class DerError extends Error {
  override readonly name = 'DerError';
}

/** Reads the element at `pos`, which must end by `limit`. */
export function readTlv(buf: Uint8Array, pos: number, limit: number = buf.length): Tlv {
  if (pos + 2 > limit) throw new DerError('truncated element');
  const tag = buf[pos]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('high tag numbers are not supported');
  let len = buf[pos + 1]!;
  let p = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new DerError('unsupported length');
    if (p + n > limit) throw new DerError('truncated length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p + i]!;
    if (len < 0x80 || (n > 1 && buf[p] === 0)) throw new DerError('non-minimal length');
    p += n;
  }
  if (p + len > limit) throw new DerError('truncated content');
  return { tag, start: pos, contentStart: p, end: p + len };
}

/** The content octets of an element. */
export const contentOf = (buf: Uint8Array, t: Tlv): Uint8Array => buf.subarray(t.contentStart, t.end);

/** The whole encoding of an element (identifier, length and content). */
export const rawOf = (buf: Uint8Array, t: Tlv): Uint8Array => buf.subarray(t.start, t.end);

/** The elements inside a constructed element, in order. */
export function childrenOf(buf: Uint8Array, t: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let p = t.contentStart; p < t.end;) {
    const c = readTlv(buf, p, t.end);
    out.push(c);
    p = c.end;
  }
  return out;
}

/** Reads the one element that fills `buf`. */
export function readWhole(buf: Uint8Array): Tlv {
  const t = readTlv(buf, 0);
  if (t.end !== buf.length) throw new DerError('trailing data');
  return t;
}

/** Asserts an element's tag. */
export function expectTag(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (!t || t.tag !== tag) throw new DerError(`malformed ${what}`);
  return t;
}

/** Dotted form of an OBJECT IDENTIFIER's content. */
export function oidOf(content: Uint8Array): string {
  if (content.length === 0) throw new DerError('empty OID');
  const arcs: bigint[] = [];
  let v = 0n;
  for (let i = 0; i < content.length; i++) {
    const b = content[i]!;
    if (v === 0n && b === 0x80) throw new DerError('non-minimal OID');
    v = (v << 7n) | BigInt(b & 0x7f);
    if (!(b & 0x80)) {
      arcs.push(v);
      v = 0n;
    } else if (i === content.length - 1) throw new DerError('truncated OID');
  }
  const first = arcs[0]!;
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...arcs.slice(1)].join('.');
}

/** A two's-complement INTEGER's content as a bigint. */
export function integerOf(content: Uint8Array): bigint {
  if (content.length === 0) throw new DerError('empty integer');
  let v = 0n;
  for (const b of content) v = (v << 8n) | BigInt(b);
  if (content[0]! & 0x80) v -= 1n << BigInt(content.length * 8);
  return v;
}

/** A BOOLEAN's content. */
export function booleanOf(content: Uint8Array): boolean {
  if (content.length !== 1) throw new DerError('malformed boolean');
  return content[0] !== 0;
}

/** A BIT STRING's content: its bytes and how many bits are used. */
export function bitStringOf(content: Uint8Array): { bytes: Uint8Array; bitLength: number } {
  if (content.length === 0) throw new DerError('malformed bit string');
  const unused = content[0]!;
  if (unused > 7 || (content.length === 1 && unused !== 0)) throw new DerError('malformed bit string');
  return { bytes: content.subarray(1), bitLength: (content.length - 1) * 8 - unused };
}

/**
 * A UTCTime or GeneralizedTime as milliseconds since the epoch, read as Go's cryptobyte does:
 * UTCTime `YYMMDDhhmm[ss]` (years 50–99 are 1950–1999), GeneralizedTime `YYYYMMDDhhmmss[.f]`,
 * each ending in `Z` or a non-zero `±hhmm` offset.
 */
export function timeOf(tag: number, content: Uint8Array): number {
  const s = Buffer.from(content).toString('latin1');
  const m =
    tag === Tag.utcTime
      ? /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)?(?:(Z)|([+-])(\d\d)(\d\d))$/.exec(s)
      : tag === Tag.generalizedTime
        ? /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\.\d*[1-9])?(?:(Z)|([+-])(\d\d)(\d\d))$/.exec(s)
        : null;
  if (!m) throw new DerError('malformed time');
  const g = tag === Tag.utcTime ? [...m.slice(0, 7), undefined, ...m.slice(7)] : [...m];
  let year = Number(g[1]);
  if (tag === Tag.utcTime) year += year < 50 ? 2000 : 1900;
  const [month, day, hour, minute] = [2, 3, 4, 5].map((i) => Number(g[i]));
  const second = g[6] === undefined ? 0 : Number(g[6]);
  const fracMs = g[7] ? Math.floor(Number(`0${g[7]}`) * 1000) : 0;
  if (g[8] !== 'Z' && g[10] === '00' && g[11] === '00') throw new DerError('malformed time');
  const d = new Date(0);
  d.setUTCFullYear(year, month! - 1, day);
  d.setUTCHours(hour!, minute, second, fracMs);
  if (d.getUTCMonth() !== month! - 1 || d.getUTCDate() !== day || hour! > 23 || minute! > 59 || second > 59)
    throw new DerError('malformed time');
  const offset = g[8] === 'Z' ? 0 : (g[9] === '-' ? -1 : 1) * (Number(g[10]) * 60 + Number(g[11])) * 60_000;
  return d.getTime() - offset;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A directory string as Go's `parseASN1String` reads it (PrintableString, UTF8String,
 * IA5String, NumericString, T61String, BMPString); other string types are malformed.
 */
export function stringOf(tag: number, content: Uint8Array): string {
  switch (tag) {
    case Tag.printableString:
      for (const b of content)
        if (!/[A-Za-z0-9 '()+,\-./:=?*&]/.test(String.fromCharCode(b))) throw new DerError('invalid PrintableString');
      return Buffer.from(content).toString('latin1');
    case Tag.ia5String:
      for (const b of content) if (b >= 0x80) throw new DerError('invalid IA5String');
      return Buffer.from(content).toString('latin1');
    case Tag.numericString:
      for (const b of content)
        if (!((b >= 0x30 && b <= 0x39) || b === 0x20)) throw new DerError('invalid NumericString');
      return Buffer.from(content).toString('latin1');
    case Tag.utf8String:
      try {
        return utf8.decode(content);
      } catch {
        throw new DerError('invalid UTF-8 string');
      }
    case Tag.t61String:
      return new TextDecoder('utf-8').decode(content);
    case Tag.bmpString: {
      if (content.length % 2 !== 0) throw new DerError('invalid BMPString');
      let out = '';
      for (let i = 0; i < content.length; i += 2) out += String.fromCharCode((content[i]! << 8) | content[i + 1]!);
      return out;
    }
    default:
      throw new DerError(`unsupported string type: ${tag}`);
  }
}
