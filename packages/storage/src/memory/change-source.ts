import { tooOldResourceVersionError } from '../errors.js';
import type { ChangeSource } from '../cursor-watcher.js';
import type { Change, ChangeLog } from './change-log.js';

const none: readonly Change[] = Object.freeze([]);

/**
 * The memory store's change log as a {@link ChangeSource}: every retained change after the cursor, up to `maxBatch`.
 * The watches woken together read from the same cursor, so the last answer is kept and given
 * again (the same frozen array) for the same cursor and end, which lets them share one batch.
 */
export function memoryChangeSource(log: ChangeLog, maxBatch = 1024): ChangeSource {
  let lastCursor = -1;
  let lastEnd = -1;
  let last = none;
  return {
    read: (cursor) => {
      if (cursor < log.compacted) throw tooOldResourceVersionError(String(cursor), String(log.compacted));
      const end = Math.min(log.rv, cursor + maxBatch);
      if (end <= cursor) return none;
      if (cursor === lastCursor && end === lastEnd) return last;
      const changes: Change[] = [];
      for (let rv = cursor + 1; rv <= end; rv++) changes.push(log.at(rv)!);
      lastCursor = cursor;
      lastEnd = end;
      last = Object.freeze(changes);
      return last;
    },
    onNext: (wake) => log.onNext(wake),
    cancel: (wake) => log.cancel(wake),
  };
}
