/** Settings of {@link MemoryStorage}. */
export interface MemoryStorageOptions {
  /**
   * How many changes the store keeps for watches, continue tokens and exact lists (default
   * 10,000). Older changes are compacted: reads at their resourceVersions fail with Expired.
   */
  readonly historyLimit?: number;
  /** Also compact changes older than this many milliseconds (default: no age limit). */
  readonly historyMaxAgeMs?: number;
  /** How often a watch with `allowBookmarks` gets a BOOKMARK (default 60,000 ms). */
  readonly bookmarkIntervalMs?: number;
  /**
   * How long a read for a resourceVersion newer than the store's waits before it fails with
   * TooLargeResourceVersion (default 3,000 ms, as the Kubernetes watch cache).
   */
  readonly tooLargeResourceVersionWaitMs?: number;
  /**
   * The shortest time between two wake-ups of the store's watches (default 4 ms). Under a steady
   * stream of writes each watch then reads, and its HTTP stream writes, the changes of one
   * interval at once; a change after a quiet spell is delivered at once. 0 wakes watches on
   * every write.
   */
  readonly watchBatchIntervalMs?: number;
  /** Milliseconds since the epoch; for age-based compaction (default `Date.now`). */
  readonly clock?: () => number;
}

export const memoryDefaults = {
  historyLimit: 10_000,
  bookmarkIntervalMs: 60_000,
  tooLargeResourceVersionWaitMs: 3_000,
  watchBatchIntervalMs: 4,
} as const;
