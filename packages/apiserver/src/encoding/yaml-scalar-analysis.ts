/**
 * What libyaml's emitter (as ported in goyaml v2, `yaml_emitter_analyze_scalar`) finds out about
 * a scalar before choosing how to write it: which styles it allows and whether it spans lines.
 */
export interface ScalarAnalysis {
  /** Holds a line break (LF, CR, NEL, LS or PS). */
  multiline: boolean;
  /** Can be written plain outside flow collections. */
  blockPlain: boolean;
  /** Can be written in single quotes. */
  singleQuoted: boolean;
  /** Can be written as a literal block (`|`). */
  block: boolean;
}

const empty: ScalarAnalysis = { multiline: false, blockPlain: true, singleQuoted: true, block: false };

/** libyaml's `is_printable` on a code point (with goyaml's `unicode` set, non-ASCII included). */
export function isPrintable(c: number): boolean {
  return (
    c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}

/** libyaml's `is_break`: CR, LF, NEL, LS, PS. */
export function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** A code point of `s` at UTF-16 index `i` (a lone surrogate stands for itself). */
export function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

const plainOnly: ScalarAnalysis = { multiline: false, blockPlain: true, singleQuoted: true, block: true };

/** Indicators at a scalar's start ('-' only before a space, but left to the full analysis). */
const startIndicators = new Set('#,[]{}&*!|>\'"%@`?:-'.split('').map((c) => c.charCodeAt(0)));

/**
 * Printable ASCII without spaces, no indicator first and no ':' last (followed by the end): what
 * most strings are, and all that such a string allows is known without the full analysis.
 */
function quiet(s: string): boolean {
  const n = s.length;
  const first = s.charCodeAt(0);
  if (first < 0x21 || first > 0x7e || startIndicators.has(first) || s.charCodeAt(n - 1) === 0x3a) return false;
  for (let i = 1; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

/** libyaml's `yaml_emitter_analyze_scalar`, for an emitter outside flow collections. */
export function analyzeScalar(s: string): ScalarAnalysis {
  const n = s.length;
  if (n === 0) return empty;
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  if (s.startsWith('---') || s.startsWith('...')) blockIndicators = true;
  else if (quiet(s)) return plainOnly;

  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  for (let i = 0; i < n;) {
    const c = codePointAt(s, i);
    const w = c > 0xffff ? 2 : 1;
    const next = s.charCodeAt(i + w);
    const followedByWhitespace = i + w >= n || next === 32 || next === 9;
    const last = i + w === n;
    if (i === 0) {
      switch (c) {
        case 0x23: // #
        case 0x2c: // ,
        case 0x5b: // [
        case 0x5d: // ]
        case 0x7b: // {
        case 0x7d: // }
        case 0x26: // &
        case 0x2a: // *
        case 0x21: // !
        case 0x7c: // |
        case 0x3e: // >
        case 0x27: // '
        case 0x22: // "
        case 0x25: // %
        case 0x40: // @
        case 0x60: // `
          blockIndicators = true;
          break;
        case 0x3f: // ?
        case 0x3a: // :
          if (followedByWhitespace) blockIndicators = true;
          break;
        case 0x2d: // -
          if (followedByWhitespace) blockIndicators = true;
          break;
      }
    } else if ((c === 0x3a && followedByWhitespace) || (c === 0x23 && precededByWhitespace)) {
      blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (c === 32) {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === 32 || c === 9 || c === 0 || isBreak(c);
    i += w;
  }

  let blockPlain = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak);
  let singleQuoted = true;
  let block = !trailingSpace;
  if (breakSpace) blockPlain = singleQuoted = false;
  if (spaceBreak || special) blockPlain = singleQuoted = block = false;
  if (lineBreaks || blockIndicators) blockPlain = false;
  return { multiline: lineBreaks, blockPlain, singleQuoted, block };
}
