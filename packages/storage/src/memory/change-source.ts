import { tooOldResourceVersionError } from '../errors.js';
import type { ChangeSource } from '../cursor-watcher.js';
import type { ChangeLog } from './change-log.js';

/** The memory store's change log as a {@link ChangeSource}: one retained change at a time. */
export function memoryChangeSource(log: ChangeLog): ChangeSource {
  return {
    read: (cursor) => {
      if (cursor < log.compacted) throw tooOldResourceVersionError(String(cursor), String(log.compacted));
      const change = cursor < log.rv ? log.at(cursor + 1) : undefined;
      return change === undefined ? [] : [change];
    },
    onNext: (wake) => log.onNext(wake),
    cancel: (wake) => log.cancel(wake),
  };
}
