import { FieldPath, invalid as invalidField, isQualifiedName, isValidLabelValue } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';

/** A parsed label selector; `matches` tests a label map. */
export interface LabelSelector {
  readonly empty: boolean;
  /** The parsed requirements, in order (`op` is Kubernetes' operator: `=`, `==`, `!=`, `in`, `notin`, `exists`, `!`, `gt`, `lt`). */
  readonly requirements: readonly { readonly key: string; readonly op: string; readonly values: readonly string[] }[];
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  toString(): string;
}

/** A selector parse error; the HTTP layer answers 400 with its message. */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
}

type Op = 'exists' | '!' | '=' | '==' | '!=' | 'in' | 'notin' | 'gt' | 'lt';

interface Requirement {
  readonly key: string;
  readonly op: Op;
  readonly values: readonly string[];
}

/** The lexer's tokens. */
export type Tok = 'end' | 'error' | 'ident' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';

const specialTokens: Readonly<Record<string, Tok>> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  '<': '<',
  '!=': '!=',
  '(': '(',
};
/** A lexer item: a token and its literal text. */
export interface LexItem {
  readonly tok: Tok;
  readonly lit: string;
}

/** Character classes of the lexer, by UTF-16 unit below 0x80: 0 identifier, 1 whitespace, 2 special symbol, 3 NUL. */
const charClass = new Uint8Array(0x80);
for (const c of ' \t\r\n') charClass[c.charCodeAt(0)] = 1;
for (const c of '=!(),><') charClass[c.charCodeAt(0)] = 2;
charClass[0] = 3;
const classOf = (c: number): number => (c < 0x80 ? charClass[c]! : 0);
const endItem: LexItem = { tok: 'end', lit: '' };
/** The item of each special symbol: one character, or `==` and `!=` (the longest that is a token). */
const symbolItems = new Map<string, LexItem>(Object.entries(specialTokens).map(([lit, tok]) => [lit, { tok, lit }]));
const EQUALS = 0x3d;
const BANG = 0x21;

/**
 * Kubernetes' selector lexer (`labels.Lexer`): identifiers, keywords and the longest special
 * symbol (every single symbol is a token, and only `==` and `!=` are longer, so it is one or two
 * characters). One pass over the text by character codes, identifiers taken as slices.
 */
export function lex(s: string): LexItem[] {
  const out: LexItem[] = [];
  const n = s.length;
  let i = 0;
  for (;;) {
    while (i < n && classOf(s.charCodeAt(i)) === 1) i++;
    if (i >= n || s.charCodeAt(i) === 0) {
      out.push(endItem);
      return out;
    }
    const start = i;
    const first = s.charCodeAt(i);
    if (classOf(first) === 2) {
      const two = (first === EQUALS || first === BANG) && s.charCodeAt(i + 1) === EQUALS;
      out.push(symbolItems.get(s.slice(i, (i += two ? 2 : 1)))!);
      continue;
    }
    let c = classOf(s.charCodeAt(i));
    while (i < n && c === 0) c = classOf(s.charCodeAt(++i));
    const id = s.slice(start, i);
    out.push({ tok: id === 'in' ? 'in' : id === 'notin' ? 'notin' : 'ident', lit: id });
  }
}

const binaryOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

const fail = (message: string): never => {
  throw new SelectorParseError(message);
};

/** `labels.Parser`: the grammar, error texts and requirement checks of Kubernetes' label selectors. */
class Parser {
  readonly #items: LexItem[];
  #pos = 0;

  constructor(src: string) {
    this.#items = lex(src);
  }

  /** The next item; `in`/`notin` read as identifiers where values are expected. */
  #peek(values: boolean): LexItem {
    const it = this.#items[Math.min(this.#pos, this.#items.length - 1)]!;
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'ident', lit: it.lit } : it;
  }

  #next(values: boolean): LexItem {
    const it = this.#peek(values);
    if (this.#pos < this.#items.length - 1) this.#pos++;
    return it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.#peek(true);
      if (tok === 'end') return reqs;
      if (tok !== 'ident' && tok !== '!') fail(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.#requirement());
      } catch (err) {
        if (err instanceof SelectorParseError) fail(`unable to parse requirement: ${err.message}`);
        throw err;
      }
      const after = this.#next(true);
      if (after.tok === 'end') return reqs;
      if (after.tok !== ',') fail(`found '${after.lit}', expected: ',' or 'end of string'`);
      const again = this.#peek(true);
      if (again.tok !== 'ident' && again.tok !== '!') fail(`found '${again.lit}', expected: identifier after ','`);
    }
  }

  #requirement(): Requirement {
    let exists: Op | undefined;
    let { tok, lit } = this.#next(true);
    if (tok === '!') {
      exists = '!';
      ({ tok, lit } = this.#next(true));
    }
    if (tok !== 'ident') fail(`found '${lit}', expected: identifier`);
    const key = lit;
    checkKey(key);
    const la = this.#peek(true).tok;
    if (la === 'end' || la === ',') exists ??= 'exists';
    if (exists) return newRequirement(key, exists, []);
    const op = this.#operator();
    const values = op === 'in' || op === 'notin' ? this.#setValues() : this.#exactValue();
    return newRequirement(key, op, values);
  }

  #operator(): Op {
    const { tok, lit } = this.#next(false);
    switch (tok) {
      case 'in':
      case 'notin':
      case '=':
      case '==':
      case '!=':
        return tok;
      case '>':
        return 'gt';
      case '<':
        return 'lt';
      default:
        return fail(`found '${lit}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  #setValues(): string[] {
    const open = this.#next(true);
    if (open.tok !== '(') fail(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.#peek(true);
    if (tok === ')') {
      this.#next(true);
      return [''];
    }
    if (tok !== 'ident' && tok !== ',') fail(`found '${lit}', expected: ',', ')' or identifier`);
    const set = this.#identifiers();
    const close = this.#next(true);
    if (close.tok !== ')') fail(`found '${lit}', expected: ')'`);
    return [...set].sort();
  }

  #identifiers(): Set<string> {
    const set = new Set<string>();
    for (;;) {
      const { tok, lit } = this.#next(true);
      if (tok === 'ident') {
        set.add(lit);
        const la = this.#peek(true);
        if (la.tok === ',') continue;
        if (la.tok === ')') return set;
        fail(`found '${la.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (set.size === 0) set.add('');
        const la = this.#peek(true).tok;
        if (la === ')') {
          set.add('');
          return set;
        }
        // The second comma is left for the next turn, which reads it as a comma again.
        if (la === ',') set.add('');
      } else {
        fail(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  #exactValue(): string[] {
    const la = this.#peek(true).tok;
    if (la === 'end' || la === ',') return [''];
    const { tok, lit } = this.#next(true);
    if (tok === 'ident') return [lit];
    return fail(`found '${lit}', expected: identifier`);
  }
}

/**
 * The parser's check of a key (`parseKeyAndInferOperator`): its field path is the parser's,
 * which `labels.Parse` leaves nil, so Go's error names the field `<nil>`.
 */
function checkKey(key: string): void {
  const errs = isQualifiedName(key);
  if (errs.length) fail(invalidField('<nil>', key, errs.join('; ')).toString());
}

const int64 = /^[+-]?\d+$/;
const minInt64 = -(1n << 63n);
const maxInt64 = (1n << 63n) - 1n;

/** `strconv.ParseInt(s, 10, 64)`: the value, or undefined when Go refuses it (not an integer, or out of range). */
function parseInt64(s: string): bigint | undefined {
  if (!int64.test(s)) return undefined;
  const n = BigInt(s);
  return n < minInt64 || n > maxInt64 ? undefined : n;
}

/** `labels.NewRequirement`: the checks of values per operator, aggregated like Kubernetes' errors. */
function newRequirement(key: string, op: Op, values: string[]): Requirement {
  const errs: FieldError[] = [];
  const valuePath = FieldPath.root('values');
  if ((op === 'gt' || op === 'lt') && values.length === 1) {
    values.forEach((v, i) => {
      if (parseInt64(v) === undefined) {
        errs.push(invalidField(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    });
  }
  values.forEach((v, i) => {
    const bad = isValidLabelValue(v);
    if (bad.length) errs.push(invalidField(valuePath.index(i).key(key), v, bad.join('; ')));
  });
  if (errs.length === 1) fail(errs[0]!.toString());
  if (errs.length > 1) fail(`[${errs.map(String).join(', ')}]`);
  return { key, op, values };
}

/** What the requirements on one key ask of its value, all of them together. */
interface KeyCheck {
  /** The key must be present (exists, `=`, `in`, `gt`, `lt`). */
  present: boolean;
  /** The key must be absent (`!`). */
  absent: boolean;
  /** The value must be one of these (the intersection of every `=` and `in` set on the key). */
  allowed: Set<string> | undefined;
  /** The value must be none of these (the union of every `!=` and `notin` set on the key). */
  forbidden: Set<string> | undefined;
  /** The value must be an int64 above `above` and below `below` (the tightest `gt` and `lt`). */
  above: bigint | undefined;
  below: bigint | undefined;
}

const valueHolds = (c: KeyCheck, v: string): boolean => {
  if (c.allowed !== undefined && !c.allowed.has(v)) return false;
  if (c.forbidden?.has(v) === true) return false;
  if (c.above === undefined && c.below === undefined) return true;
  const n = parseInt64(v);
  return n !== undefined && (c.above === undefined || n > c.above) && (c.below === undefined || n < c.below);
};

/**
 * The test of a label map against all the requirements (`Requirement.Matches` of each, as
 * kube's selector does), with the requirements on each key merged first, so that a label map
 * costs about its own size and the number of keys it must have, not the selector's length: a
 * URL of 5,300 `!a` terms (or 20,000 over HTTP/2) cost that many lookups per object, 100-400 ms
 * of event loop per 1,024 listed objects, and as much again per watcher for each change.
 */
function compileMatcher(reqs: readonly Requirement[]): (labels: Readonly<Record<string, string>>) => boolean {
  if (reqs.length === 0) return () => true;
  const checks = new Map<string, KeyCheck>();
  for (const r of reqs) {
    let c = checks.get(r.key);
    if (c === undefined) {
      c = {
        present: false,
        absent: false,
        allowed: undefined,
        forbidden: undefined,
        above: undefined,
        below: undefined,
      };
      checks.set(r.key, c);
    }
    switch (r.op) {
      case 'exists':
        c.present = true;
        break;
      case '!':
        c.absent = true;
        break;
      case '=':
      case '==':
      case 'in': {
        c.present = true;
        const prev = c.allowed;
        c.allowed = new Set(prev === undefined ? r.values : r.values.filter((v) => prev.has(v)));
        break;
      }
      case '!=':
      case 'notin':
        c.forbidden ??= new Set();
        for (const v of r.values) c.forbidden.add(v);
        break;
      case 'gt':
      case 'lt': {
        c.present = true;
        // Refused at parse time otherwise; a bound that is no int64 never matches (as in kube).
        const n = parseInt64(r.values[0] ?? '');
        if (n === undefined) c.allowed = new Set();
        else if (r.op === 'gt') c.above = c.above === undefined || n > c.above ? n : c.above;
        else c.below = c.below === undefined || n < c.below ? n : c.below;
        break;
      }
    }
  }
  const present: [string, KeyCheck][] = [];
  // Keys that may be absent: their value is checked only when the labels have them.
  const optional = new Map<string, KeyCheck>();
  for (const [key, c] of checks) {
    if (c.present && c.absent) return () => false;
    if (c.present) present.push([key, c]);
    else optional.set(key, c);
  }
  const has = (labels: Readonly<Record<string, string>>, key: string): boolean =>
    Object.prototype.hasOwnProperty.call(labels, key);
  // A few requirements are looked up one by one; past that, the labels' keys bound the work.
  const few = 8;
  return (labels) => {
    let keys: string[] | undefined;
    if (present.length > few) {
      keys = Object.keys(labels);
      // More required keys than labels: some is missing (so the loop below is as short as the labels).
      if (present.length > keys.length) return false;
    }
    for (const [key, c] of present) if (!has(labels, key) || !valueHolds(c, labels[key]!)) return false;
    if (optional.size === 0) return true;
    if (optional.size > few) keys ??= Object.keys(labels);
    if (keys === undefined || optional.size <= keys.length) {
      for (const [key, c] of optional) if (has(labels, key) && (c.absent || !valueHolds(c, labels[key]!))) return false;
      return true;
    }
    for (const key of keys) {
      const c = optional.get(key);
      if (c !== undefined && (c.absent || !valueHolds(c, labels[key]!))) return false;
    }
    return true;
  };
}

/** `s` without the blanks the lexer skips (space, tab, CR, LF; not the wider set `String.trim` takes). */
const goTrim = (s: string): string => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

/** Parses a Kubernetes label selector (`a=b,c!=d,e in (x,y),!f,g`) with Kubernetes' grammar and messages. */
export function parseLabelSelector(s: string | undefined): LabelSelector {
  const src = s ?? '';
  const trimmed = goTrim(src);
  const reqs = trimmed ? new Parser(src).parse() : [];
  const match = compileMatcher(reqs);
  return {
    empty: reqs.length === 0,
    requirements: reqs,
    matches: (labels) => match(labels ?? {}),
    toString: () => trimmed,
  };
}
