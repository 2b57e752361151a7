import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isStorageError, StorageError, type StorageWatchEvent } from '@kevents/storage';
import { keyOf, objectOf, testObject, type TestObject } from '@kevents/storage/testing';
import { Redis } from 'ioredis';
import { CreateBatches, createBatchMax, createBatchMaxChars, type BatchedCreate } from './create-batch.js';
import { createRedisStorage, type RedisStorage } from './index.js';
import { RedisServer } from './testing/index.js';

const create = (key: string, body = '{}'): BatchedCreate => ({ key, body, uidJson: '""', namespace: 'ns' });

describe('CreateBatches', () => {
  it('sends the creates of one turn as one batch per resource, in order, and gives each its own answer', async () => {
    const sent: [string, string[]][] = [];
    const batches = new CreateBatches(async (resource, creates) => {
      sent.push([resource, creates.map((c) => c.key)]);
      return creates.map((c, i) => (c.key.endsWith('taken') ? 0 : 100 * sent.length + i));
    });
    const answers = await Promise.all([
      batches.add('events', create('a')),
      batches.add('leases', create('l')),
      batches.add('events', create('b-taken')),
      batches.add('events', create('c')),
    ]);
    expect(sent).toEqual([
      ['events', ['a', 'b-taken', 'c']],
      ['leases', ['l']],
    ]);
    expect(answers).toEqual([100, 200, 0, 102]);
  });

  it(`sends a batch as soon as it holds ${createBatchMax} creates or ${createBatchMaxChars} characters of bodies`, async () => {
    const sizes: number[] = [];
    const turnEnds: boolean[] = [];
    const batches = new CreateBatches(async (_, creates, turnEnded) => {
      sizes.push(creates.length);
      turnEnds.push(turnEnded);
      return creates.map(() => 1);
    });
    const many = Array.from({ length: 2 * createBatchMax + 1 }, (_, i) => batches.add('events', create(`k${i}`)));
    expect(sizes).toEqual([createBatchMax, createBatchMax]);
    await Promise.all(many);
    expect(sizes).toEqual([createBatchMax, createBatchMax, 1]);
    const big = 'x'.repeat(createBatchMaxChars / 2);
    const large = [batches.add('events', create('b1', big)), batches.add('events', create('b2', big))];
    expect(sizes).toEqual([createBatchMax, createBatchMax, 1, 2]);
    await Promise.all(large);
    expect(turnEnds).toEqual([false, false, true, false]);
  });

  it("fails every create of a batch with the batch's error, and on a reply of the wrong shape", async () => {
    const down = new StorageError('Unavailable', 'redis unavailable: gone');
    const failing = new CreateBatches(() => Promise.reject(down));
    const results = await Promise.allSettled([failing.add('events', create('a')), failing.add('events', create('b'))]);
    expect(results).toEqual([
      { status: 'rejected', reason: down },
      { status: 'rejected', reason: down },
    ]);
    const throwing = new CreateBatches(() => {
      throw down;
    });
    await expect(throwing.add('events', create('a'))).rejects.toBe(down);
    const short = new CreateBatches(async () => [5]);
    const shortResults = await Promise.allSettled([short.add('events', create('a')), short.add('events', create('b'))]);
    for (const r of shortResults) {
      expect(r.status).toBe('rejected');
      const reason = (r as PromiseRejectedResult).reason as StorageError;
      expect(reason.code).toBe('Internal');
      expect(reason.message).toBe('redis: unexpected create batch reply [5]');
    }
  });
});

describe('RedisStorage creates in batches (real Redis)', () => {
  let server: RedisServer;
  let redis: Redis;
  let n = 0;
  const opened: RedisStorage[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
    redis?.disconnect();
    await server?.stop();
  });
  const open = async (): Promise<[RedisStorage, string]> => {
    const prefix = `batch${++n}`;
    const s = await createRedisStorage({ url: server.url, prefix });
    opened.push(s);
    return [s, prefix];
  };

  it('gives the creates of one turn ascending resourceVersions in call order, one Stream entry each, and AlreadyExists to a repeated key', async () => {
    const [s, prefix] = await open();
    const w = await s.watch<TestObject>({ resource: 'events' });
    const seen: StorageWatchEvent<TestObject>[] = [];
    const consumed = w.consume((batch) => void seen.push(...batch));
    const names = Array.from({ length: 3 * createBatchMax + 2 }, (_, i) => `o${i}`);
    const made = names.map((name, i) =>
      s.create(keyOf(i % 2 === 0 ? 'a' : 'b', name), testObject(i % 2 === 0 ? 'a' : 'b', name)),
    );
    const repeated = s.create(keyOf('a', 'o0'), testObject('a', 'o0'));
    const lease = s.create({ resource: 'leases', namespace: 'a', name: 'l' }, testObject('a', 'l'));
    const results = await Promise.all(made);
    const rvs = results.map((o) => Number(o.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    expect(new Set(rvs).size).toBe(rvs.length);
    const err = await repeated.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isStorageError(err) && err.code).toBe('AlreadyExists');
    expect(Number((await lease).metadata.resourceVersion)).toBeGreaterThan(0);
    for (let i = 0; i < 200 && seen.length < names.length; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen.map((e) => [e.type, objectOf(e).metadata.name, e.resourceVersion])).toEqual(
      results.map((o) => ['ADDED', o.metadata.name, o.metadata.resourceVersion]),
    );
    for (const o of results) {
      const got = await s.get<TestObject>(keyOf(o.metadata.namespace!, o.metadata.name!));
      expect(got).toEqual(o);
    }
    expect(await redis.xlen(`{${prefix}}:changes`)).toBe(names.length + 1);
    expect(await redis.zcard(`{${prefix}}:i:events`)).toBe(names.length);
    w.stop();
    await consumed;
  });

  it('fails every create of a batch with Unavailable when Redis does not answer, saying the write may have been applied', async () => {
    const prefix = `batch${++n}`;
    const s = await createRedisStorage({ url: server.url, prefix, commandTimeoutMs: 300 });
    opened.push(s);
    await redis.call('CLIENT', 'PAUSE', '1500', 'WRITE');
    try {
      const results = await Promise.allSettled([
        s.create(keyOf('a', 'x'), testObject('a', 'x')),
        s.create(keyOf('a', 'y'), testObject('a', 'y')),
      ]);
      for (const r of results) {
        expect(r.status).toBe('rejected');
        const reason = (r as PromiseRejectedResult).reason as StorageError;
        expect(reason.code).toBe('Unavailable');
        expect(reason.message).toMatch(/the write may have been applied$/);
      }
    } finally {
      await redis.call('CLIENT', 'UNPAUSE');
    }
  });
});
