import { describe, expect, it } from '@jest/globals';
import { randomUUID } from './random-uuid.js';

const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUUID', () => {
  it('gives canonical version 4 UUIDs, none twice, across many refills of its entropy', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const u = randomUUID();
      expect(u).toMatch(v4);
      seen.add(u);
    }
    expect(seen.size).toBe(20_000);
  });

  it('spreads every random hex digit over all its values', () => {
    // Each free digit position sees each of its 16 values ~1/16 of the time (the variant digit 4 values, ~1/4).
    const n = 16_000;
    const counts = Array.from({ length: 36 }, () => new Array<number>(16).fill(0));
    for (let i = 0; i < n; i++) {
      const u = randomUUID();
      for (let p = 0; p < 36; p++) if (u[p] !== '-') counts[p]![parseInt(u[p]!, 16)]!++;
    }
    for (let p = 0; p < 36; p++) {
      if (p === 8 || p === 13 || p === 18 || p === 23) continue;
      if (p === 14) expect(counts[p]![4]).toBe(n);
      else if (p === 19) for (const d of [8, 9, 10, 11]) expect(counts[p]![d]).toBeGreaterThan(n / 4 - 400);
      else for (const c of counts[p]!) expect(c).toBeGreaterThan(n / 16 - 300);
    }
  });

  it('returns strings of their own, not views of the buffer the next call rewrites', () => {
    const a = randomUUID();
    const copy = a.split('').join('');
    for (let i = 0; i < 300; i++) randomUUID();
    expect(a).toBe(copy);
  });
});
