import { Script } from 'node:vm';

/** How often {@link keepMemoryReducerRunning} allocates on the embedder heap by default, in ms. */
export const memoryReducerNudgeIntervalMs = 30_000;

/**
 * Lets V8's memory reducer shrink an idle heap again on Node 24 and later, and returns a function
 * that stops doing so.
 *
 * When a process goes quiet after a burst of work, V8's memory reducer runs a few memory-reducing
 * full collections that compact the heap, shrink the young generation and release pooled pages:
 * the heap a process keeps after a load falls back towards what it holds. It starts only when
 * the young-generation, old-generation and embedder (cppgc) allocation rates are all low. Since
 * V8 13.1 (Node 24) an isolate that has never allocated on its cppgc heap, or not for ~110 s,
 * reports an embedder allocation rate of exactly 0, which V8 reads as the highest rate, so the
 * reducer never starts ("Memory reducer: high alloc" on every 8 s tick with
 * `--trace-memory-reducer`; "Embedder mutator utilization = 0.000" with
 * `--trace-mutator-utilization`), and a kevents-apiserver on SQLite kept ~85 MB of heap
 * (about 90 MB of RSS) it no longer used after a load (docs/operations.md, "Memory of the
 * apiserver"). Compiling a `node:vm` Script allocates one small cppgc object, which makes the
 * rate positive and tiny; doing it every `intervalMs` (below ~110 s) keeps it so. The timer is
 * unref'd; the cost is one compile of a one-character script per interval.
 *
 * Call it once per thread (each worker thread has an isolate of its own).
 */
export function keepMemoryReducerRunning(intervalMs: number = memoryReducerNudgeIntervalMs): () => void {
  const nudge = (): void => void new Script('0');
  nudge();
  const timer = setInterval(nudge, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
