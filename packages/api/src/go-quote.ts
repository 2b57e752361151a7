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

/**
 * Go's `strconv.Quote` (what `%q` prints): printable runes stay literal, the rest are escaped
 * (`\a` … `\\`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`). A lone surrogate prints as U+FFFD, the rune Go's
 * JSON decoder makes of it.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const esc = goEscapes[ch];
    if (esc !== undefined) {
      out += esc;
      continue;
    }
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) out += '\uFFFD';
    else if (isGoPrint(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
export const goQuoteList = (xs: readonly string[]): string => `[${xs.map(goQuote).join(' ')}]`;
