/**
 * Strings from protobuf bytes as Go's JSON writes them: valid UTF-8 as is, each byte that does not
 * start a valid sequence (`utf8.DecodeRuneInString` returning `RuneError, 1`) as one U+FFFD. The
 * WHATWG decoder replaces maximal subparts instead, so it is used only for valid input.
 */

/** Whether this host stores a Uint16Array's units high byte first. */
const bigEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 0;
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The string of `data[start:end]` as Go's JSON encoder would write it. */
export function goString(data: Uint8Array, start: number, end: number): string {
  if (end - start <= 32) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (data[i]! > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, data.subarray(start, end) as unknown as number[]);
  }
  try {
    return strict.decode(data.subarray(start, end));
  } catch {
    return goReplace(data, start, end);
  }
}

/**
 * Decodes with Go's per-byte replacement of invalid sequences, into UTF-16 code units (no more
 * than one per byte) read back as one string: linear in the bytes, whatever their mix (3 MiB of
 * invalid bytes, 700 ms when each U+FFFD was appended to a string, is 20-40 ms).
 */
function goReplace(data: Uint8Array, start: number, end: number): string {
  const out = new Uint16Array(end - start);
  let n = 0;
  let i = start;
  while (i < end) {
    const b0 = data[i]!;
    if (b0 < 0x80) {
      out[n++] = b0;
      i++;
      continue;
    }
    // U+FFFD unless a valid sequence starts here
    let cp = 0xfffd;
    let size = 1;
    if (b0 >= 0xc2 && b0 < 0xf5 && i + 1 < end) {
      const b1 = data[i + 1]!;
      if (b0 < 0xe0) {
        if (b1 >= 0x80 && b1 <= 0xbf) {
          size = 2;
          cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
        }
      } else if (i + 2 < end) {
        const lo = b0 === 0xe0 ? 0xa0 : b0 === 0xf0 ? 0x90 : 0x80;
        const hi = b0 === 0xed ? 0x9f : b0 === 0xf4 ? 0x8f : 0xbf;
        const b2 = data[i + 2]!;
        if (b1 >= lo && b1 <= hi && b2 >= 0x80 && b2 <= 0xbf) {
          if (b0 < 0xf0) {
            size = 3;
            cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
          } else if (i + 3 < end) {
            const b3 = data[i + 3]!;
            if (b3 >= 0x80 && b3 <= 0xbf) {
              size = 4;
              cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
            }
          }
        }
      }
    }
    i += size;
    if (cp >= 0x10000) {
      // a surrogate pair: two units for four bytes
      out[n++] = 0xd800 + ((cp - 0x10000) >> 10);
      out[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
    } else out[n++] = cp;
  }
  const bytes = Buffer.from(out.buffer, 0, 2 * n);
  if (bigEndian) bytes.swap16();
  return bytes.toString('utf16le');
}
