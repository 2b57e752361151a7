import { tooOldResourceVersionError, unavailableError, type ChangeSource } from '@kevents/storage';
import type { ChangeFeed } from './change-feed.js';
import type { Change } from './codec.js';

const none: readonly Change[] = Object.freeze([]);

/** Reads changes after `rv` straight from the Stream (for a watch behind the feed's window). */
export type HistoryReader = (after: number, count: number) => Promise<{ changes: Change[]; compacted: number }>;

/**
 * The process's change feed as a {@link ChangeSource} for one watch. Behind the feed's window it
 * reads the Stream itself (500 changes at a time); past the retained history it ends the watch
 * with Expired, and once the feed has lost its connection (its epoch moved since the watch
 * began) with Unavailable, so the client relists.
 */
export function redisChangeSource(feed: ChangeFeed, history: HistoryReader, maxBatch = 1024): ChangeSource {
  const epoch = feed.epoch;
  return {
    read: (cursor) => {
      if (feed.epoch !== epoch) throw unavailableError('watch ended: the connection to Redis was lost; relist');
      if (cursor < feed.base) return fromHistory(cursor);
      return cursor < feed.head ? feed.slice(cursor, maxBatch) : none;
    },
    onNext: (wake) => feed.onNext(wake),
    cancel: (wake) => feed.cancel(wake),
  };

  async function fromHistory(cursor: number): Promise<Change[]> {
    const { changes, compacted } = await history(cursor, 500);
    if (changes.length === 0 || changes[0]!.rv !== cursor + 1)
      throw tooOldResourceVersionError(String(cursor), String(compacted));
    const contiguous: Change[] = [];
    for (const c of changes) {
      if (c.rv !== cursor + 1 + contiguous.length) break;
      contiguous.push(c);
    }
    return contiguous;
  }
}
