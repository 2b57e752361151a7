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

/** {@link isGoPrint} of each code point, found on first sight: 0 not yet, 1 printable, 2 not. */
const printableCache = new Uint8Array(0x110000);

function printableRune(cp: number): boolean {
  let p = printableCache[cp]!;
  if (p === 0) printableCache[cp] = p = isGoPrint(String.fromCodePoint(cp)) ? 1 : 2;
  return p === 1;
}

/** Printable ASCII but `"` and `\`: what `strconv.Quote` copies as it is. */
const needsWork = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
/** Per ASCII code: 0 copied as it is, 1 escaped. */
const asciiEscaped = Uint8Array.from({ length: 0x80 }, (_, c) =>
  c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c ? 0 : 1,
);
/** Runs shorter than this are copied into the buffer, longer ones appended as slices of the input. */
const shortRun = 32;
/** Units gathered before they become a string (an escape or a short run may pass it by its length). */
const bufferUnits = 8192;

/**
 * The quoted text being written (goQuote runs to its end without calling out, so one is enough):
 * long literal runs are appended to `out` as slices of the input (V8 joins them without copying
 * until the end); escapes and short runs are gathered as UTF-16 units in `units`, which become a
 * one-byte string when they are all Latin-1 (a quoted ASCII value stays one byte a character:
 * half the copying and a fast UTF-8 encoding later, where a UTF-16 decoding would make every text
 * it joins two bytes wide).
 */
const units = new Uint16Array(bufferUnits + shortRun + 16);
const latin1 = Buffer.allocUnsafeSlow(units.length);
let length = 0;
let out = '';

function flush(): void {
  if (length === 0) return;
  let wide = 0;
  for (let k = 0; k < length; k++) wide |= units[k]!;
  if (wide < 0x100) {
    for (let k = 0; k < length; k++) latin1[k] = units[k]!;
    out += latin1.toString('latin1', 0, length);
  } else {
    out += Buffer.from(units.buffer, units.byteOffset, length * 2).toString('utf16le');
  }
  length = 0;
}

/** Appends `s[from, to)`: into the buffer when short, else as a slice. */
function copy(s: string, from: number, to: number): void {
  if (to - from < shortRun) {
    if (length > bufferUnits) flush();
    for (let k = from; k < to; k++) units[length++] = s.charCodeAt(k);
    return;
  }
  flush();
  out += s.slice(from, to);
}

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

const hex = (cp: number, width: number): string => cp.toString(16).padStart(width, '0');

/**
 * Go's `strconv.Quote` (what `%q` prints): printable runes stay literal, the rest are escaped
 * (`\a` … `\\`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`). A lone surrogate prints as U+FFFD, the rune Go's
 * JSON decoder makes of it. Text of printable ASCII alone is found by one regular-expression scan
 * and copied whole; otherwise literal runs are kept as slices and escapes gathered in a buffer
 * (each rune's printability is looked up once per process): a 3 MB value costs a few
 * milliseconds, tens when it is dense with escapes.
 */
export function goQuote(s: string): string {
  if (!needsWork.test(s)) return `"${s}"`;
  const n = s.length;
  out = '';
  length = 0;
  units[length++] = 0x22;
  let run = 0;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (asciiEscaped[c] === 0) {
        i++;
        continue;
      }
      if (i > run) copy(s, run, i);
      const t = asciiQuoted[c]!;
      if (length > bufferUnits) flush();
      for (let k = 0; k < t.length; k++) units[length++] = t.charCodeAt(k);
      run = ++i;
      continue;
    }
    let escape: string | undefined;
    let width = 1;
    if (!isSurrogate(c)) {
      if (printableRune(c)) {
        i++;
        continue;
      }
      escape = `\\u${hex(c, 4)}`;
    } else {
      const low = s.charCodeAt(i + 1);
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        if (printableRune(cp)) {
          i += 2;
          continue;
        }
        escape = `\\U${hex(cp, 8)}`;
        width = 2;
      } else {
        escape = '\uFFFD';
      }
    }
    if (i > run) copy(s, run, i);
    copy(escape, 0, escape.length);
    run = i += width;
  }
  if (n > run) copy(s, run, n);
  if (length > bufferUnits) flush();
  units[length++] = 0x22;
  flush();
  const quoted = out;
  out = '';
  return quoted;
}

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
export const goQuoteList = (xs: readonly string[]): string => `[${xs.map(goQuote).join(' ')}]`;
