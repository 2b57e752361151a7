/**
 * What decides the managedFields entries of a create (an `Update` against the kind's zero
 * value): the object's structure with every scalar reduced to whether it is its type's zero
 * (structured-merge-diff compares scalars only for equality, and the zero-value object holds
 * only zeros), member names (field and map keys) kept, and lists kept whole (set and map lists
 * own their items by value). Two objects of one shape get the same entries.
 */
export function createShape(v: unknown): string {
  if (v === null || v === undefined) return 'n';
  if (Array.isArray(v)) return JSON.stringify(v);
  switch (typeof v) {
    case 'object': {
      let s = '{';
      for (const k of Object.keys(v)) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) s += `${JSON.stringify(k)}:${createShape(x)},`;
      }
      return `${s}}`;
    }
    case 'string':
      return v === '' ? 'e' : 's';
    case 'number':
      return v === 0 ? '0' : 'd';
    case 'boolean':
      return v ? 't' : 'f';
    default:
      return 'u';
  }
}

/** The tokens of a shape besides member names and lists: one per letter of {@link createShape}, and `{`, `}`. */
const Token = {
  Nil: 0,
  EmptyString: 1,
  String: 2,
  Zero: 3,
  Number: 4,
  True: 5,
  False: 6,
  Other: 7,
  Open: 8,
  Close: 9,
} as const;
type Token = (typeof Token)[keyof typeof Token];

/** A node of the trie: where a walk of a shape's tokens got to. */
interface Node<V> {
  /** The member name last followed from here, and where it led (shapes repeat: no map lookup). */
  lastName: string | undefined;
  lastMember: Node<V> | undefined;
  /** Next: a member of the object being walked, by name. */
  members: Map<string, Node<V>> | undefined;
  /** Next: a scalar, an object's opening or its close, by {@link Token}. */
  tokens: (Node<V> | undefined)[] | undefined;
  /** Next: a list, by its JSON text. */
  lists: Map<string, Node<V>> | undefined;
  /** What is kept for the shape that ends here. */
  value: V | undefined;
}

/** Bounds of a {@link CreateShapes} (it starts over past either). */
export interface CreateShapesLimits {
  /** Shapes with a value. */
  readonly shapes: number;
  /** Trie nodes in all (a shape with large lists or many members takes more). */
  readonly nodes: number;
}

/**
 * Values by a key and an object's {@link createShape}, without writing the shape: the object is
 * walked down a trie whose edges are member names (strings that are usually internalized, so a
 * lookup hashes nothing), scalar classes and lists' JSON texts. A walk's path determines the
 * object's `createShape` text, so two objects reach one node only when their shapes are equal.
 */
export class CreateShapes<V> {
  readonly #limits: CreateShapesLimits;
  #roots = new Map<string, Node<V>>();
  #shapes = 0;
  #nodes = 0;

  constructor(limits: CreateShapesLimits) {
    this.#limits = limits;
  }

  /** The value kept for `key` and the shape of `obj`; `make` gives it (and it is kept) when there is none. */
  get(key: string, obj: unknown, make: () => V): V {
    let node = this.#walk(key, obj);
    if (node.value !== undefined) return node.value;
    if (this.#shapes >= this.#limits.shapes || this.#nodes > this.#limits.nodes) {
      this.#roots = new Map();
      this.#shapes = 0;
      this.#nodes = 0;
      node = this.#walk(key, obj);
    }
    node.value = make();
    this.#shapes++;
    return node.value;
  }

  #walk(key: string, obj: unknown): Node<V> {
    let root = this.#roots.get(key);
    if (root === undefined) {
      root = this.#node();
      this.#roots.set(key, root);
    }
    return this.#value(root, obj);
  }

  #node(): Node<V> {
    this.#nodes++;
    return {
      lastName: undefined,
      lastMember: undefined,
      members: undefined,
      tokens: undefined,
      lists: undefined,
      value: undefined,
    };
  }

  #member(at: Node<V>, name: string): Node<V> {
    if (at.lastName === name) return at.lastMember!;
    const members = (at.members ??= new Map());
    let next = members.get(name);
    if (next === undefined) members.set(name, (next = this.#node()));
    at.lastName = name;
    at.lastMember = next;
    return next;
  }

  #token(at: Node<V>, t: Token): Node<V> {
    const tokens = (at.tokens ??= []);
    return (tokens[t] ??= this.#node());
  }

  #value(at: Node<V>, v: unknown): Node<V> {
    if (v === null || v === undefined) return this.#token(at, Token.Nil);
    if (Array.isArray(v)) {
      const text = JSON.stringify(v);
      const lists = (at.lists ??= new Map());
      let next = lists.get(text);
      if (next === undefined) lists.set(text, (next = this.#node()));
      return next;
    }
    switch (typeof v) {
      case 'object': {
        let node = this.#token(at, Token.Open);
        // Names and values in two arrays: reading each member by name would go through one
        // megamorphic site for every kind of object walked.
        const names = Object.keys(v);
        const values = Object.values(v) as unknown[];
        for (let i = 0; i < names.length; i++) {
          const x = values[i];
          if (x !== undefined) node = this.#value(this.#member(node, names[i]!), x);
        }
        return this.#token(node, Token.Close);
      }
      case 'string':
        return this.#token(at, v === '' ? Token.EmptyString : Token.String);
      case 'number':
        return this.#token(at, v === 0 ? Token.Zero : Token.Number);
      case 'boolean':
        return this.#token(at, v ? Token.True : Token.False);
      default:
        return this.#token(at, Token.Other);
    }
  }
}
