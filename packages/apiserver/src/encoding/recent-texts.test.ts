import { describe, expect, it } from '@jest/globals';
import { RecentTexts } from './recent-texts.js';

describe('RecentTexts', () => {
  it('gives back the text of a resourceVersion until a later one takes its slot', () => {
    const recent = new RecentTexts(4);
    let encoded = 0;
    const text = (rv: number) => recent.get(rv, () => (encoded++, `t${rv}`));
    expect(text(1)).toBe('t1');
    expect(text(1)).toBe('t1');
    expect(encoded).toBe(1);
    expect(recent.peek(1)).toBe('t1');
    text(2);
    text(3);
    text(4);
    expect(recent.peek(1)).toBe('t1');
    text(5);
    expect(recent.peek(1)).toBeUndefined();
    expect(recent.peek(5)).toBe('t5');
    expect(recent.peek(9)).toBeUndefined();
    expect(encoded).toBe(5);
  });

  it('never answers for a resourceVersion it was not given', () => {
    const recent = new RecentTexts(8);
    for (let rv = 1; rv <= 100; rv += 3) recent.get(rv, () => `t${rv}`);
    for (let rv = 1; rv <= 120; rv++) {
      const t = recent.peek(rv);
      if (t !== undefined) expect(t).toBe(`t${rv}`);
    }
    expect(recent.peek(0)).toBeUndefined();
  });
});
