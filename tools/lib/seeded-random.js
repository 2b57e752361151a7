// The seeded generator of the development checks (tools/*-oracle): a seed reproduces its cases.

/**
 * A small seeded PRNG (mulberry32): `next()` in [0, 1), `int(n)` in [0, n), `pick(xs)`, and
 * `chance(p)` (also `maybe(p = 0.5)`), true with probability p.
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n) => Math.floor(next() * n);
  const chance = (p) => next() < p;
  return { next, int, pick: (xs) => xs[int(xs.length)], chance, maybe: (p = 0.5) => chance(p) };
}
