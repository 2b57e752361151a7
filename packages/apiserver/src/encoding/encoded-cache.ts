import type { WatchEventType } from '@kevents/api';
import { EncodedItems } from './encoded-items.js';

/** How many bytes of initial-event lines an {@link EncodedEventCache} keeps at most. */
const initialLinesMaxBytes = 4 * 1024 * 1024;

/** How many shared batches an {@link EncodedEventCache} keeps the lines of. */
const keptBatches = 8;

/**
 * Encoded watch lines (UTF-8, newline included) shared by every watcher of one API view. Stores
 * hand every watcher of a change the same (frozen) object, so a line is keyed by that object and
 * the event type: an event is serialized once however many watchers receive it, and an entry
 * lives exactly as long as the store keeps the change.
 */
export class EncodedEventCache {
  readonly #lines = new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>();
  /** Lines of initial events by resourceVersion (see {@link revision}). */
  readonly #byRevision = new EncodedItems<Buffer>(initialLinesMaxBytes);
  /** The lines of recent shared batches, the newest last. */
  #batches: { batch: readonly unknown[]; lines: readonly Buffer[] }[] = [];

  /** The cached line for `(object, type)`, or the result of `encode()` (then cached). */
  get(object: object, type: WatchEventType, encode: () => Buffer): Buffer {
    let byType = this.#lines.get(object);
    if (byType === undefined) {
      byType = {};
      this.#lines.set(object, byType);
    }
    return (byType[type] ??= encode());
  }

  /**
   * The line of an ADDED event for the object stored at resourceVersion `rv`, or the result of
   * `encode()` (then kept while the last few MiB of such lines are). Watches that start with the
   * state of their prefix decode their own copies of the same stored objects, so their lines are
   * shared by resourceVersion instead of by object: watches opened together encode each object
   * once. Only for stores whose resourceVersions name one state each (revision reads).
   */
  revision(rv: number, encode: () => Buffer): Buffer {
    return this.#byRevision.get(rv, encode);
  }

  /**
   * The lines of a batch of events, as `encode()` makes them. Stores hand the watches woken
   * together the same (frozen) batch, so the lines of the last few batches are kept and given
   * again (the same frozen array, which lets the stream reuse its framed chunk) while the same
   * batch comes. Only for batches whose lines depend on nothing but their events and this view.
   */
  linesOf<B extends readonly unknown[]>(batch: B, encode: (batch: B) => readonly Buffer[]): readonly Buffer[] {
    const kept = this.#batches;
    for (let i = kept.length - 1; i >= 0; i--) if (kept[i]!.batch === batch) return kept[i]!.lines;
    const lines = encode(batch);
    if (!Object.isFrozen(batch)) return lines;
    Object.freeze(lines);
    if (kept.length === keptBatches) kept.shift();
    kept.push({ batch, lines });
    return lines;
  }
}
