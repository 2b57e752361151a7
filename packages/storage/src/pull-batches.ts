import type { KubeObject } from '@kevents/api';
import type { StorageWatchEvent, WatchSink } from './interface.js';

type Batch<T extends KubeObject> = readonly StorageWatchEvent<T>[];

/**
 * Turns a push-style watch (`consume(sink)`) into an async iterable of batches: the watch waits
 * while a batch is not yet taken, so a slow reader holds back the watch rather than a queue.
 * Leaving the loop early stops the watch.
 */
export function pullBatches<T extends KubeObject>(
  watcher: { stop(): void },
  consume: (sink: WatchSink<T>) => Promise<void>,
): AsyncIterable<Batch<T>> {
  let started = false;
  let ready: Batch<T> | undefined;
  let taken: (() => void) | undefined;
  let asked: { resolve: (r: IteratorResult<Batch<T>>) => void; reject: (err: unknown) => void } | undefined;
  let ended = false;
  let failure: unknown;

  const sink: WatchSink<T> = (batch) => {
    if (asked !== undefined) {
      const a = asked;
      asked = undefined;
      a.resolve({ value: batch, done: false });
      return undefined;
    }
    ready = batch;
    return new Promise<void>((resolve) => (taken = resolve));
  };
  const finish = (err: unknown): void => {
    ended = true;
    failure = err;
    const a = asked;
    asked = undefined;
    if (a === undefined) return;
    if (err === undefined) a.resolve({ value: undefined, done: true });
    else a.reject(err);
  };

  const iterator: AsyncIterator<Batch<T>> = {
    next() {
      if (!started) {
        started = true;
        consume(sink).then(
          () => finish(undefined),
          (err: unknown) => finish(err ?? new Error('watch failed')),
        );
      }
      if (ready !== undefined) {
        const value = ready;
        ready = undefined;
        const t = taken;
        taken = undefined;
        t?.();
        return Promise.resolve({ value, done: false });
      }
      if (ended) {
        const err = failure;
        failure = undefined;
        return err === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(err);
      }
      return new Promise((resolve, reject) => (asked = { resolve, reject }));
    },
    return() {
      watcher.stop();
      const t = taken;
      taken = undefined;
      ready = undefined;
      t?.();
      return Promise.resolve({ value: undefined, done: true });
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
