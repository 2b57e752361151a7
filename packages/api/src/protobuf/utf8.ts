/**
 * Strings from protobuf bytes as Go's JSON writes them: valid UTF-8 as is, each byte that does not
 * start a valid sequence (`utf8.DecodeRuneInString` returning `RuneError, 1`) as one U+FFFD. The
 * WHATWG decoder replaces maximal subparts instead, so it is used only for valid input.
 */

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

const cont = (b: number | undefined): boolean => b !== undefined && b >= 0x80 && b <= 0xbf;

/** Decodes with Go's per-byte replacement of invalid sequences. */
function goReplace(data: Uint8Array, start: number, end: number): string {
  let out = '';
  let i = start;
  const at = (k: number): number | undefined => (k < end ? data[k] : undefined);
  while (i < end) {
    const b0 = data[i]!;
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      i++;
      continue;
    }
    const b1 = at(i + 1);
    let size = 0;
    let cp = 0;
    if (b0 >= 0xc2 && b0 < 0xe0) {
      if (cont(b1)) {
        size = 2;
        cp = ((b0 & 0x1f) << 6) | (b1! & 0x3f);
      }
    } else if (b0 >= 0xe0 && b0 < 0xf0) {
      const lo = b0 === 0xe0 ? 0xa0 : 0x80;
      const hi = b0 === 0xed ? 0x9f : 0xbf;
      const b2 = at(i + 2);
      if (b1 !== undefined && b1 >= lo && b1 <= hi && cont(b2)) {
        size = 3;
        cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2! & 0x3f);
      }
    } else if (b0 >= 0xf0 && b0 < 0xf5) {
      const lo = b0 === 0xf0 ? 0x90 : 0x80;
      const hi = b0 === 0xf4 ? 0x8f : 0xbf;
      const b2 = at(i + 2);
      const b3 = at(i + 3);
      if (b1 !== undefined && b1 >= lo && b1 <= hi && cont(b2) && cont(b3)) {
        size = 4;
        cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2! & 0x3f) << 6) | (b3! & 0x3f);
      }
    }
    if (size === 0) {
      out += '\ufffd';
      i++;
    } else {
      out += String.fromCodePoint(cp);
      i += size;
    }
  }
  return out;
}
