import { SortedIndex, type Slot } from './sorted-index.js';

/** One revision of a key: its body, or `undefined` for a deletion (tombstone). */
export interface Version {
  readonly rv: number;
  readonly body: string | undefined;
}

/** The resource and namespace of keys: one object per pair, shared by their entries. */
export interface Scope {
  readonly resource: string;
  readonly namespace: string;
}

/**
 * A key and its retained revisions. Revisions newer than the compacted resourceVersion are all
 * kept, plus the newest one at or below it. The newest revision is held in the entry itself
 * (`rv`, `body`), older ones in `older` (oldest first, usually none): most keys have one
 * revision, and an array and an object per key would cost ~90 bytes. A key whose only revision
 * was a compacted tombstone has none (`rv` 0, "dead") and leaves the table.
 */
export interface KeyEntry {
  readonly key: string;
  /** Its resource and namespace (one pointer where two cost 8 bytes more a key). */
  readonly scope: Scope;
  /** The newest revision's resourceVersion; 0 while the key has no revision. */
  rv: number;
  /** The newest revision's body; undefined for a tombstone. */
  body: string | undefined;
  older: Version[] | undefined;
}

/**
 * A revision that is not a tombstone. It may be the key's entry itself (its newest revision):
 * read it at once, as the entry changes with the next write.
 */
export type LiveVersion = Version & { readonly body: string };

/** Whether the newest revision is a tombstone. */
export function isDeleted(entry: KeyEntry): boolean {
  return entry.rv > 0 && entry.body === undefined;
}

/** The newest revision when it is not a tombstone. */
export function live(entry: KeyEntry | undefined): LiveVersion | undefined {
  return entry !== undefined && entry.rv > 0 && entry.body !== undefined ? (entry as LiveVersion) : undefined;
}

/** The revision visible at `rv` when it is not a tombstone. */
export function liveAt(entry: KeyEntry | undefined, rv: number): LiveVersion | undefined {
  if (entry === undefined || entry.rv === 0) return undefined;
  if (entry.rv <= rv) return entry.body === undefined ? undefined : (entry as LiveVersion);
  const vs = entry.older;
  if (vs === undefined) return undefined;
  for (let i = vs.length - 1; i >= 0; i--) {
    const v = vs[i];
    if (v.rv <= rv) return v.body === undefined ? undefined : (v as LiveVersion);
  }
  return undefined;
}

/**
 * Compaction at change `rv` of this entry: forgets the revisions older than it. Returns whether
 * the entry is left with nothing but a tombstone (it is then dead and must leave its table).
 */
export function forgetBefore(entry: KeyEntry, rv: number): boolean {
  const vs = entry.older;
  if (vs !== undefined) {
    let drop = 0;
    while (drop < vs.length && vs[drop].rv < rv) drop++;
    if (drop === vs.length) entry.older = undefined;
    else if (drop > 0) entry.older = vs.slice(drop);
  }
  if (entry.older === undefined && entry.body === undefined && entry.rv > 0) {
    entry.rv = 0;
    return true;
  }
  return false;
}

/** The storage key of an object: `<namespace>/<name>`, or `<name>` when cluster-scoped. */
export const storageKey = (namespace: string, name: string): string =>
  namespace === '' ? name : `${namespace}/${name}`;

/**
 * The keys of one resource in a {@link SortedIndex}, for point access (a binary search: a `Map`
 * beside it would cost ~40 bytes a key) and for lists. A key whose only revision is a compacted
 * tombstone leaves it.
 * `deleted` indexes the keys whose newest revision is a tombstone, so that counting the live
 * keys of a range costs two binary searches per index.
 */
export class ResourceTable {
  readonly index = new SortedIndex<KeyEntry>();
  readonly deleted = new SortedIndex<KeyEntry>();
  /** One {@link Scope} per namespace, shared by its entries. */
  private readonly scopes = new Map<string, Scope>();

  /** The entry of a key, if the table has one. */
  get(key: string): KeyEntry | undefined {
    return this.index.find(key);
  }

  /** Adds a revision to an entry of this table, keeping `deleted` up to date. */
  push(e: KeyEntry, v: Version): void {
    const was = isDeleted(e);
    if (e.rv > 0) {
      const prev: Version = { rv: e.rv, body: e.body };
      // A fresh array of the exact size: a push would reserve room for 16 revisions.
      e.older = e.older === undefined ? [prev] : [...e.older, prev];
    }
    e.rv = v.rv;
    e.body = v.body;
    if (v.body === undefined && !was) this.deleted.insert(e);
    else if (v.body !== undefined && was) this.deleted.remove(e);
  }

  /** The entry of a key, created (and indexed) when absent. */
  entry(resource: string, namespace: string, key: string): KeyEntry {
    const slot = this.index.locate(key);
    return this.index.at(slot, key) ?? this.add(slot, resource, namespace, key);
  }

  /** Where a key is or would go in the index (see {@link SortedIndex.locate}). */
  locate(key: string): Slot {
    return this.index.locate(key);
  }

  /** The entry at a slot when it has this key. */
  at(slot: Slot, key: string): KeyEntry | undefined {
    return this.index.at(slot, key);
  }

  /** A new entry for a key not in the table, at the slot {@link locate} gave (no change since). */
  add(slot: Slot, resource: string, namespace: string, key: string): KeyEntry {
    let scope = this.scopes.get(namespace);
    if (scope === undefined || scope.resource !== resource)
      this.scopes.set(namespace, (scope = Object.freeze({ resource, namespace })));
    const e: KeyEntry = { key, scope, rv: 0, body: undefined, older: undefined };
    this.index.insertAt(slot, e);
    return e;
  }

  /** Forgets an entry that compaction left without versions. */
  drop(e: KeyEntry): void {
    if (!this.index.remove(e)) return;
    this.deleted.remove(e);
  }
}
