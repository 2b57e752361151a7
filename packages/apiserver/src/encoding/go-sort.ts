/**
 * Go's `sort.Sort` (pattern-defeating quicksort, Go 1.19 and later), reimplemented so that an
 * order Go leaves unspecified comes out the same: with a `less` that is not a strict weak order
 * (goautoneg's), which elements end up where depends on every comparison and swap Go makes, so
 * this makes the same ones, in the same order.
 */

/** How `breakPatterns` draws its positions: Go 1.19's xorshift shifts (13, 17, 5), or those since golang/go#70144 (13, 7, 17). */
export type GoXorshift = 'go1.19' | 'go1.24';

const mask64 = (1n << 64n) - 1n;
const shiftsOf: Record<GoXorshift, readonly [bigint, bigint, bigint]> = {
  'go1.19': [13n, 17n, 5n],
  'go1.24': [13n, 7n, 17n],
};

/** `bits.Len`: the number of bits of a non-negative integer. */
const bitLength = (n: number): number => (n === 0 ? 0 : 32 - Math.clz32(n));

/** `sortedHint`: what choosing the pivot saw of the range's order. */
const Hint = { Unknown: 0, Increasing: 1, Decreasing: 2 } as const;
type Hint = (typeof Hint)[keyof typeof Hint];

class GoSorter<T> {
  private readonly data: T[];
  private readonly lessThan: (a: T, b: T) => boolean;
  private readonly shifts: readonly [bigint, bigint, bigint];

  constructor(data: T[], lessThan: (a: T, b: T) => boolean, shifts: readonly [bigint, bigint, bigint]) {
    this.data = data;
    this.lessThan = lessThan;
    this.shifts = shifts;
  }

  less(i: number, j: number): boolean {
    return this.lessThan(this.data[i]!, this.data[j]!);
  }

  swap(i: number, j: number): void {
    const d = this.data;
    const t = d[i]!;
    d[i] = d[j]!;
    d[j] = t;
  }

  insertionSort(a: number, b: number): void {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && this.less(j, j - 1); j--) this.swap(j, j - 1);
  }

  siftDown(lo: number, hi: number, first: number): void {
    let root = lo;
    for (;;) {
      let child = 2 * root + 1;
      if (child >= hi) return;
      if (child + 1 < hi && this.less(first + child, first + child + 1)) child++;
      if (!this.less(first + root, first + child)) return;
      this.swap(first + root, first + child);
      root = child;
    }
  }

  heapSort(a: number, b: number): void {
    const hi = b - a;
    for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) this.siftDown(i, hi, a);
    for (let i = hi - 1; i >= 0; i--) {
      this.swap(a, a + i);
      this.siftDown(0, i, a);
    }
  }

  pdqsort(a: number, b: number, limit: number): void {
    let wasBalanced = true;
    let wasPartitioned = true;
    for (;;) {
      const length = b - a;
      if (length <= insertionSortMax) return this.insertionSort(a, b);
      if (limit === 0) return this.heapSort(a, b);
      if (!wasBalanced) {
        this.breakPatterns(a, b);
        limit--;
      }
      let [pivot, hint]: [number, Hint] = this.choosePivot(a, b);
      if (hint === Hint.Decreasing) {
        this.reverseRange(a, b);
        pivot = b - 1 - (pivot - a);
        hint = Hint.Increasing;
      }
      if (wasBalanced && wasPartitioned && hint === Hint.Increasing && this.partialInsertionSort(a, b)) return;
      if (a > 0 && !this.less(a - 1, pivot)) {
        a = this.partitionEqual(a, b, pivot);
        continue;
      }
      const [mid, alreadyPartitioned] = this.partition(a, b, pivot);
      wasPartitioned = alreadyPartitioned;
      const leftLen = mid - a;
      const rightLen = b - mid;
      const balanceThreshold = Math.trunc(length / 8);
      if (leftLen < rightLen) {
        wasBalanced = leftLen >= balanceThreshold;
        this.pdqsort(a, mid, limit);
        a = mid + 1;
      } else {
        wasBalanced = rightLen >= balanceThreshold;
        this.pdqsort(mid + 1, b, limit);
        b = mid;
      }
    }
  }

  partition(a: number, b: number, pivot: number): [number, boolean] {
    this.swap(a, pivot);
    let i = a + 1;
    let j = b - 1;
    while (i <= j && this.less(i, a)) i++;
    while (i <= j && !this.less(j, a)) j--;
    if (i > j) {
      this.swap(j, a);
      return [j, true];
    }
    this.swap(i, j);
    i++;
    j--;
    for (;;) {
      while (i <= j && this.less(i, a)) i++;
      while (i <= j && !this.less(j, a)) j--;
      if (i > j) break;
      this.swap(i, j);
      i++;
      j--;
    }
    this.swap(j, a);
    return [j, false];
  }

  partitionEqual(a: number, b: number, pivot: number): number {
    this.swap(a, pivot);
    let i = a + 1;
    let j = b - 1;
    for (;;) {
      while (i <= j && !this.less(a, i)) i++;
      while (i <= j && this.less(a, j)) j--;
      if (i > j) return i;
      this.swap(i, j);
      i++;
      j--;
    }
  }

  partialInsertionSort(a: number, b: number): boolean {
    const maxSteps = 5;
    const shortestShifting = 50;
    let i = a + 1;
    for (let step = 0; step < maxSteps; step++) {
      while (i < b && !this.less(i, i - 1)) i++;
      if (i === b) return true;
      if (b - a < shortestShifting) return false;
      this.swap(i, i - 1);
      if (i - a >= 2) {
        for (let j = i - 1; j >= 1; j--) {
          if (!this.less(j, j - 1)) break;
          this.swap(j, j - 1);
        }
      }
      if (b - i >= 2) {
        for (let j = i + 1; j < b; j++) {
          if (!this.less(j, j - 1)) break;
          this.swap(j, j - 1);
        }
      }
    }
    return false;
  }

  breakPatterns(a: number, b: number): void {
    const length = b - a;
    if (length < 8) return;
    const [s1, s2, s3] = this.shifts;
    let random = BigInt(length);
    const modulus = BigInt(2 ** bitLength(length));
    const middle = a + Math.trunc(length / 4) * 2;
    for (let idx = middle - 1; idx <= middle + 1; idx++) {
      random ^= (random << s1) & mask64;
      random ^= random >> s2;
      random ^= (random << s3) & mask64;
      let other = Number(random & (modulus - 1n));
      if (other >= length) other -= length;
      this.swap(idx, a + other);
    }
  }

  choosePivot(a: number, b: number): [number, Hint] {
    const shortestNinther = 50;
    const maxSwaps = 4 * 3;
    const l = b - a;
    const quarter = Math.trunc(l / 4);
    const swaps = { n: 0 };
    let i = a + quarter;
    let j = a + quarter * 2;
    let k = a + quarter * 3;
    if (l >= 8) {
      if (l >= shortestNinther) {
        i = this.median(i - 1, i, i + 1, swaps);
        j = this.median(j - 1, j, j + 1, swaps);
        k = this.median(k - 1, k, k + 1, swaps);
      }
      j = this.median(i, j, k, swaps);
    }
    if (swaps.n === 0) return [j, Hint.Increasing];
    if (swaps.n === maxSwaps) return [j, Hint.Decreasing];
    return [j, Hint.Unknown];
  }

  /** `median` with its three `order2` steps: the index of the median of three, swaps counted. */
  median(a: number, b: number, c: number, swaps: { n: number }): number {
    if (this.less(b, a)) {
      swaps.n++;
      [a, b] = [b, a];
    }
    if (this.less(c, b)) {
      swaps.n++;
      [b, c] = [c, b];
    }
    if (this.less(b, a)) {
      swaps.n++;
      [a, b] = [b, a];
    }
    return b;
  }

  reverseRange(a: number, b: number): void {
    for (let i = a, j = b - 1; i < j; i++, j--) this.swap(i, j);
  }
}

/** The most elements Go's pdqsort orders by insertion (`maxInsertion`). */
const insertionSortMax = 12;

/**
 * Sorts `data` in place as Go's `sort.Sort` does with `less` as the interface's `Less`: the same
 * comparisons and swaps, so the same order whatever `less` is (n log n comparisons, as Go).
 * `xorshift` picks the Go release's pattern breaker (default: Go 1.24 and later, what current
 * kube-apiserver is built with).
 */
export function goSort<T>(data: T[], less: (a: T, b: T) => boolean, xorshift: GoXorshift = 'go1.24'): void {
  const n = data.length;
  if (n <= 1) return;
  new GoSorter(data, less, shiftsOf[xorshift]).pdqsort(0, n, bitLength(n));
}
