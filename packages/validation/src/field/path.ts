/**
 * A structural path into a document, printed the way Kubernetes prints `field.Path`:
 * `metadata.name`, `items[0].spec`, `extra[example.com/key]`.
 */
export class FieldPath {
  readonly #parent: FieldPath | undefined;
  readonly #name: string;
  readonly #index: string | undefined;

  private constructor(parent: FieldPath | undefined, name: string, index?: string) {
    this.#parent = parent;
    this.#name = name;
    this.#index = index;
  }

  /** Starts a path at a root field name (`newPath("metadata")` in Go). */
  static root(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(undefined, name);
    for (const m of more) p = p.child(m);
    return p;
  }

  /** The path of a named child field. */
  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(this, name);
    for (const m of more) p = p.child(m);
    return p;
  }

  /** The path of a list element: `parent[3]`. */
  index(i: number): FieldPath {
    return new FieldPath(this, '', String(i));
  }

  /** The path of a map entry: `parent[key]`. */
  key(k: string): FieldPath {
    return new FieldPath(this, '', k);
  }

  toString(): string {
    const parts: string[] = [this.#segment()];
    for (let p = this.#parent; p; p = p.#parent) parts.push(p.#segment());
    let out = '';
    for (const s of parts.reverse()) {
      if (s.startsWith('[') || out === '') out += s;
      else out += `.${s}`;
    }
    return out;
  }

  #segment(): string {
    return this.#index === undefined ? this.#name : `[${this.#index}]`;
  }
}
