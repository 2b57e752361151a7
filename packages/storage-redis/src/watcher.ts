import {
  contiguousAfter,
  tooOldResourceVersionError,
  unavailableError,
  windowChangeSource,
  type ChangeSource,
} from '@kevents/storage';
import type { ChangeFeed } from './change-feed.js';
import type { Change } from './codec.js';

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
  return windowChangeSource(feed, fromHistory, maxBatch, () => {
    if (feed.epoch !== epoch) throw unavailableError('watch ended: the connection to Redis was lost; relist');
  });

  async function fromHistory(cursor: number): Promise<Change[]> {
    const { changes, compacted } = await history(cursor, 500);
    if (changes.length === 0 || changes[0]!.rv !== cursor + 1)
      throw tooOldResourceVersionError(String(cursor), String(compacted));
    return contiguousAfter(cursor, changes);
  }
}
