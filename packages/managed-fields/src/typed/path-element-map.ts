import { comparePathElements } from '../fieldpath/path-element.js';
import type { PathElement } from '../fieldpath/path-element.js';

/** A map keyed by path elements (`fieldpath.PathElementValueMap`), ordered for lookups. */
export class PathElementMap<V> {
  private readonly keys: PathElement[] = [];
  private readonly values: V[] = [];

  private find(pe: PathElement): [number, boolean] {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = comparePathElements(this.keys[mid]!, pe);
      if (c === 0) return [mid, true];
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return [lo, false];
  }

  /** Whether `pe` has a value. */
  has(pe: PathElement): boolean {
    return this.find(pe)[1];
  }

  /** The value of `pe`, if any. */
  get(pe: PathElement): V | undefined {
    const [at, found] = this.find(pe);
    return found ? this.values[at] : undefined;
  }

  /** Sets the value of `pe`. */
  set(pe: PathElement, value: V): void {
    const [at, found] = this.find(pe);
    if (found) this.values[at] = value;
    else {
      this.keys.splice(at, 0, pe);
      this.values.splice(at, 0, value);
    }
  }
}
