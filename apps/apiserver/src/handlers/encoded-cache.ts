/**
 * Encoded watch lines (UTF-8, newline included) shared by every watcher of one API view: an event is serialized once,
 * however many watchers receive it. Keys name a change uniquely (type, resourceVersion, object),
 * so an entry never goes stale; the oldest entries are dropped past `capacity`.
 */
export class EncodedEventCache {
  readonly #entries = new Map<string, Buffer>();
  readonly #capacity: number;

  constructor(capacity = 4096) {
    this.#capacity = capacity;
  }

  /** The cached line for `key`, or the result of `encode()` (then cached). */
  get(key: string, encode: () => Buffer): Buffer {
    let line = this.#entries.get(key);
    if (line === undefined) {
      line = encode();
      this.#entries.set(key, line);
      if (this.#entries.size > this.#capacity) {
        const oldest = this.#entries.keys().next().value as string;
        this.#entries.delete(oldest);
      }
    }
    return line;
  }

  get size(): number {
    return this.#entries.size;
  }
}
