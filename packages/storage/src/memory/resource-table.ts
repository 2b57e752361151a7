/** One revision of a key: its body, or `undefined` for a deletion (tombstone). */
export interface Version {
  readonly rv: number;
  readonly body: string | undefined;
  readonly uid: string | undefined;
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

/** First index whose key is `>= key` in an array sorted by key. */
export function lowerBound(entries: readonly KeyEntry[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The keys of one resource: a map for point access and an array sorted by key for lists. New
 * entries land in an unsorted buffer that is sorted and merged on the next list, so a write
 * never pays for ordering; dead entries are dropped at the same time.
 */
export class ResourceTable {
  readonly entries = new Map<string, KeyEntry>();
  private ordered: KeyEntry[] = [];
  private pending: KeyEntry[] = [];
  private dead = 0;

  /** The entry of a key, created (and queued for the index) when absent. */
  entry(resource: string, namespace: string, key: string): KeyEntry {
    let e = this.entries.get(key);
    if (e === undefined) {
      e = { key, resource, namespace, versions: [] };
      this.entries.set(key, e);
      this.pending.push(e);
    } else if (e.versions.length === 0) {
      this.dead--;
    }
    return e;
  }

  /** Records that compaction left an entry without versions. */
  markDead(): void {
    this.dead++;
    if (this.dead > 1024 && this.dead * 2 > this.entries.size) this.sorted();
  }

  /** Every entry in byte order of keys, after merging new entries and dropping dead ones. */
  sorted(): readonly KeyEntry[] {
    if (this.dead > 0) {
      const alive = (e: KeyEntry): boolean => {
        if (e.versions.length > 0) return true;
        if (this.entries.get(e.key) === e) this.entries.delete(e.key);
        return false;
      };
      this.ordered = this.ordered.filter(alive);
      this.pending = this.pending.filter(alive);
      this.dead = 0;
    }
    if (this.pending.length > 0) {
      const add = this.pending.sort(byKey);
      this.pending = [];
      this.ordered = this.ordered.length === 0 ? add : merge(this.ordered, add);
    }
    return this.ordered;
  }
}

const byKey = (a: KeyEntry, b: KeyEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function merge(a: readonly KeyEntry[], b: readonly KeyEntry[]): KeyEntry[] {
  const out = new Array<KeyEntry>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i].key < b[j].key ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}
