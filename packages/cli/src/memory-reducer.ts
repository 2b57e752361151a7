import { performance } from 'node:perf_hooks';
import { Script } from 'node:vm';

/** When {@link keepMemoryReducerRunning} lets V8's memory reducer run. */
export interface MemoryReducerOptions {
  /** How long the event loop must have been quiet before the reducer may run, in ms (default 30,000). */
  readonly quietMs?: number;
  /** The event-loop utilization (0–1) under which a check interval counts as quiet (default 0.05). */
  readonly quietUtilization?: number;
  /** How often the event loop's utilization is read, in ms (default 10,000). */
  readonly checkIntervalMs?: number;
  /** Called after each nudge, with how long the loop has been quiet (ms): for logs and tests. */
  readonly onNudge?: (quietForMs: number) => void;
}

/** {@link keepMemoryReducerRunning}'s defaults. */
export const memoryReducerDefaults = { quietMs: 30_000, quietUtilization: 0.05, checkIntervalMs: 10_000 } as const;

/**
 * Lets V8's memory reducer shrink the heap of a thread that has gone quiet, on Node 24 and later,
 * and returns a function that stops doing so.
 *
 * When a process goes quiet after a burst of work, V8's memory reducer runs a few memory-reducing
 * full collections that compact the heap, shrink the young generation and release pooled pages.
 * It starts only when the young-generation, old-generation and embedder (cppgc) allocation rates
 * are all low. Since V8 13.1 (Node 24) an isolate that has not allocated on its cppgc heap for
 * ~110 s reports an embedder rate of exactly 0, which V8 reads as the highest rate, so the reducer
 * never starts ("Memory reducer: high alloc" on every 8 s tick with `--trace-memory-reducer`;
 * "Embedder mutator utilization = 0.000" with `--trace-mutator-utilization`). Compiling a
 * `node:vm` Script allocates one small cppgc object, which makes that rate positive and tiny
 * for the next ~110 s.
 *
 * V8 13's allocation rates fall within a second of a pause, so a reducer that may run shrinks the
 * heap in any pause of a few seconds, and the next burst pays for growing the young generation
 * again (15 µs more CPU per create on PostgreSQL with 3 s of load and 6 s of pause, alternated).
 * So the Script is compiled only once the event loop has been quiet (utilization under
 * `quietUtilization` in every check) for `quietMs`, and again at every check while it stays so.
 * The timer is unref'd. docs/operations.md, "Memory of the apiserver", has the measurements.
 *
 * Call it once per thread (each worker thread has an isolate of its own).
 */
export function keepMemoryReducerRunning(options: MemoryReducerOptions = {}): () => void {
  const quietMs = options.quietMs ?? memoryReducerDefaults.quietMs;
  const quietUtilization = options.quietUtilization ?? memoryReducerDefaults.quietUtilization;
  const checkIntervalMs = options.checkIntervalMs ?? memoryReducerDefaults.checkIntervalMs;
  let last = performance.eventLoopUtilization();
  let quietSince: number | undefined;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (utilization >= quietUtilization) {
      quietSince = undefined;
      return;
    }
    quietSince ??= performance.now() - checkIntervalMs;
    const quietFor = performance.now() - quietSince;
    if (quietFor < quietMs) return;
    void new Script('0');
    options.onNudge?.(quietFor);
  }, checkIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
