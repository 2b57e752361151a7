import { parseJson } from '@kevents/api';

/**
 * The JSON type of a value as Go names it in an unmarshal error (`json: cannot unmarshal number
 * into ...`): `object`, `array`, `string`, `number`, `bool`, or `null`.
 */
export type JsonShapeType = 'object' | 'array' | 'string' | 'number' | 'bool' | 'null';

/** What {@link scanJsonShape} reads from a valid JSON text without building its value. */
export interface JsonShape {
  /** The root value's type. */
  readonly root: JsonShapeType;
  /** The values below the root (object members and array elements at every depth), as spelled. */
  readonly values: number;
  /** The elements of a root array (0 for any other root). */
  readonly elements: number;
  /** The type of the first element of a root array that is neither an object nor `null`. */
  readonly firstNonObject?: JsonShapeType;
  /** Whether an object spells a member name twice (names compared decoded); only when asked for. */
  readonly repeatsName: boolean;
  /** How deep its arrays and objects nest (a scalar is 0, `{}` and `[]` are 1), as `excessiveNesting` counts. */
  readonly depth: number;
  /** Whether a number literal is past a double (`1e400`): `JSON.parse` makes it an infinity. */
  readonly overflows: boolean;
}

const OBJECT = 1;
const ARRAY = 2;

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** `"`, `\\`, `/`, `b`, `f`, `n`, `r`, `t`: the characters that may follow a backslash alone. */
const isSimpleEscape = (e: number): boolean =>
  e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** The end of the valid JSON string opened at `i`, past its quote; -1 when it is not one. */
function stringEnd(text: string, i: number): number {
  const n = text.length;
  for (i++; i < n;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c) {
      i++;
      continue;
    }
    const e = text.charCodeAt(i + 1);
    if (isSimpleEscape(e)) i += 2;
    else if (
      e === 0x75 &&
      isHex(text.charCodeAt(i + 2)) &&
      isHex(text.charCodeAt(i + 3)) &&
      isHex(text.charCodeAt(i + 4)) &&
      isHex(text.charCodeAt(i + 5))
    )
      i += 6;
    else return -1;
  }
  return -1;
}

/** The end of the valid JSON number at `i`; -1 when it is not one. */
function numberEnd(text: string, i: number): number {
  if (text.charCodeAt(i) === 0x2d) i++;
  const c = text.charCodeAt(i);
  if (c === 0x30) i++;
  else if (isDigit(c)) while (isDigit(text.charCodeAt(++i)));
  else return -1;
  if (text.charCodeAt(i) === 0x2e) {
    if (!isDigit(text.charCodeAt(++i))) return -1;
    while (isDigit(text.charCodeAt(++i)));
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    const s = text.charCodeAt(++i);
    if (s === 0x2b || s === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return -1;
    while (isDigit(text.charCodeAt(++i)));
  }
  return i;
}

/** Whether the number literal text[start, end) is past a double: only one with an exponent or 309 characters can be. */
function overflows(text: string, start: number, end: number): boolean {
  let exponent = end - start >= 309;
  for (let k = start; k < end && !exponent; k++) {
    const c = text.charCodeAt(k);
    exponent = c === 0x65 || c === 0x45;
  }
  return exponent && !Number.isFinite(Number(text.slice(start, end)));
}

function blanksEnd(text: string, i: number): number {
  while (isBlank(text.charCodeAt(i))) i++;
  return i;
}

/** The names each open object has spelled (with `names`): the first as a string, a Set from the second on. */
type SeenNames = string | Set<string> | undefined;

/** Notes a member name (its raw text between quotes); true when the object spelled it before. */
function repeats(seen: SeenNames[], raw: string): boolean {
  const top = seen.length - 1;
  const name = raw.includes('\\') ? (parseJson(`"${raw}"`) as string) : raw;
  const had = seen[top];
  if (had === undefined) seen[top] = name;
  else if (typeof had === 'string') {
    if (had === name) return true;
    seen[top] = new Set([had, name]);
  } else if (had.has(name)) return true;
  else had.add(name);
  return false;
}

/**
 * Reads a JSON text's shape without building its value: whether it is JSON as `JSON.parse` reads
 * it (undefined when it is not), its root's type, its values, a root array's elements and the type
 * of the first that is not an object or `null`, and (with `names`) whether an object repeats a
 * member name. One pass, no recursion, a few nanoseconds a character; allocates only for the
 * member names of objects of two members or more (with `names`). It lets a large body be answered
 * as its parsed value would be without parsing it: `JSON.parse` of 3 MiB of small values holds
 * the event loop tens of milliseconds to a second and leaves a million objects to collect.
 */
export function scanJsonShape(text: string, names = false): JsonShape | undefined {
  const n = text.length;
  // The open containers, OBJECT or ARRAY; with `names`, the names each has spelled.
  const open: number[] = [];
  const seen: SeenNames[] = [];
  let values = 0;
  let elements = 0;
  let firstNonObject: JsonShapeType | undefined;
  let repeatsName = false;
  let depth = 0;
  let overflow = false;
  let root: JsonShapeType | undefined;
  let i = 0;
  // Reads a value at `i`, then what follows it, until the root value ends.
  for (;;) {
    i = blanksEnd(text, i);
    const c = text.charCodeAt(i);
    let type: JsonShapeType;
    if (c === 0x7b) type = 'object';
    else if (c === 0x5b) type = 'array';
    else if (c === 0x22) {
      type = 'string';
      i = stringEnd(text, i);
    } else if (c === 0x74) {
      type = 'bool';
      i = text.startsWith('true', i) ? i + 4 : -1;
    } else if (c === 0x66) {
      type = 'bool';
      i = text.startsWith('false', i) ? i + 5 : -1;
    } else if (c === 0x6e) {
      type = 'null';
      i = text.startsWith('null', i) ? i + 4 : -1;
    } else if (c === 0x2d || isDigit(c)) {
      type = 'number';
      const start = i;
      i = numberEnd(text, i);
      if (i > 0 && !overflow && overflows(text, start, i)) overflow = true;
    } else return undefined;
    if (i < 0) return undefined;
    if (root === undefined) root = type;
    else if (open.length === 1 && open[0] === ARRAY) {
      elements++;
      if (firstNonObject === undefined && type !== 'object' && type !== 'null') firstNonObject = type;
    }
    if (type === 'object' || type === 'array') {
      if (open.length + 1 > depth) depth = open.length + 1;
      i = blanksEnd(text, i + 1);
      if (text.charCodeAt(i) !== (type === 'object' ? 0x7d : 0x5d)) {
        values++;
        open.push(type === 'object' ? OBJECT : ARRAY);
        if (names) seen.push(undefined);
        if (type === 'array') continue;
        // A member name and its colon.
        const end = memberNameEnd(text, i);
        if (end < 0) return undefined;
        if (names && repeats(seen, text.slice(i + 1, end - 1))) repeatsName = true;
        i = blanksEnd(text, end) + 1;
        continue;
      }
      i++;
    }
    // After a value: commas and closes, until another value starts or the root ends.
    for (;;) {
      i = blanksEnd(text, i);
      if (open.length === 0) {
        if (i !== n) return undefined;
        const shape = { root, values, elements, repeatsName, depth, overflows: overflow };
        return firstNonObject === undefined ? shape : { ...shape, firstNonObject };
      }
      const top = open[open.length - 1]!;
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        values++;
        if (top === ARRAY) {
          // Runs of numbers, the commonest wide array, in a tight loop: each number read, then its comma.
          const rootArray = open.length === 1;
          let e = text.charCodeAt(i);
          while (e === 0x2d || isDigit(e)) {
            const start = i;
            i = numberEnd(text, i);
            if (i < 0) return undefined;
            if (!overflow && overflows(text, start, i)) overflow = true;
            if (rootArray) {
              elements++;
              firstNonObject ??= 'number';
            }
            if (text.charCodeAt(i) !== 0x2c) break;
            i++;
            values++;
            e = text.charCodeAt(i);
          }
          // After a number not followed by a comma: what follows it, here; else the next value.
          if (e === 0x2d || isDigit(e)) continue;
          break;
        }
        i = blanksEnd(text, i);
        const end = memberNameEnd(text, i);
        if (end < 0) return undefined;
        if (names && repeats(seen, text.slice(i + 1, end - 1))) repeatsName = true;
        i = blanksEnd(text, end) + 1;
        break;
      }
      if (d !== (top === OBJECT ? 0x7d : 0x5d)) return undefined;
      i++;
      open.pop();
      if (names) seen.pop();
    }
  }
}

/** Where the member name that starts at `i` ends (after its closing quote) when a colon follows it; -1 otherwise. */
function memberNameEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x22) return -1;
  const end = stringEnd(text, i);
  return end >= 0 && text.charCodeAt(blanksEnd(text, end)) === 0x3a ? end : -1;
}
