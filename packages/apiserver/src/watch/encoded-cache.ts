import type { WatchEventType } from '@kevents/api';

/**
 * Encoded watch lines (UTF-8, newline included) shared by every watcher of one API view. Stores
 * hand every watcher of a change the same (frozen) object, so a line is keyed by that object and
 * the event type: an event is serialized once however many watchers receive it, and an entry
 * lives exactly as long as the store keeps the change.
 */
export class EncodedEventCache {
  readonly #lines = new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>();

  /** The cached line for `(object, type)`, or the result of `encode()` (then cached). */
  get(object: object, type: WatchEventType, encode: () => Buffer): Buffer {
    let byType = this.#lines.get(object);
    if (byType === undefined) {
      byType = {};
      this.#lines.set(object, byType);
    }
    return (byType[type] ??= encode());
  }
}
