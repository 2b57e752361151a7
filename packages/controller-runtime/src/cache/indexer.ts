import type { KubeObject } from '@kevents/api';

/** Maps an object to the index values it is listed under. */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** The cache key of an object: `namespace/name`, or `name` for cluster-scoped objects. */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name}` : obj.metadata.name!;
}

/** Splits a key made by {@link objectKey}. */
export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: undefined, name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/**
 * A thread-safe-by-construction (single-threaded) object cache keyed by `namespace/name`, with
 * named secondary indices kept up to date on every write (client-go's `cache.Indexer`).
 */
export class Indexer<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexFuncs = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  /** Adds an index; existing objects are indexed at once. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    this.indexFuncs.set(name, fn);
    const idx = new Map<string, Set<string>>();
    this.indices.set(name, idx);
    for (const [key, obj] of this.items) for (const v of fn(obj)) addTo(idx, v, key);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Stores (adds or replaces) an object; returns the previous one. */
  set(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexFuncs) for (const v of fn(obj)) addTo(this.indices.get(name)!, v, key);
    return old;
  }

  /** Removes an object by key; returns it. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  list(): T[] {
    return [...this.items.values()];
  }

  get size(): number {
    return this.items.size;
  }

  /** The objects listed under `value` in index `name`. */
  byIndex(name: string, value: string): T[] {
    const keys = this.indices.get(name)?.get(value);
    if (!keys) return [];
    return [...keys].map((k) => this.items.get(k)!);
  }

  /** The values of index `name` (for example every series key). */
  indexValues(name: string): string[] {
    return [...(this.indices.get(name)?.keys() ?? [])];
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexFuncs) {
      const idx = this.indices.get(name)!;
      for (const v of fn(obj)) {
        const s = idx.get(v);
        if (!s) continue;
        s.delete(key);
        if (s.size === 0) idx.delete(v);
      }
    }
  }
}

function addTo(idx: Map<string, Set<string>>, v: string, key: string): void {
  let s = idx.get(v);
  if (!s) idx.set(v, (s = new Set()));
  s.add(key);
}
