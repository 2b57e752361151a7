import type { JsonObject } from '../value/json-value.js';
import { fieldsV1ToSet, setToFieldsV1 } from './fields-v1.js';
import type { FieldSet } from './set.js';

/**
 * How much FieldsV1 text {@link FieldsV1Cache} keeps by default: characters, and texts. A set
 * takes ~8 bytes per character of its text, so the process's cache holds ~10 MB at most: the
 * 767 entries of an object at the values bound take 40 KB of text, the widest FieldsV1 ~200 KB.
 */
export const defaultFieldsV1CacheLimits = { chars: 1 << 20, texts: 1 << 13 } as const;

const deepFreeze = <V>(v: V): V => {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
};

/**
 * The field sets of FieldsV1 values already read, by their JSON text, and the FieldsV1 of sets
 * already written, by set. An object's managedFields come back from the store unchanged on every
 * write, so each entry's FieldsV1 is read once while it stays in the cache (least recently used
 * texts go first past the limits) and, when the write leaves its set alone, written once.
 *
 * The sets it hands out are shared: treat them as immutable (as every `FieldSet` operation but
 * `insert` does). The FieldsV1 objects it writes are shared and frozen.
 */
export class FieldsV1Cache {
  readonly #limits: { readonly chars: number; readonly texts: number };
  readonly #sets = new Map<string, FieldSet>();
  #chars = 0;
  readonly #written = new WeakMap<FieldSet, JsonObject>();

  constructor(limits: { readonly chars: number; readonly texts: number } = defaultFieldsV1CacheLimits) {
    this.#limits = limits;
  }

  /** `fieldsV1ToSet`, read once per text; throws its errors (which are not kept). */
  read(fields: unknown): FieldSet {
    let text: string | undefined;
    try {
      text = JSON.stringify(fields);
    } catch {
      return fieldsV1ToSet(fields);
    }
    if (text === undefined || text.length > this.#limits.chars) return fieldsV1ToSet(fields);
    const known = this.#sets.get(text);
    if (known !== undefined) {
      this.#sets.delete(text);
      this.#sets.set(text, known);
      return known;
    }
    const set = fieldsV1ToSet(fields);
    this.#keep(text, set);
    return set;
  }

  /**
   * `setToFieldsV1`, written once per set, frozen. Its text then reads as the set, so the write
   * after the one that wrote it finds the set and its FieldsV1 too.
   */
  write(set: FieldSet): JsonObject {
    const known = this.#written.get(set);
    if (known !== undefined) return known;
    const out = deepFreeze(setToFieldsV1(set));
    this.#written.set(set, out);
    const text = JSON.stringify(out);
    if (text.length <= this.#limits.chars) this.#keep(text, set);
    return out;
  }

  #keep(text: string, set: FieldSet): void {
    if (this.#sets.delete(text)) this.#chars -= text.length;
    this.#sets.set(text, set);
    this.#chars += text.length;
    for (const [k] of this.#sets) {
      if (this.#chars <= this.#limits.chars && this.#sets.size <= this.#limits.texts) break;
      this.#sets.delete(k);
      this.#chars -= k.length;
    }
  }

  /** Texts held, and their characters. */
  get size(): { readonly texts: number; readonly chars: number } {
    return { texts: this.#sets.size, chars: this.#chars };
  }
}

/** The process's {@link FieldsV1Cache}, which managedFields entries are read and written through. */
export const fieldsV1Cache: FieldsV1Cache = new FieldsV1Cache();
