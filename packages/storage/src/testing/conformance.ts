import { afterEach, describe } from '@jest/globals';
import type { Storage } from '../interface.js';
import { defineCrudConformance } from './conformance-crud.js';
import { defineListConformance } from './conformance-list.js';
import { defineWatchConformance } from './conformance-watch.js';

/** Settings the suite asks a store for; a factory must honour each one it is given. */
export interface StoreTuning {
  /** Keep at most this many changes (only asked for when `supportsHistoryLimit`). */
  readonly historyLimit?: number;
  /** BOOKMARK interval of watches with `allowBookmarks`. */
  readonly bookmarkIntervalMs: number;
  /** How long a read for a future resourceVersion waits before TooLargeResourceVersion. */
  readonly tooLargeResourceVersionWaitMs: number;
}

/** Makes an empty store for one test; `cleanup` runs after the test (after `close`). */
export type StoreFactory = (tuning: StoreTuning) => Promise<{ storage: Storage; cleanup?: () => Promise<void> }>;

/** Timings and capabilities of a conformance run. */
export interface ConformanceOptions {
  /** Default 50 ms. */
  readonly bookmarkIntervalMs?: number;
  /** Default 100 ms. */
  readonly tooLargeResourceVersionWaitMs?: number;
  /** How long to wait for an expected watch event (default 2,000 ms). */
  readonly eventTimeoutMs?: number;
  /** How long to watch for an unexpected event (default 100 ms). */
  readonly quietMs?: number;
  /** Whether the factory honours `historyLimit` (default true). */
  readonly supportsHistoryLimit?: boolean;
}

/** What each part of the suite gets. */
export interface ConformanceContext {
  /**
   * A fresh store, closed and cleaned up after the test; `tooLargeResourceVersionWaitMs` replaces
   * the run's own for this store (a test that only expects refusals opens it with `refusalWaitMs`).
   */
  open(tuning?: { historyLimit?: number; tooLargeResourceVersionWaitMs?: number }): Promise<Storage>;
  readonly bookmarkIntervalMs: number;
  readonly tooLargeResourceVersionWaitMs: number;
  /**
   * The wait of a store whose reads of a future resourceVersion must all be refused (no write is
   * coming, so how long they wait changes only the test's time): the run's wait, at most 100 ms.
   * A run raises `tooLargeResourceVersionWaitMs` for the reads that must be answered in time on
   * a slow disk (SQL on a loaded CI machine: 2 s); its refusals need not wait that long each.
   */
  readonly refusalWaitMs: number;
  readonly eventTimeoutMs: number;
  readonly quietMs: number;
  readonly supportsHistoryLimit: boolean;
}

/**
 * Defines the Storage conformance suite (Jest `describe`/`it` blocks) for one implementation.
 * Every store (in-process, Redis) must pass it unchanged: it pins down resourceVersions,
 * preconditions, guaranteed updates, list order, pagination, resourceVersion semantics,
 * compaction and watches, with the Kubernetes error codes and messages.
 */
export function runStorageConformance(name: string, factory: StoreFactory, options: ConformanceOptions = {}): void {
  const opened: { storage: Storage; cleanup?: () => Promise<void> }[] = [];
  const ctx: ConformanceContext = {
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 50,
    tooLargeResourceVersionWaitMs: options.tooLargeResourceVersionWaitMs ?? 100,
    refusalWaitMs: Math.min(options.tooLargeResourceVersionWaitMs ?? 100, 100),
    eventTimeoutMs: options.eventTimeoutMs ?? 2_000,
    quietMs: options.quietMs ?? 100,
    supportsHistoryLimit: options.supportsHistoryLimit ?? true,
    async open(tuning = {}) {
      const made = await factory({
        ...tuning,
        bookmarkIntervalMs: ctx.bookmarkIntervalMs,
        tooLargeResourceVersionWaitMs: tuning.tooLargeResourceVersionWaitMs ?? ctx.tooLargeResourceVersionWaitMs,
      });
      opened.push(made);
      return made.storage;
    },
  };

  describe(`Storage conformance: ${name}`, () => {
    afterEach(async () => {
      for (const { storage, cleanup } of opened.splice(0)) {
        await storage.close();
        await cleanup?.();
      }
    });
    defineCrudConformance(ctx);
    defineListConformance(ctx);
    defineWatchConformance(ctx);
  });
}
