import { comparePathElements } from './path-element.js';
import type { PathElement } from './path-element.js';
import type { Path } from './path.js';
import { pathString } from './path.js';

/** A child node: the fields under one path element. */
export interface SetNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

function search<T>(items: readonly T[], pe: PathElement, key: (t: T) => PathElement): [number, boolean] {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = comparePathElements(key(items[mid]!), pe);
    if (c === 0) return [mid, true];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return [lo, false];
}

const self = (pe: PathElement): PathElement => pe;
const nodePe = (n: SetNode): PathElement => n.pe;

/**
 * A set of field paths, as structured-merge-diff's `fieldpath.Set`: a tree whose `members` are
 * the path elements that are in the set at this level and whose `children` hold the sets under
 * each element (being a child does not make an element a member). Both lists stay sorted by
 * `comparePathElements`, which is also the order FieldsV1 is written in.
 *
 * `insert` mutates; every other operation returns a new set and leaves its operands alone
 * (results may share unchanged subtrees with them, so treat sets as immutable once built).
 */
export class FieldSet {
  /** Members at this level, sorted. */
  members: PathElement[] = [];
  /** Child sets, sorted by their path element. */
  children: SetNode[] = [];

  /** A set of the given paths. */
  static of(...paths: readonly Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /**
   * The union of many sets, united pairwise in rounds: each path is copied once per round, so n
   * small sets cost about n log n, where folding them one by one into a growing set costs n².
   */
  static unionOf(sets: readonly FieldSet[]): FieldSet {
    if (sets.length === 0) return new FieldSet();
    let round = [...sets];
    while (round.length > 1) {
      const next: FieldSet[] = [];
      for (let i = 0; i < round.length; i += 2)
        next.push(i + 1 < round.length ? round[i]!.union(round[i + 1]!) : round[i]!);
      round = next;
    }
    return round[0]!;
  }

  /** Adds a path; parents are not added. The empty path (the whole object) is never tracked. */
  insert(path: Path): void {
    if (path.length === 0) return;
    const parent = path.slice(0, -1).reduce<FieldSet>((s, pe) => s.descend(pe), this);
    parent.insertMember(path[path.length - 1]!);
  }

  /** Adds one member at this level. */
  insertMember(pe: PathElement): void {
    const [at, found] = search(this.members, pe, self);
    if (!found) this.members.splice(at, 0, pe);
  }

  /** The child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    const [at, found] = search(this.children, pe, nodePe);
    if (found) return this.children[at]!.set;
    const set = new FieldSet();
    this.children.splice(at, 0, { pe, set });
    return set;
  }

  /** The child set under `pe`, if any. */
  child(pe: PathElement): FieldSet | undefined {
    const [at, found] = search(this.children, pe, nodePe);
    return found ? this.children[at]!.set : undefined;
  }

  /** Whether `pe` is a member at this level. */
  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self)[1];
  }

  /** Whether the path is a member of the set. */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    const parent = path.slice(0, -1).reduce<FieldSet | undefined>((s, pe) => s?.child(pe), this);
    return parent?.hasMember(path[path.length - 1]!) ?? false;
  }

  /** The subset under `pe`, without the prefix (`WithPrefix`); empty when none. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  /** No member at any depth. */
  empty(): boolean {
    return this.members.length === 0 && this.children.every((n) => n.set.empty());
  }

  /** The number of members at every depth. */
  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  /** Paths in either set. */
  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = mergeSorted(this.members, other.members, 'union');
    const a = this.children;
    const b = other.children;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) out.children.push(a[i++]!);
      else if (c > 0) out.children.push(b[j++]!);
      else {
        out.children.push({ pe: a[i]!.pe, set: a[i]!.set.union(b[j]!.set) });
        i++;
        j++;
      }
    }
    while (i < a.length) out.children.push(a[i++]!);
    while (j < b.length) out.children.push(b[j++]!);
    return out;
  }

  /** Whether the sets share a member path (their intersection is not empty), without building it. */
  intersects(other: FieldSet): boolean {
    const a = this.members;
    const b = other.members;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!, b[j]!);
      if (c === 0) return true;
      if (c < 0) i++;
      else j++;
    }
    const x = this.children;
    const y = other.children;
    i = 0;
    j = 0;
    while (i < x.length && j < y.length) {
      const c = comparePathElements(x[i]!.pe, y[j]!.pe);
      if (c < 0) i++;
      else if (c > 0) j++;
      else if (x[i++]!.set.intersects(y[j++]!.set)) return true;
    }
    return false;
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = mergeSorted(this.members, other.members, 'intersection');
    const a = this.children;
    const b = other.children;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) i++;
      else if (c > 0) j++;
      else {
        const res = a[i]!.set.intersection(b[j]!.set);
        if (!res.empty()) out.children.push({ pe: a[i]!.pe, set: res });
        i++;
        j++;
      }
    }
    return out;
  }

  /**
   * Paths in this set and not in `other`. A parent minus its child is the parent; a child minus
   * its parent is the child (only the exact members are taken away). This set itself when
   * `other` takes nothing away.
   */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = mergeSorted(this.members, other.members, 'difference');
    let same = out.members.length === this.members.length;
    const a = this.children;
    const b = other.children;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) out.children.push(a[i++]!);
      else if (c > 0) j++;
      else {
        const diff = a[i]!.set.difference(b[j]!.set);
        if (diff.empty()) same = false;
        else if (diff === a[i]!.set) out.children.push(a[i]!);
        else {
          same = false;
          out.children.push({ pe: a[i]!.pe, set: diff });
        }
        i++;
        j++;
      }
    }
    if (same) return this;
    while (i < a.length) out.children.push(a[i++]!);
    return out;
  }

  /** Like `difference`, but a member of `other` also takes away everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = mergeSorted(this.members, other.members, 'difference');
    const a = this.children;
    const b = other.children;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pe, b[j]!.pe);
      if (c < 0) {
        if (!other.hasMember(a[i]!.pe)) out.children.push(a[i]!);
        i++;
      } else if (c > 0) j++;
      else {
        if (!other.hasMember(a[i]!.pe)) {
          const diff = a[i]!.set.recursiveDifference(b[j]!.set);
          if (!diff.empty()) out.children.push({ pe: a[i]!.pe, set: diff });
        }
        i++;
        j++;
      }
    }
    for (; i < a.length; i++) if (!other.hasMember(a[i]!.pe)) out.children.push(a[i]!);
    return out;
  }

  /** Only the leaves: members that are not also parents of other members. */
  leaves(): FieldSet {
    const out = new FieldSet();
    let ic = 0;
    outer: for (const m of this.members) {
      while (ic < this.children.length) {
        const d = comparePathElements(m, this.children[ic]!.pe);
        if (d === 0) {
          ic++;
          continue outer;
        }
        if (d < 0) break;
        ic++;
      }
      out.members.push(m);
    }
    out.children = this.children.map((n) => ({ pe: n.pe, set: n.set.leaves() }));
    return out;
  }

  /** Same members at every depth (structural, as `Set.Equals`). */
  equals(other: FieldSet): boolean {
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++) {
      if (comparePathElements(this.members[i]!, other.members[i]!) !== 0) return false;
    }
    for (let i = 0; i < this.children.length; i++) {
      const x = this.children[i]!;
      const y = other.children[i]!;
      if (comparePathElements(x.pe, y.pe) !== 0 || !x.set.equals(y.set)) return false;
    }
    return true;
  }

  /** Every member path, preorder: this level's members, then each child's paths. */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (s: FieldSet, prefix: PathElement[]): void => {
      for (const m of s.members) out.push([...prefix, m]);
      for (const n of s.children) walk(n.set, [...prefix, n.pe]);
    };
    walk(this, []);
    return out;
  }

  /** One path per line, as `Set.String`. */
  toString(): string {
    return this.paths().map(pathString).join('\n');
  }
}

function mergeSorted(a: PathElement[], b: PathElement[], op: 'union' | 'intersection' | 'difference'): PathElement[] {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(a[i]!, b[j]!);
    if (c < 0) {
      if (op !== 'intersection') out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(b[j]!);
      j++;
    } else {
      if (op !== 'difference') out.push(a[i]!);
      i++;
      j++;
    }
  }
  if (op !== 'intersection') while (i < a.length) out.push(a[i++]!);
  if (op === 'union') while (j < b.length) out.push(b[j++]!);
  return out;
}
