import {
  contiguousAfter,
  tooOldResourceVersionError,
  unavailableError,
  windowChangeSource,
  type ChangeSource,
} from '@kevents/storage';
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
  const check = (): void => {
    if (feed.epoch !== epoch) throw unavailableError('watch ended: the connection to Redis was lost; relist');
  };
  const source = windowChangeSource(feed, fromHistory, maxBatch, check);
  return {
    ...source,
    // A feed that does not follow the Stream (idle, or syncing again) may hold another Redis's
    // changes (one that restarted without its data): nothing is read until it follows again
    // and wakes the watches.
    read: (cursor) => {
      if (feed.following) return source.read(cursor);
      check();
      return none;
    },
  };

  async function fromHistory(cursor: number): Promise<Change[]> {
    const { changes, compacted } = await history(cursor, 500);
    if (changes.length === 0 || changes[0]!.rv !== cursor + 1)
      throw tooOldResourceVersionError(String(cursor), String(compacted));
    return contiguousAfter(cursor, changes);
  }
}
