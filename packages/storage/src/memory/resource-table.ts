import { SortedIndex } from './sorted-index.js';

/** One revision of a key: its body, or `undefined` for a deletion (tombstone). */
export interface Version {
  readonly rv: number;
  readonly body: string | undefined;
}

/**
 * A key and its retained revisions, oldest first. Revisions newer than the compacted
 * resourceVersion are all kept, plus the newest one at or below it; a key whose only revision is
 * a compacted tombstone has no versions ("dead") until the table drops it.
 */
export interface KeyEntry {
  readonly key: string;
  readonly resource: string;
  readonly namespace: string;
  versions: Version[];
}

/** A revision that is not a tombstone. */
export type LiveVersion = Version & { readonly body: string };

const isLive = (v: Version | undefined): v is LiveVersion => v?.body !== undefined;

/** Whether the newest revision is a tombstone. */
export function isDeleted(entry: KeyEntry): boolean {
  const n = entry.versions.length;
  return n > 0 && entry.versions[n - 1].body === undefined;
}

/** The newest revision when it is not a tombstone. */
export function live(entry: KeyEntry | undefined): LiveVersion | undefined {
  const v = entry?.versions[entry.versions.length - 1];
  return isLive(v) ? v : undefined;
}

/** The revision visible at `rv` when it is not a tombstone. */
export function liveAt(entry: KeyEntry | undefined, rv: number): LiveVersion | undefined {
  const vs = entry?.versions ?? [];
  for (let i = vs.length - 1; i >= 0; i--) {
    const v = vs[i];
    if (v.rv <= rv) return isLive(v) ? v : undefined;
  }
  return undefined;
}

/** The storage key of an object: `<namespace>/<name>`, or `<name>` when cluster-scoped. */
export const storageKey = (namespace: string, name: string): string =>
  namespace === '' ? name : `${namespace}/${name}`;

/**
 * The keys of one resource: a map for point access and a {@link SortedIndex} for lists. A new
 * key enters both at once; a key whose only revision is a compacted tombstone leaves both.
 * `deleted` indexes the keys whose newest revision is a tombstone, so that counting the live
 * keys of a range costs two binary searches per index.
 */
export class ResourceTable {
  readonly entries = new Map<string, KeyEntry>();
  readonly index = new SortedIndex<KeyEntry>();
  readonly deleted = new SortedIndex<KeyEntry>();
  /** One string per namespace name, shared by its entries. */
  private readonly namespaces = new Map<string, string>();

  /** Adds a revision to an entry of this table, keeping `deleted` up to date. */
  push(e: KeyEntry, v: Version): void {
    const was = isDeleted(e);
    // A fresh array of the exact size: a push would reserve room for 16 revisions on the first.
    e.versions = e.versions.length === 0 ? [v] : [...e.versions, v];
    if (v.body === undefined && !was) this.deleted.insert(e);
    else if (v.body !== undefined && was) this.deleted.remove(e);
  }

  /** The entry of a key, created (and indexed) when absent. */
  entry(resource: string, namespace: string, key: string): KeyEntry {
    let e = this.entries.get(key);
    if (e === undefined) {
      let ns = this.namespaces.get(namespace);
      if (ns === undefined) this.namespaces.set(namespace, (ns = namespace));
      e = { key, resource, namespace: ns, versions: [] };
      this.entries.set(key, e);
      this.index.insert(e);
    }
    return e;
  }

  /** Forgets an entry that compaction left without versions. */
  drop(e: KeyEntry): void {
    if (this.entries.get(e.key) !== e) return;
    this.entries.delete(e.key);
    this.index.remove(e);
    this.deleted.remove(e);
  }
}
