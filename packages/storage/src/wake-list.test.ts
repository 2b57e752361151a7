import { describe, expect, it } from '@jest/globals';
import { WakeList } from './wake-list.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Lets the event loop turn `n` times: a timer may fire before a queued immediate on a loaded
 * machine, so waiting for the queue's chunks counts turns instead of milliseconds.
 */
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('WakeList', () => {
  it('wakes every waiter once, at once after a quiet spell', () => {
    const list = new WakeList(50);
    const woken: string[] = [];
    list.add(() => woken.push('a'));
    list.add(() => woken.push('b'));
    list.notify();
    expect(woken).toEqual(['a', 'b']);
    list.notify();
    expect(woken).toEqual(['a', 'b']);
  });

  it('defers a wake-up that comes within the interval of the last one, and folds notifications into it', async () => {
    const list = new WakeList(40);
    let wakes = 0;
    const waiter = (): void => {
      wakes++;
    };
    list.add(waiter);
    list.notify();
    expect(wakes).toBe(1);
    list.add(waiter);
    list.notify();
    list.notify();
    list.notify();
    expect(wakes).toBe(1);
    await sleep(20);
    expect(wakes).toBe(1);
    await sleep(40);
    expect(wakes).toBe(2);
  });

  it('does not wake a withdrawn waiter, and wakeNow skips the interval', async () => {
    const list = new WakeList(1000);
    const woken: string[] = [];
    const a = (): void => void woken.push('a');
    list.add(a);
    list.notify();
    list.add(a);
    list.add(() => woken.push('b'));
    list.notify();
    list.delete(a);
    list.wakeNow();
    expect(woken).toEqual(['a', 'b']);
  });

  it('with interval 0 wakes on every notification', () => {
    const list = new WakeList(0);
    let wakes = 0;
    for (let i = 0; i < 3; i++) {
      list.add(() => void wakes++);
      list.notify();
    }
    expect(wakes).toBe(3);
  });

  it('wakes many waiters 16 at a time, letting the event loop turn in between', async () => {
    const list = new WakeList(0);
    let woken = 0;
    for (let i = 0; i < 40; i++) list.add(() => void woken++);
    list.notify();
    expect(woken).toBe(16);
    await new Promise((r) => setImmediate(r));
    expect(woken).toBe(32);
    await turns(4);
    expect(woken).toBe(40);
  });

  it('queues a wake-up during a fan-out behind the waiters still waiting, in the order they were woken', async () => {
    const list = new WakeList(0);
    const woken: string[] = [];
    const waiter = (name: string): (() => void) => {
      const fn = (): void => {
        woken.push(name);
        list.add(fn);
      };
      return fn;
    };
    for (let i = 0; i < 20; i++) list.add(waiter(`w${i}`));
    list.notify();
    expect(woken).toHaveLength(16);
    list.notify();
    expect(woken).toHaveLength(16);
    await turns(4);
    const first = Array.from({ length: 20 }, (_, i) => `w${i}`);
    expect(woken).toEqual([...first, ...first.slice(0, 16)]);
    list.wakeNow();
    await turns(4);
    expect(woken.slice(36)).toEqual([...first.slice(16), ...first.slice(0, 16)]);
  });

  it('goes on with the queue when a waiter throws', async () => {
    const list = new WakeList(0);
    const woken: number[] = [];
    list.add(() => {
      throw new Error('boom');
    });
    for (let i = 0; i < 3; i++) list.add(() => void woken.push(i));
    expect(() => list.notify()).toThrow('boom');
    await turns(4);
    expect(woken).toEqual([0, 1, 2]);
  });

  it('keeps its order under wake-ups that never let the queue run empty', async () => {
    const list = new WakeList(0);
    const calls: number[] = [];
    const waiters = Array.from({ length: 3000 }, (_, i) => {
      const fn = (): void => {
        calls.push(i);
        list.add(fn);
      };
      return fn;
    });
    for (const fn of waiters) list.add(fn);
    for (let round = 0; round < 5; round++) {
      list.notify();
      await turns(40);
    }
    let n = -1;
    while (n !== calls.length) {
      n = calls.length;
      await turns(10);
    }
    expect(calls.length).toBeGreaterThan(3000 + 4 * 600);
    expect(calls.every((w, k) => w === k % 3000)).toBe(true);
  });
});
