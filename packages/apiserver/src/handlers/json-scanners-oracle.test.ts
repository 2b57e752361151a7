import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { goQuote, jsonStringEnd, parseJson } from '@kevents/api';
import { ApiError, badRequest } from '../errors/api-error.js';
import { excessiveNesting } from './json-depth.js';
import { scanJsonShape } from './json-shape.js';
import type { JsonShape, JsonShapeType } from './json-shape.js';
import { strictJSONPatchErrors } from './patch/json-patch-strict.js';

/*
 * Differential tests: the JSON scanners against copies of their character-at-a-time
 * implementations (as of 2bf88e6, kept here unchanged as oracles for any faster reader that
 * replaces them), over generated texts with odd whitespace, escapes,
 * huge, small, negative and exponent numbers, long runs of numbers, deep nesting, repeated and
 * unknown member names, and (for the scanners that take any text) texts that are not JSON.
 */

// --- Oracle: excessiveNesting (json-depth.ts, a character at a time) ------------------------

function oracleEndOfJsonString(text: string, open: number): number {
  const end = jsonStringEnd(text, open + 1);
  return end < 0 ? text.length : end;
}

function oracleExcessiveNesting(text: string, limit = 1000): string | undefined {
  const n = text.length;
  if (n <= limit) return undefined;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = oracleEndOfJsonString(text, i);
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return text[i];
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return undefined;
}

// --- Oracle: scanJsonShape (json-shape.ts, a character at a time) ---------------------------

const oOBJECT = 1;
const oARRAY = 2;

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
function oracleScanJsonShape(text: string, names = false): JsonShape | undefined {
  const n = text.length;
  // The open containers, oOBJECT or oARRAY; with `names`, the names each has spelled.
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
    else if (open.length === 1 && open[0] === oARRAY) {
      elements++;
      if (firstNonObject === undefined && type !== 'object' && type !== 'null') firstNonObject = type;
    }
    if (type === 'object' || type === 'array') {
      if (open.length + 1 > depth) depth = open.length + 1;
      i = blanksEnd(text, i + 1);
      if (text.charCodeAt(i) !== (type === 'object' ? 0x7d : 0x5d)) {
        values++;
        open.push(type === 'object' ? oOBJECT : oARRAY);
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
        if (top === oARRAY) {
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
      if (d !== (top === oOBJECT ? 0x7d : 0x5d)) return undefined;
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

// --- Oracle: strictJSONPatchErrors (json-patch-strict.ts, a character at a time) ---------------

type OpField = 'op' | 'path' | 'from' | 'value';
const opFieldBits: Readonly<Record<OpField, number>> = { op: 1, path: 2, from: 4, value: 8 };

/** The most strict errors sigs.k8s.io/json keeps (`saveStrictError`). */
const maxStrictErrors = 100;

/** A JSON value's kind, as Go's `UnmarshalTypeError.Value` names it. */
type Kind = 'object' | 'array' | 'string' | 'number' | 'bool' | 'null';

/**
 * kube-apiserver's first step for a JSON patch under `fieldValidation=Strict` or `Warn`:
 * `kjson.UnmarshalStrict(patch, &[]jsonPatchOp{})` (sigs.k8s.io/json: member names matched
 * case-sensitively, integers kept, unknown and repeated fields reported with their paths). The
 * first value of a wrong type is kube's 400 `error decoding patch: json: cannot unmarshal number
 * into Go struct field jsonPatchOp.op of type string` (the root and each operation: `Go value of
 * type []handlers.jsonPatchOp` / `handlers.jsonPatchOp`; a number past a float64 in `value`:
 * `number 1e400 ... jsonPatchOp.value of type float64`). Otherwise returns the strict errors as
 * kube words them, in the text's order, each once, at most 100: `json patch unknown field
 * "[0].x"`, `json patch duplicate field "[0].op"`, `json patch duplicate field "[1].value.a"`.
 * `text` is valid JSON no deeper than the nesting bound (it was checked).
 */
function oracleStrictJSONPatchErrors(text: string): string[] {
  return new OracleStrictPatchReader(text).read();
}

class OracleStrictPatchReader {
  readonly #text: string;
  #at = 0;
  /** sigs.k8s.io/json's `strictFieldStack`: member names and element indexes, joined only for an error. */
  readonly #path: (string | number)[] = [];
  readonly #errors: string[] = [];
  readonly #seen = new Set<string>();

  constructor(text: string) {
    this.#text = text;
  }

  read(): string[] {
    this.#blanks();
    const kind = this.#kind();
    if (kind === 'array') {
      this.#at++;
      for (let i = 0; this.#more(']'); i++) {
        this.#path.push(i);
        this.#operation();
        this.#path.pop();
      }
    } else if (kind !== 'null') {
      this.#fail(kind, undefined, '[]handlers.jsonPatchOp');
    }
    return this.#errors;
  }

  /** One element of the patch: a `jsonPatchOp` struct. */
  #operation(): void {
    const kind = this.#kind();
    if (kind === 'null') return this.#skip();
    if (kind !== 'object') this.#fail(kind, undefined, 'handlers.jsonPatchOp');
    this.#at++;
    let seen = 0;
    while (this.#more('}')) {
      const key = this.#key();
      const bit = opFieldBits[key as OpField];
      if (bit === undefined || !Object.hasOwn(opFieldBits, key)) {
        this.#strict('unknown field', key);
        this.#skip();
        continue;
      }
      if ((seen & bit) !== 0) this.#strict('duplicate field', key);
      seen |= bit;
      this.#path.push(key);
      if (key === 'value') this.#any(key);
      else this.#string(key as OpField);
      this.#path.pop();
    }
  }

  /** `op`, `path` or `from`: a Go string (null leaves it empty). */
  #string(field: OpField): void {
    const kind = this.#kind();
    if (kind !== 'string' && kind !== 'null') this.#fail(kind, field, 'string');
    this.#skip();
  }

  /** `value`: an `interface{}`, whose maps' repeated keys are strict errors too. */
  #any(field: OpField): void {
    const kind = this.#kind();
    if (kind === 'object') {
      this.#at++;
      const keys = new Set<string>();
      while (this.#more('}')) {
        const key = this.#key();
        if (keys.has(key)) this.#strict('duplicate field', key);
        keys.add(key);
        this.#path.push(key);
        this.#any(field);
        this.#path.pop();
      }
    } else if (kind === 'array') {
      this.#at++;
      for (let i = 0; this.#more(']'); i++) {
        this.#path.push(i);
        this.#any(field);
        this.#path.pop();
      }
    } else if (kind === 'number') {
      const start = this.#at;
      this.#skip();
      const literal = this.#text.slice(start, this.#at);
      // PreserveInts keeps an int64 and reads any other number as a float64, which must hold it.
      if (!Number.isFinite(Number(literal))) this.#fail(`number ${literal}`, field, 'float64');
    } else this.#skip();
  }

  #strict(kind: 'unknown field' | 'duplicate field', key: string): void {
    let path = '';
    for (const at of this.#path) path = typeof at === 'number' ? `${path}[${at}]` : path === '' ? at : `${path}.${at}`;
    path = path === '' ? key : `${path}.${key}`;
    const message = `json patch ${kind} ${goQuote(path)}`;
    if (this.#errors.length >= maxStrictErrors || this.#seen.has(message)) return;
    this.#seen.add(message);
    this.#errors.push(message);
  }

  /** Go's `UnmarshalTypeError` for the first value of a wrong type, as kube's 400. */
  #fail(value: string, field: OpField | undefined, type: string): never {
    const into =
      field === undefined ? `Go value of type ${type}` : `Go struct field jsonPatchOp.${field} of type ${type}`;
    throw badRequest(`error decoding patch: json: cannot unmarshal ${value} into ${into}`);
  }

  // --- The text ------------------------------------------------------------------------------

  #blanks(): void {
    const t = this.#text;
    let c = t.charCodeAt(this.#at);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = t.charCodeAt(++this.#at);
  }

  #kind(): Kind {
    this.#blanks();
    switch (this.#text.charCodeAt(this.#at)) {
      case 0x7b:
        return 'object';
      case 0x5b:
        return 'array';
      case 0x22:
        return 'string';
      case 0x74:
      case 0x66:
        return 'bool';
      case 0x6e:
        return 'null';
      default:
        return 'number';
    }
  }

  /** Whether another member or element follows (its comma read), or the container ends (`close` read). */
  #more(close: '}' | ']'): boolean {
    this.#blanks();
    const c = this.#text[this.#at];
    if (c === ',') {
      this.#at++;
      return true;
    }
    if (c === close) {
      this.#at++;
      return false;
    }
    return true;
  }

  /** A member name and its colon, the name read as Go's `unquote` reads it. */
  #key(): string {
    this.#blanks();
    const start = this.#at;
    this.#skipString();
    const raw = this.#text.slice(start, this.#at);
    this.#blanks();
    this.#at++; // the colon
    return raw.includes('\\') ? (parseJson(raw) as string) : raw.slice(1, -1);
  }

  #skipString(): void {
    const t = this.#text;
    let i = this.#at + 1;
    for (;;) {
      const q = t.indexOf('"', i);
      let slashes = 0;
      for (let j = q - 1; t.charCodeAt(j) === 0x5c; j--) slashes++;
      if (slashes % 2 === 0) {
        this.#at = q + 1;
        return;
      }
      i = q + 1;
    }
  }

  /** Skips one value (any kind). */
  #skip(): void {
    const t = this.#text;
    this.#blanks();
    const c = t.charCodeAt(this.#at);
    if (c === 0x22) return this.#skipString();
    if (c !== 0x7b && c !== 0x5b) {
      while (this.#at < t.length && !',]} \n\r\t'.includes(t[this.#at]!)) this.#at++;
      return;
    }
    let depth = 0;
    for (;;) {
      const d = t.charCodeAt(this.#at);
      if (d === 0x22) {
        this.#skipString();
        continue;
      }
      this.#at++;
      if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return;
    }
  }
}

// --- Generated texts --------------------------------------------------------------------------

const ws = fc.constantFrom('', '', '', '', ' ', '\n', '\t', '\r\n  ', ' \t');
const digits = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });
/** Integers of every length around the 300-digit fast path and the 309-character overflow check. */
const integer = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom('0', '-0', '7', '-9'),
  fc.tuple(fc.constantFrom('', '-'), fc.constantFrom('1', '9'), digits(0, 12)).map(([s, d, ds]) => `${s}${d}${ds}`),
  fc
    .tuple(
      fc.constantFrom('', '-'),
      fc.constantFrom('1', '9'),
      fc.integer({ min: 295, max: 320 }),
      fc.constantFrom('0', '9'),
    )
    .map(([s, d, n, z]) => `${s}${d}${z.repeat(n)}`),
);
const number = fc.oneof(
  { weight: 3, arbitrary: integer },
  fc.tuple(integer, digits(1, 4)).map(([i, f]) => `${i}.${f}`),
  fc
    .tuple(integer, fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4))
    .map(([i, e, s, x]) => `${i}${e}${s}${x}`),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1e-400',
    '1E+308',
    '2e308',
    '0.0e0',
    '-0.0',
    `1${'0'.repeat(308)}`,
    `9${'9'.repeat(309)}`,
    '1.5e-7',
  ),
);
const stringLiteral = fc.oneof(
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '""',
    '"a\\"b"',
    '"\\\\"',
    '"\\\\\\""',
    '"\\ud800"',
    '"é"',
    '"\\u0041,]}"',
    '"[{"',
    '"\\/\\b\\f\\n\\r\\t"',
  ),
);
/** A name, spelled plainly or with escapes. */
const name = fc
  .tuple(
    fc.constantFrom('op', 'path', 'from', 'value', 'Op', 'a', 'b', 'x', '', 'a"', '\\', '__proto__', 'é'),
    fc.boolean(),
  )
  .map(([n, escaped]) =>
    escaped && n.length > 0
      ? `"${[...n].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(n),
  );
const spaced = (
  items: readonly (readonly [string, string, string])[],
  open: string,
  close: string,
  empty: string,
): string =>
  items.length === 0
    ? `${open}${empty}${close}`
    : `${open}${items.map(([a, x, b]) => `${a}${x}${b}`).join(',')}${close}`;
/** A run of numbers (mostly plain integers), spaced or not, as a wide array spells them. */
const numberRun = fc
  .tuple(
    fc.array(fc.oneof({ weight: 6, arbitrary: integer }, number), { minLength: 1, maxLength: 60 }),
    fc.boolean(),
    ws,
  )
  .map(([xs, compact, w]) => `[${xs.join(compact ? ',' : `${w},${w}`)}]`);

const { value: jsonValue } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    number,
    stringLiteral,
    fc.constantFrom('true', 'false', 'null'),
    numberRun,
    fc.tuple(fc.array(fc.tuple(ws, tie('value'), ws), { maxLength: 5 }), ws).map(([xs, w]) => spaced(xs, '[', ']', w)),
    fc.tuple(fc.array(fc.tuple(ws, fc.tuple(name, ws, ws, tie('value')), ws), { maxLength: 5 }), ws).map(([xs, w]) =>
      spaced(
        xs.map(([a, [k, b, c, v], d]) => [a, `${k}${b}:${c}${v}`, d] as const),
        '{',
        '}',
        w,
      ),
    ),
  ),
}));
/** Values nested deep, around the nesting bound (and a low one the tests pass too). */
const deep = fc
  .tuple(fc.integer({ min: 0, max: 1010 }), fc.constantFrom('[', '{"a":'), jsonValue)
  .map(([d, open, v]) => `${open.repeat(d)}${v}${(open === '[' ? ']' : '}').repeat(d)}`);
const json = fc
  .oneof({ weight: 4, arbitrary: jsonValue }, deep)
  .chain((v) => fc.tuple(ws, ws).map(([a, b]) => `${a}${v}${b}`));
/** A text cut, spliced or given a stray character: mostly not JSON. */
const mangled = fc
  .tuple(
    json,
    fc.nat(),
    fc.nat(),
    fc.constantFrom('', ',', ']', '}', '[', '{', '"', '\\', '0', '-', 'e', '.', ' ', ':', '01'),
  )
  .map(([t, a, b, c]) => {
    const i = a % (t.length + 1);
    const j = Math.min(t.length, i + (b % 4));
    return `${t.slice(0, i)}${c}${t.slice(j)}`;
  });
const anyText = fc.oneof(json, mangled);

/** JSON patches: operations of known, unknown, repeated and mistyped fields, and roots and operations of every type. */
const operation = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(fc.tuple(ws, name, ws, jsonValue, ws), { maxLength: 6 }), ws)
      .map(([ms, w]) =>
        ms.length === 0 ? `{${w}}` : `{${ms.map(([a, k, b, v, c]) => `${a}${k}${b}:${v}${c}`).join(',')}}`,
      ),
  },
  fc
    .tuple(fc.constantFrom('add', 'remove', 'test'), jsonValue, ws)
    .map(([op, v, w]) => `{"op":${w}"${op}","path":"/a",${w}"value":${w}${v}}`),
  jsonValue,
);
const patchText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(fc.tuple(ws, operation, ws), { maxLength: 6 }), ws)
      .map(([xs, w]) => spaced(xs, '[', ']', w)),
  },
  jsonValue,
);

type Outcome = { errors: string[] } | { status: number; message: string | undefined };
const outcome = (f: () => string[]): Outcome => {
  try {
    return { errors: f() };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: e.code, message: e.status.message };
  }
};

describe('the JSON scanners against the implementations they replaced', () => {
  it('oracles: the generators reach every branch worth reaching', () => {
    const sample = fc.sample(anyText, { numRuns: 2000, seed: 1 });
    const shapes = sample.map((t) => oracleScanJsonShape(t, true));
    expect(shapes.some((s) => s === undefined)).toBe(true);
    expect(shapes.some((s) => s?.overflows === true)).toBe(true);
    expect(shapes.some((s) => s?.repeatsName === true)).toBe(true);
    expect(sample.some((t) => oracleExcessiveNesting(t) !== undefined)).toBe(true);
    const patches = fc
      .sample(patchText, { numRuns: 2000, seed: 1 })
      .map((t) => outcome(() => oracleStrictJSONPatchErrors(t)));
    expect(patches.some((o) => 'errors' in o && o.errors.length > 0)).toBe(true);
    expect(patches.some((o) => 'message' in o && o.message?.includes('of type float64'))).toBe(true);
  });

  it('excessiveNesting answers as oracleExcessiveNesting for any text and bound', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(1000, 0, 1, 3, 8), (t, limit) => {
        expect(excessiveNesting(t, limit)).toBe(oracleExcessiveNesting(t, limit));
      }),
      { numRuns: 3000 },
    );
  });

  it('scanJsonShape answers as oracleScanJsonShape for any text, with names or without', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (t, names) => {
        expect(scanJsonShape(t, names)).toStrictEqual(oracleScanJsonShape(t, names));
      }),
      { numRuns: 3000 },
    );
  });

  it('strictJSONPatchErrors answers as oracleStrictJSONPatchErrors for any valid patch text', () => {
    fc.assert(
      fc.property(patchText, ws, (t, w) => {
        const text = `${w}${t}${w}`;
        fc.pre(oracleScanJsonShape(text) !== undefined && oracleExcessiveNesting(text) === undefined);
        expect(outcome(() => strictJSONPatchErrors(text))).toStrictEqual(
          outcome(() => oracleStrictJSONPatchErrors(text)),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('strictJSONPatchErrors keeps the element indexes of its paths past long runs of numbers', () => {
    const run = (n: number, sep: string): string =>
      Array.from({ length: n }, (_, i) => String(i % 10 === 0 ? -i : i)).join(sep);
    for (const text of [
      `[{"op":"test","value":[${run(5000, ',')},{"a":1,"a":2},${run(300, ' , ')},{"b":1,"b":2}]}]`,
      `[{"op":"test","value":[${run(70, ',')},1e400]}]`,
      `[{"op":"test","value":[${run(70, ',')},${'9'.repeat(400)}]}]`,
      `[{"op":"test","value":[${run(70, ',')},1.5,{"c":[${run(9, '\n,\t')}],"c":0}]},{"x":1}]`,
      `[{"op":"test","value":[${'1'.repeat(300)},${'1'.repeat(301)},{"d":0,"d":1}]}]`,
    ]) {
      expect(outcome(() => strictJSONPatchErrors(text))).toStrictEqual(
        outcome(() => oracleStrictJSONPatchErrors(text)),
      );
    }
  });

  it('scanJsonShape counts the values and elements of long runs of numbers', () => {
    const run = (n: number, sep: string): string =>
      Array.from({ length: n }, (_, i) => String(i % 7 === 0 ? -i : i)).join(sep);
    for (const text of [
      `[${run(20000, ',')}]`,
      `[{},${run(2000, ',')}]`,
      `[null,${run(2000, ',')},{}]`,
      `{"a":[${run(2000, ',')},01]}`,
      `[1,${run(2000, ',')},${'9'.repeat(400)}]`,
      `[1,${run(2000, ',')},1e400,${run(20, ',')}]`,
      `[1,${run(200, ' ,')}]`,
      `[[1,${'1'.repeat(300)},${'1'.repeat(309)},-${'1'.repeat(308)}]]`,
    ]) {
      expect(scanJsonShape(text, true)).toStrictEqual(oracleScanJsonShape(text, true));
    }
  });
});
