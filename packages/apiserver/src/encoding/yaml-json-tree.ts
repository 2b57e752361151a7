import { jsonShortEscapes } from '@kevents/api';
import { compareGoyamlKeys } from './yaml-key-order.js';

/**
 * A JSON value as goyaml v2 reads it from a JSON text (sigs.k8s.io/yaml's `JSONToYAML` unmarshals
 * JSON with goyaml into `interface{}`): strings, `true`/`false`/`null`, numbers as the plain text
 * goyaml's encoder writes for them, arrays, and objects as their entries in goyaml's key order.
 */
export type JsonTree = string | boolean | null | number | NumberText | JsonTree[] | JsonObject;

/** A number that goyaml writes other than JavaScript's `String(n)` would: its text. */
export class NumberText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** An object's entries, keys in goyaml's order (`keyList.Less`), a repeated key's last value kept. */
export class JsonObject {
  readonly entries: [string, JsonTree][];
  constructor(entries: [string, JsonTree][]) {
    this.entries = entries;
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const NEL = 0x85;
const LS = 0x2028;
const PS = 0x2029;

/**
 * Reads a JSON text into a {@link JsonTree}; throws a SyntaxError on text that is not JSON.
 *
 * What goyaml makes of JSON that `JSON.parse` does not: a number is resolved from its text (an
 * integer that fits int64 or uint64 stays one, digit for digit; anything else is a float64, and
 * one out of float64's range stays a string of its text), and a raw NEL, LS or PS inside a
 * string is a line break to YAML, folded with the spaces around it as in any double-quoted scalar
 * (NEL alone becomes a space). Go's encoder writes NEL raw; it escapes LS and PS.
 */
export function parseJsonTree(text: string): JsonTree {
  const p = new JsonReader(text);
  p.space();
  const v = p.value();
  p.space();
  if (p.i !== text.length) p.fail();
  return v;
}

class JsonReader {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }

  fail(): never {
    throw new SyntaxError(`not JSON at offset ${this.i}`);
  }

  space(): void {
    const s = this.s;
    let c = s.charCodeAt(this.i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = s.charCodeAt(++this.i);
  }

  value(): JsonTree {
    const c = this.s.charCodeAt(this.i);
    if (c === QUOTE) return this.string();
    if (c === 123) return this.object();
    if (c === 91) return this.array();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    for (const [word, v] of words) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    return this.fail();
  }

  object(): JsonObject {
    const s = this.s;
    const entries: [string, JsonTree][] = [];
    this.i++;
    this.space();
    if (s.charCodeAt(this.i) === 125) {
      this.i++;
      return new JsonObject(entries);
    }
    for (;;) {
      if (s.charCodeAt(this.i) !== QUOTE) this.fail();
      const key = this.string(false);
      this.space();
      if (s.charCodeAt(this.i) !== 58) this.fail();
      this.i++;
      this.space();
      entries.push([key, this.value()]);
      this.space();
      const c = s.charCodeAt(this.i++);
      if (c === 125) break;
      if (c !== 44) this.fail();
      this.space();
    }
    if (entries.length > 1) entries.sort((a, b) => compareGoyamlKeys(a[0], b[0]));
    return new JsonObject(dropRepeated(entries));
  }

  array(): JsonTree[] {
    const s = this.s;
    const items: JsonTree[] = [];
    this.i++;
    this.space();
    if (s.charCodeAt(this.i) === 93) {
      this.i++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.space();
      const c = s.charCodeAt(this.i++);
      if (c === 93) return items;
      if (c !== 44) this.fail();
      this.space();
    }
  }

  /** A string from its opening quote; `fold`: whether raw line breaks fold (not in keys). */
  string(fold = true): string {
    const s = this.s;
    const start = ++this.i;
    for (let i = start; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.i = i + 1;
        return s.slice(start, i);
      }
      if (c < 0x20) break;
      if (c === BACKSLASH || (fold && (c === NEL || c === LS || c === PS))) return this.escapedString(start, fold);
    }
    this.i = s.length;
    return this.fail();
  }

  escapedString(start: number, fold: boolean): string {
    const s = this.s;
    let out = '';
    let i = start;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) break;
      if (Number.isNaN(c) || c < 0x20) {
        this.i = i;
        this.fail();
      }
      if (c === BACKSLASH) {
        const e = s[i + 1];
        const simple = e === undefined ? undefined : jsonShortEscapes[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          this.i = i;
          this.fail();
        }
      } else if (fold && (c === 32 || c === NEL || c === LS || c === PS)) {
        const [folded, end] = foldBlanks(s, i);
        out += folded;
        i = end;
      } else {
        let j = i + 1;
        for (; j < s.length; j++) {
          const d = s.charCodeAt(j);
          if (d === QUOTE || d === BACKSLASH || d < 0x20 || d === 32 || d === NEL || d === LS || d === PS) break;
        }
        out += s.slice(i, j);
        i = j;
      }
    }
    this.i = i + 1;
    return out;
  }

  number(): JsonTree {
    const s = this.s;
    const start = this.i;
    let i = start;
    if (s.charCodeAt(i) === 45) i++;
    const intStart = i;
    if (s.charCodeAt(i) === 48) i++;
    else i = digits(s, i);
    if (i === intStart) this.fail();
    let integer = true;
    if (s.charCodeAt(i) === 46) {
      integer = false;
      const j = digits(s, i + 1);
      if (j === i + 1) this.fail();
      i = j;
    }
    const e = s.charCodeAt(i);
    if (e === 101 || e === 69) {
      integer = false;
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      const j = digits(s, i);
      if (j === i) this.fail();
      i = j;
    }
    this.i = i;
    const text = s.slice(start, i);
    if (integer) {
      if (i - start <= 15) return Number(text);
      const n = BigInt(text);
      if (n >= -(1n << 63n) && n < 1n << 64n) return new NumberText(n.toString());
    }
    const f = Number(text);
    return new NumberText(Number.isFinite(f) ? goFloat(f) : text);
  }
}

const words: [string, JsonTree][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

function digits(s: string, i: number): number {
  let c = s.charCodeAt(i);
  while (c >= 48 && c <= 57) c = s.charCodeAt(++i);
  return i;
}

/**
 * goyaml's double-quoted scalar scanner on a run of raw spaces and line breaks from `i`: without
 * a break the spaces stay; with one, the spaces around the breaks go, and the first break (NEL
 * read as a line feed) is kept with the later ones, except that a lone line feed becomes a space.
 */
function foldBlanks(s: string, i: number): [string, number] {
  let spaces = '';
  let leading = '';
  let trailing = '';
  let blanks = false;
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (!blanks) spaces += ' ';
    } else if (c === NEL || c === LS || c === PS) {
      const brk = c === NEL ? '\n' : s[i]!;
      if (!blanks) {
        leading = brk;
        blanks = true;
      } else trailing += brk;
    } else break;
    i++;
  }
  if (!blanks) return [spaces, i];
  if (leading === '\n') return [trailing === '' ? ' ' : trailing, i];
  return [leading + trailing, i];
}

/** Removes all but the last of each run of equal keys (sorted, so repeated keys are adjacent). */
function dropRepeated(entries: [string, JsonTree][]): [string, JsonTree][] {
  for (let k = 1; k < entries.length; k++) {
    if (entries[k]![0] === entries[k - 1]![0]) return entries.filter((e, j) => e[0] !== entries[j + 1]?.[0]);
  }
  return entries;
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 64)`: shortest digits, exponent form from 1e6 and below 1e-4. */
export function goFloat(f: number): string {
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = f.toExponential().split('e') as [string, string];
  const neg = mant.startsWith('-');
  const d = mant.replace('-', '').replace('.', '');
  const exp = Number(expText);
  const sign = neg ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${sign}${d[0]}${d.length > 1 ? '.' + d.slice(1) : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${d}`;
  if (d.length <= exp + 1) return sign + d + '0'.repeat(exp + 1 - d.length);
  return `${sign}${d.slice(0, exp + 1)}.${d.slice(exp + 1)}`;
}
