import { expect } from '@jest/globals';
import { isStorageError, type Storage } from '@kevents/storage';
import { brief, keyOf, testObject, type TestObject, type WatchReader } from '@kevents/storage/testing';
import { waitFor } from '@kevents/api/testing';

// Helpers of the fault tests (Jest only: @kevents/storage/testing loads Jest), kept out of the
// testing barrel, which benchmarks import too.

/** Reads `watch` until it fails and returns the error (undefined if it ends or times out); BOOKMARKs pass, other events fail the test. */
export async function watchFailure(watch: WatchReader, ms: number): Promise<unknown> {
  try {
    for (;;) {
      const e = await watch.next(ms);
      if (e === 'timeout' || e === 'done') return undefined;
      if (e.type !== 'BOOKMARK') throw new Error(`unexpected event ${brief(e)}`);
    }
  } catch (err) {
    return err;
  }
}

/**
 * Creates `ns/name` as soon as the store takes writes again, retrying while it answers
 * Unavailable. A create applied but unanswered (its reply lost in the outage) counts: a retry
 * that meets AlreadyExists reads the object back.
 */
export async function createWhenAvailable(storage: Storage, ns: string, name: string, ms: number): Promise<TestObject> {
  let created: TestObject | undefined;
  await waitFor(
    async () => {
      created = await storage.create(keyOf(ns, name), testObject(ns, name)).catch(async (err: unknown) => {
        if (isStorageError(err, 'AlreadyExists'))
          return storage.get<TestObject>(keyOf(ns, name)).catch(() => undefined);
        if (isStorageError(err, 'Unavailable')) return undefined;
        throw err;
      });
      return created !== undefined;
    },
    ms,
    () => `${ns}/${name} could not be created within ${ms} ms`,
  );
  return created!;
}

/**
 * Runs `op` until it does not fail with Unavailable (a connection that drops once more while a
 * failover settles, as a Sentinel's `CLIENT KILL` after promotion does), for at most `ms`; any
 * other error is thrown at once.
 */
export async function whenAvailable<T>(op: () => Promise<T>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      if (!isStorageError(err, 'Unavailable') || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** What {@link requestsThroughFailure} saw of one kind of request. */
export interface RequestRecord {
  /** How many ran. */
  runs: number;
  /** How many failed with Unavailable. */
  unavailable: number;
  /** The longest any of them took to answer or fail (ms). */
  slowestMs: number;
  /** The error of the slowest failure, if the slowest failed. */
  slowest: string;
  /** Whether one succeeded after the store's first failure. */
  recovered: boolean;
}

/** The kinds of request {@link requestsThroughFailure} runs. */
export const requestKinds = ['get', 'list', 'create', 'update', 'delete', 'guaranteedUpdate', 'watch'] as const;

/**
 * Runs every kind of storage request (one of each kind in flight at a time, 10 ms apart) on
 * objects of namespace `ns`, calls `fail` once they run, and goes on until each kind has
 * succeeded again after the first failure any request met (or `ms` passed). Unavailable is the
 * only failure allowed (and NotFound for a delete, AlreadyExists for a create: a write applied
 * whose answer was lost); any other error is thrown.
 */
export async function requestsThroughFailure(
  storage: Storage,
  ns: string,
  fail: () => Promise<void>,
  ms: number,
): Promise<Record<(typeof requestKinds)[number], RequestRecord>> {
  await storage.create(keyOf(ns, 'g'), testObject(ns, 'g'));
  await storage.create(keyOf(ns, 'u'), testObject(ns, 'u'));
  const deletable: string[] = [];
  for (let i = 0; i < 300; i++) {
    await storage.create(keyOf(ns, `d${i}`), testObject(ns, `d${i}`));
    deletable.push(`d${i}`);
  }
  let n = 0;
  const ops: Record<(typeof requestKinds)[number], () => Promise<unknown>> = {
    get: () => storage.get(keyOf(ns, 'g')),
    list: () => storage.list({ resource: 'events', namespace: ns }, { limit: 50 }),
    create: () => storage.create(keyOf(ns, `c${n++}`), testObject(ns, `c${n}`)),
    update: () => storage.update(keyOf(ns, 'u'), { ...testObject(ns, 'u'), note: String(n++) }),
    delete: () => storage.delete(keyOf(ns, deletable.shift() ?? 'none')),
    guaranteedUpdate: () =>
      storage.guaranteedUpdate<TestObject>(keyOf(ns, 'g'), (cur) => ({ ...cur!, note: String(n++) })),
    watch: async () => (await storage.watch({ resource: 'events', namespace: ns })).stop(),
  };
  const records = Object.fromEntries(
    requestKinds.map((k) => [k, { runs: 0, unavailable: 0, slowestMs: 0, slowest: '', recovered: false }]),
  ) as Record<(typeof requestKinds)[number], RequestRecord>;
  let firstFailure: number | undefined;
  const deadline = Date.now() + ms;
  const finished = (): boolean =>
    Date.now() > deadline || (firstFailure !== undefined && Object.values(records).every((r) => r.recovered));
  const loop = async (kind: (typeof requestKinds)[number]): Promise<void> => {
    const r = records[kind];
    while (!finished()) {
      const t0 = performance.now();
      let error = '';
      let unavailable = false;
      try {
        await ops[kind]();
      } catch (err) {
        unavailable = isStorageError(err, 'Unavailable');
        const answered =
          (kind === 'delete' && isStorageError(err, 'NotFound')) ||
          (kind === 'create' && isStorageError(err, 'AlreadyExists'));
        if (!unavailable && !answered) throw err;
        error = (err as Error).message;
      }
      const took = performance.now() - t0;
      r.runs++;
      if (unavailable) {
        r.unavailable++;
        firstFailure ??= performance.now();
      } else if (firstFailure !== undefined && t0 > firstFailure) r.recovered = true;
      if (took > r.slowestMs) [r.slowestMs, r.slowest] = [took, error];
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const loops = requestKinds.map(loop);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await fail();
  await Promise.all(loops);
  return records;
}

/** Every kind of request ended within `ms` (the slowest is named when not) and succeeded again after the failure. */
export function expectAllWithin(records: Record<(typeof requestKinds)[number], RequestRecord>, ms: number): void {
  for (const kind of requestKinds) {
    const r = records[kind];
    const seen = { kind, slowestMs: Math.round(r.slowestMs), slowest: r.slowest, recovered: r.recovered };
    expect({ ...seen, within: r.slowestMs < ms }).toEqual({ ...seen, within: true, recovered: true });
  }
}
