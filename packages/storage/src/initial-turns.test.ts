import { describe, expect, it } from '@jest/globals';
import { InitialTurns, initialTurns } from './initial-turns.js';
import { MemoryStorage } from './index.js';
import type { StorageWatchEvent } from './index.js';
import { keyOf, testObject, type TestObject } from './testing/index.js';

/** Counts turns of the event loop: a setImmediate chain, one step per check phase. */
function turnCounter(): { readonly turn: number; stop(): void } {
  let turn = 0;
  let stopped = false;
  const step = (): void => {
    if (stopped) return;
    turn++;
    setImmediate(step);
  };
  setImmediate(step);
  return {
    get turn() {
      return turn;
    },
    stop: () => (stopped = true),
  };
}

describe('InitialTurns', () => {
  it('grants at most perTurn takers per turn of the event loop, in the order they asked, never in the current turn', async () => {
    const turns = new InitialTurns(2);
    const order: number[] = [];
    let synchronous = true;
    const all = Array.from({ length: 7 }, (_, i) =>
      turns.take().then(() => {
        expect(synchronous).toBe(false);
        order.push(i);
      }),
    );
    synchronous = false;
    expect(turns.waiting).toBe(7);
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([0, 1]);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(turns.waiting).toBe(0);
  });

  it('refuses a budget that is not a positive integer', () => {
    expect(() => new InitialTurns(0)).toThrow(RangeError);
    expect(() => new InitialTurns(1.5)).toThrow(RangeError);
  });
});

describe('initial events of many watches opened at once', () => {
  it('go out one batch per turn of the event loop across all watches, interleaved, each watch complete and in order', async () => {
    const s = new MemoryStorage({ watchBatchIntervalMs: 0 });
    const objects = 600;
    for (let i = 0; i < objects; i++) await s.create(keyOf('ns', `o${i}`), testObject('ns', `o${i}`));
    const watches = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.watch<TestObject>({ resource: 'events', namespace: 'ns' }, { sendInitialEvents: true }),
      ),
    );
    const counter = turnCounter();
    const perTurn = new Map<number, number>();
    const seen = watches.map(() => [] as string[]);
    const order: number[] = [];
    const done = watches.map((w, i) =>
      w.consume((batch: readonly StorageWatchEvent<TestObject>[]) => {
        perTurn.set(counter.turn, (perTurn.get(counter.turn) ?? 0) + 1);
        order.push(i);
        for (const e of batch) seen[i]!.push(e.type === 'BOOKMARK' ? 'BOOKMARK' : e.object.metadata.name!);
        if (seen[i]!.length === objects) w.stop();
      }),
    );
    await Promise.all(done);
    counter.stop();
    const names = Array.from({ length: objects }, (_, i) => `o${i}`).sort();
    for (const got of seen) expect(got).toEqual(names);
    expect(Math.max(...perTurn.values())).toBe(initialTurns.perTurn);
    // 600 objects in batches of 256: three batches each, taken in turn by the five watches.
    expect(order).toEqual([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
    await s.close();
  });
});
