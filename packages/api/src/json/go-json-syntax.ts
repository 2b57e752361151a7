/** Go's `encoding/json` nesting bound (`maxNestingDepth` in its scanner). */
const goMaxNestingDepth = 10_000;

/**
 * Go's `quoteChar`: a byte as its scanner errors print it (`'x'`, `'\''`, `'"'`, `'\n'`,
 * `'\x00'`); a byte of a multi-byte UTF-8 sequence prints as the Latin-1 rune of that value.
 */
function quoteChar(byte: number): string {
  if (byte === 0x27) return "'\\''";
  if (byte === 0x22) return `'"'`;
  const escapes: Readonly<Record<number, string>> = {
    0x07: '\\a',
    0x08: '\\b',
    0x0c: '\\f',
    0x0a: '\\n',
    0x0d: '\\r',
    0x09: '\\t',
    0x0b: '\\v',
    0x5c: '\\\\',
  };
  const esc = escapes[byte];
  if (esc !== undefined) return `'${esc}'`;
  if (byte < 0x20 || byte === 0x7f) return `'\\x${byte.toString(16).padStart(2, '0')}'`;
  if (byte >= 0x80 && byte < 0xa0) return `'\\u${byte.toString(16).padStart(4, '0')}'`;
  // U+00A0 (no-break space) and U+00AD (soft hyphen) are not printable in Go.
  if (byte === 0xa0 || byte === 0xad) return `'\\u00${byte.toString(16)}'`;
  return `'${String.fromCharCode(byte)}'`;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/**
 * The error Go's `encoding/json` gives for a text that is not valid JSON (its `checkValid`
 * scanner): `unexpected end of JSON input`, or `invalid character 'x' looking for beginning of
 * value` and the scanner's other contexts, or `invalid character '{' exceeded max depth` past
 * 10,000 levels; undefined for valid JSON. Byte by byte over the UTF-8 text (or the raw bytes, which
 * may hold invalid UTF-8), iteratively.
 */
export function goJsonSyntaxError(text: string | Uint8Array): string | undefined {
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const n = data.length;
  /** Open containers: true for an object. */
  const stack: boolean[] = [];
  /** Within an object: whether the next value is a key's value (after `:`). */
  const afterColon: boolean[] = [];
  const bad = (c: number, context: string): string => `invalid character ${quoteChar(c)} ${context}`;
  // At the end Go's scanner reads one more space: a token cut short fails on it.
  const atEnd = (context: string): string => bad(0x20, context);
  let i = 0;
  const skipSpace = (): void => {
    while (i < n && isSpace(data[i]!)) i++;
  };
  // Each loop reads one value, then what follows it up to the next value.
  for (;;) {
    skipSpace();
    if (i >= n) return 'unexpected end of JSON input';
    let c = data[i]!;
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= goMaxNestingDepth) return bad(c, 'exceeded max depth');
      const object = c === 0x7b;
      stack.push(object);
      afterColon.push(false);
      i++;
      skipSpace();
      if (i >= n) return 'unexpected end of JSON input';
      c = data[i]!;
      if (c === (object ? 0x7d : 0x5d)) {
        stack.pop();
        afterColon.pop();
        i++;
      } else if (object) {
        if (c !== 0x22) return bad(c, 'looking for beginning of object key string');
        continue;
      } else {
        continue;
      }
    } else if (c === 0x22) {
      i++;
      for (;;) {
        if (i >= n) return 'unexpected end of JSON input';
        const d = data[i]!;
        if (d === 0x22) {
          i++;
          break;
        }
        if (d === 0x5c) {
          i++;
          if (i >= n) return atEnd('in string escape code');
          const e = data[i]!;
          if (e === 0x75) {
            for (let k = 0; k < 4; k++) {
              i++;
              if (i >= n) return atEnd('in \\u hexadecimal character escape');
              if (!isHex(data[i]!)) return bad(data[i]!, 'in \\u hexadecimal character escape');
            }
          } else if (!'bfnrt\\/"'.includes(String.fromCharCode(e))) {
            return bad(e, 'in string escape code');
          }
          i++;
          continue;
        }
        if (d < 0x20) return bad(d, 'in string literal');
        i++;
      }
    } else if (c === 0x2d || isDigit(c)) {
      if (c === 0x2d) {
        i++;
        if (i >= n) return atEnd('in numeric literal');
        if (!isDigit(data[i]!)) return bad(data[i]!, 'in numeric literal');
      }
      if (data[i] === 0x30) i++;
      else while (i < n && isDigit(data[i]!)) i++;
      if (i < n && data[i] === 0x2e) {
        i++;
        if (i >= n) return atEnd('after decimal point in numeric literal');
        if (!isDigit(data[i]!)) return bad(data[i]!, 'after decimal point in numeric literal');
        while (i < n && isDigit(data[i]!)) i++;
      }
      if (i < n && (data[i] === 0x65 || data[i] === 0x45)) {
        i++;
        if (i < n && (data[i] === 0x2b || data[i] === 0x2d)) i++;
        if (i >= n) return atEnd('in exponent of numeric literal');
        if (!isDigit(data[i]!)) return bad(data[i]!, 'in exponent of numeric literal');
        while (i < n && isDigit(data[i]!)) i++;
      }
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      for (let k = 1; k < word.length; k++) {
        i++;
        if (i >= n) return atEnd(`in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`);
        if (data[i] !== word.charCodeAt(k)) {
          return bad(data[i]!, `in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`);
        }
      }
      i++;
    } else {
      return bad(c, 'looking for beginning of value');
    }
    // After a value: close containers, or find the separator before the next value.
    for (;;) {
      skipSpace();
      const top = stack.length - 1;
      if (top < 0) {
        if (i < n) return bad(data[i]!, 'after top-level value');
        return undefined;
      }
      if (i >= n) return 'unexpected end of JSON input';
      c = data[i]!;
      if (stack[top]) {
        if (!afterColon[top]) {
          if (c !== 0x3a) return bad(c, 'after object key');
          afterColon[top] = true;
          i++;
          break;
        }
        if (c === 0x2c) {
          afterColon[top] = false;
          i++;
          skipSpace();
          if (i >= n) return 'unexpected end of JSON input';
          if (data[i] !== 0x22) return bad(data[i]!, 'looking for beginning of object key string');
          break;
        }
        if (c !== 0x7d) return bad(c, 'after object key:value pair');
      } else {
        if (c === 0x2c) {
          i++;
          break;
        }
        if (c !== 0x5d) return bad(c, 'after array element');
      }
      stack.pop();
      afterColon.pop();
      i++;
    }
  }
}
