import { goQuote, parseJson } from '@kevents/api';
import { badRequest } from '../../errors/api-error.js';

/** The fields of kube's `jsonPatchOp` (handlers/patch.go), by their JSON names. */
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
export function strictJSONPatchErrors(text: string): string[] {
  return new StrictPatchReader(text).read();
}

class StrictPatchReader {
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
