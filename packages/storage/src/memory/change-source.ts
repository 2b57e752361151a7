import { tooOldResourceVersionError } from '../errors.js';
import type { ChangeSource } from '../cursor-watcher.js';
import type { Change, ChangeLog } from './change-log.js';

/** The memory store's change log as a {@link ChangeSource}: every retained change after the cursor, up to `maxBatch`. */
export function memoryChangeSource(log: ChangeLog, maxBatch = 1024): ChangeSource {
  return {
    read: (cursor) => {
      if (cursor < log.compacted) throw tooOldResourceVersionError(String(cursor), String(log.compacted));
      const changes: Change[] = [];
      const last = Math.min(log.rv, cursor + maxBatch);
      for (let rv = cursor + 1; rv <= last; rv++) changes.push(log.at(rv)!);
      return changes;
    },
    onNext: (wake) => log.onNext(wake),
    cancel: (wake) => log.cancel(wake),
  };
}
