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
