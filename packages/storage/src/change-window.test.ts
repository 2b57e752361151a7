import { describe, expect, it } from '@jest/globals';
import { ChangeWindow, contiguousAfter, windowChangeSource } from './change-window.js';
import type { LoggedChange } from './watch-event.js';

const change = (rv: number): LoggedChange => ({
  type: 'ADDED',
  rv,
  resource: 'events',
  namespace: 'ns',
  body: `{"n":${rv}}`,
});

/** A window fed by hand. */
class TestWindow extends ChangeWindow<LoggedChange> {
  add(...rvs: number[]): void {
    for (const rv of rvs) this.append(change(rv));
    this.waiters.notify();
  }

  startAt(rv: number): void {
    this.reset(rv);
  }
}

const rvsOf = (changes: readonly LoggedChange[]): number[] => changes.map((c) => c.rv);

describe('ChangeWindow', () => {
  it('keeps the newest `limit` changes in order and gives the watches reading from one point the same frozen slice', () => {
    const w = new TestWindow(3, 0);
    w.add(1, 2, 3, 4, 2);
    expect([w.base, w.head]).toEqual([1, 4]);
    const a = w.slice(0, 10);
    expect(rvsOf(a)).toEqual([2, 3, 4]);
    expect(Object.isFrozen(a)).toBe(true);
    expect(w.slice(1, 10)).toBe(a);
    expect(rvsOf(w.slice(2, 1))).toEqual([3]);
    expect(w.slice(4, 10)).toHaveLength(0);
  });

  it('starts over after a gap, and never gives a slice kept from before it', () => {
    const w = new TestWindow(10, 0);
    w.startAt(5);
    w.add(6, 7);
    const before = w.slice(5, 10);
    w.add(10, 11);
    expect([w.base, w.head]).toEqual([9, 11]);
    const after = w.slice(5, 10);
    expect(rvsOf(after)).toEqual([10, 11]);
    expect(rvsOf(before)).toEqual([6, 7]);
    w.startAt(9);
    w.add(10, 11);
    const again = w.slice(5, 10);
    expect(again).not.toBe(after);
    expect(rvsOf(again)).toEqual([10, 11]);
  });

  it('drops compacted changes up to its head', () => {
    const w = new TestWindow(10, 0);
    w.add(1, 2, 3);
    w.compactTo(2);
    expect(rvsOf(w.slice(0, 10))).toEqual([3]);
    w.compactTo(9);
    expect([w.base, w.head]).toEqual([3, 3]);
  });

  it('wakes each waiter once after the next change, unless it was cancelled', () => {
    const w = new TestWindow(10, 0);
    const woken: string[] = [];
    const b = (): number => woken.push('b');
    w.onNext(() => woken.push('a'));
    w.onNext(b);
    w.cancel(b);
    w.add(1);
    w.add(2);
    expect(woken).toEqual(['a']);
  });
});

describe('windowChangeSource', () => {
  it('reads the window when the cursor is in it, the store behind it otherwise, and runs the check before each read', async () => {
    const w = new TestWindow(2, 0);
    w.add(1, 2, 3, 4);
    const behind: number[] = [];
    let checks = 0;
    const source = windowChangeSource(
      w,
      (cursor) => {
        behind.push(cursor);
        return Promise.resolve([change(cursor + 1)]);
      },
      1,
      () => {
        if (++checks > 3) throw new Error('ended');
      },
    );
    expect(rvsOf(await source.read(0))).toEqual([1]);
    expect(rvsOf(await source.read(2))).toEqual([3]);
    expect(await source.read(4)).toHaveLength(0);
    expect(behind).toEqual([0]);
    expect(() => source.read(3)).toThrow('ended');
  });
});

describe('contiguousAfter', () => {
  it('takes the changes that follow the cursor up to the first gap', () => {
    expect(rvsOf(contiguousAfter(4, [change(5), change(6), change(8)]))).toEqual([5, 6]);
    expect(contiguousAfter(4, [change(6)])).toEqual([]);
  });
});
