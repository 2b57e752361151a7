import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { coalesceBatch, coalesceWrites } from './coalesce.js';
import { RedisServer } from './testing/index.js';

let server: RedisServer;
let client: Redis;

beforeAll(async () => {
  server = await RedisServer.start();
  client = new Redis(server.url, { lazyConnect: true });
  await client.connect();
});

afterAll(async () => {
  client.disconnect();
  await server.stop();
});

/** Counts the socket's write system calls (`_writev` for several chunks, `_write` for one). */
function countWrites(): { calls: () => number; restore: () => void } {
  const socket = client.stream as unknown as Record<string, (...a: unknown[]) => unknown>;
  const original = { write: socket['_write']!, writev: socket['_writev'] };
  let calls = 0;
  socket['_write'] = function (this: unknown, ...a: unknown[]) {
    calls++;
    return original.write.apply(this, a);
  };
  if (original.writev) {
    socket['_writev'] = function (this: unknown, ...a: unknown[]) {
      calls++;
      return original.writev!.apply(this, a);
    };
  }
  return {
    calls: () => calls,
    restore: () => {
      socket['_write'] = original.write;
      if (original.writev) socket['_writev'] = original.writev;
    },
  };
}

describe('coalesceWrites', () => {
  it('sends the commands issued in one synchronous run in one write, in order, each with its reply', async () => {
    expect(coalesceBatch).toBe(8);
    const w = countWrites();
    try {
      const replies: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++) {
        coalesceWrites(client);
        replies.push(client.set(`k${i}`, String(i)));
        coalesceWrites(client);
        replies.push(client.incr('counter'));
      }
      const out = await Promise.all(replies);
      expect(out.filter((_, i) => i % 2 === 0)).toEqual(Array(20).fill('OK'));
      expect(out.filter((_, i) => i % 2 === 1)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(w.calls()).toBe(1);
    } finally {
      w.restore();
    }
    expect(await client.mget('k0', 'k19')).toEqual(['0', '19']);
  });

  it('sends a full batch before the turn ends, and holds the rest until it does', async () => {
    const w = countWrites();
    const corked = (): number => (client.stream as unknown as { writableCorked: number }).writableCorked;
    try {
      const replies: Promise<unknown>[] = [];
      const issue = (): void => {
        coalesceWrites(client);
        replies.push(client.incr('batch'));
      };
      for (let i = 0; i < coalesceBatch - 1; i++) issue();
      await new Promise<void>((r) => process.nextTick(r));
      expect(w.calls()).toBe(0);
      expect(corked()).toBe(1);
      issue();
      await new Promise<void>((r) => process.nextTick(r));
      expect(w.calls()).toBe(1);
      expect(corked()).toBe(0);
      issue();
      await new Promise<void>((r) => process.nextTick(r));
      expect(w.calls()).toBe(1);
      expect(corked()).toBe(1);
      await new Promise<void>((r) => setImmediate(r));
      expect(w.calls()).toBe(2);
      expect(corked()).toBe(0);
      expect(await Promise.all(replies)).toEqual(Array.from({ length: coalesceBatch + 1 }, (_, i) => i + 1));
    } finally {
      w.restore();
    }
  });

  it('writes each command at once when not asked to coalesce (what it saves)', async () => {
    const w = countWrites();
    try {
      await Promise.all(Array.from({ length: 5 }, (_, i) => client.set(`j${i}`, 'x')));
      expect(w.calls()).toBe(5);
    } finally {
      w.restore();
    }
  });

  it('leaves the socket uncorked after the turn, so later commands are not held', async () => {
    coalesceWrites(client);
    await client.ping();
    expect((client.stream as unknown as { writableCorked: number }).writableCorked).toBe(0);
    expect(await client.ping()).toBe('PONG');
  });
});
