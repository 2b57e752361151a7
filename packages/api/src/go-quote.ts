const goEscapes: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `unicode.IsPrint` for one code point: letters, marks, numbers, punctuation, symbols and ASCII space. */
export function isGoPrint(ch: string): boolean {
  return printable.test(ch);
}

/** What `strconv.Quote` writes for each ASCII character. */
const asciiQuoted: readonly string[] = Array.from(
  { length: 0x80 },
  (_, c) =>
    goEscapes[String.fromCharCode(c)] ??
    (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`),
);

/** {@link isGoPrint} of each BMP code unit, found on first sight: 0 not yet, 1 printable, 2 not. */
const bmpPrintable = new Uint8Array(0x10000);

function printableUnit(c: number): boolean {
  let p = bmpPrintable[c]!;
  if (p === 0) bmpPrintable[c] = p = isGoPrint(String.fromCharCode(c)) ? 1 : 2;
  return p === 1;
}

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

/** UTF-16 code units written into a buffer that grows as needed (one string made at the end). */
class Units {
  buf: Uint16Array;
  length = 0;

  constructor(capacity: number) {
    this.buf = new Uint16Array(Math.max(16, capacity));
  }

  reserve(more: number): void {
    if (this.length + more <= this.buf.length) return;
    const next = new Uint16Array(Math.max(this.buf.length * 2, this.length + more));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /** Appends `s` (short, or a slice of the input). */
  text(s: string, from = 0, to = s.length): void {
    this.reserve(to - from);
    for (let k = from; k < to; k++) this.buf[this.length++] = s.charCodeAt(k);
  }

  toString(): string {
    return Buffer.from(this.buf.buffer, this.buf.byteOffset, this.length * 2).toString('utf16le');
  }
}

/**
 * Go's `strconv.Quote` (what `%q` prints): printable runes stay literal, the rest are escaped
 * (`\a` … `\\`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`). A lone surrogate prints as U+FFFD, the rune Go's
 * JSON decoder makes of it. Written into one buffer of UTF-16 units, each BMP rune classified once
 * per process: a 3 MB value costs tens of milliseconds whatever it holds.
 */
export function goQuote(s: string): string {
  const n = s.length;
  const out = new Units(n + 2);
  out.text('"');
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      let j = i;
      for (let d = c; j < n && d >= 0x20 && d <= 0x7e && d !== 0x22 && d !== 0x5c; d = s.charCodeAt(++j));
      if (j > i) out.text(s, i, j);
      else out.text(asciiQuoted[c]!, 0, asciiQuoted[c]!.length);
      i = Math.max(j, i + 1);
      continue;
    }
    if (!isSurrogate(c)) {
      if (printableUnit(c)) out.text(s, i, i + 1);
      else out.text(`\\u${c.toString(16).padStart(4, '0')}`);
      i++;
      continue;
    }
    const low = s.charCodeAt(i + 1);
    if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      const ch = s.slice(i, i + 2);
      out.text(isGoPrint(ch) ? ch : `\\U${ch.codePointAt(0)!.toString(16).padStart(8, '0')}`);
      i += 2;
      continue;
    }
    out.text('\uFFFD');
    i++;
  }
  out.text('"');
  return out.toString();
}

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
export const goQuoteList = (xs: readonly string[]): string => `[${xs.map(goQuote).join(' ')}]`;
