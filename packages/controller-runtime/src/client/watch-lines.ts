import type { ReadableStream } from 'node:stream/web';

/**
 * The longest watch line read: 16 MiB, the bound client-go's streaming decoder long held
 * (`maxBytes`, ErrObjectTooLarge). One event is at most what etcd stores (1.5 MiB by default) in
 * JSON; a longer line is a broken or hostile server, and the watch ends with an error so the caller
 * lists and watches again.
 */
export const maxWatchLineBytes = 16 * 1024 * 1024;

/** Thrown by {@link readWatchLines} for a line longer than its bound. */
export class WatchLineTooLong extends Error {
  constructor(limit: number) {
    super(`a watch line is longer than ${limit} bytes`);
    this.name = 'WatchLineTooLong';
  }
}

/**
 * Reads a stream's newline-framed lines, each decoded as UTF-8 once whole (so a character split
 * between chunks reads right), calling `progress` for every chunk and `line` for every non-empty line
 * (the last one too when the stream ends without a newline). Each byte is scanned once, so a long
 * line costs time in proportion to its length (the earlier reader scanned the whole pending text
 * again per chunk: a 16 MiB line without a newline held the event loop 1.7 s at a time, 7.8 s in
 * all; 64 MiB 136 s). A line past `limit` bytes rejects with {@link WatchLineTooLong}.
 */
export async function readWatchLines(
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  progress: () => void,
  line: (text: string) => void,
  limit: number = maxWatchLineBytes,
): Promise<void> {
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const emit = (tail: Uint8Array): void => {
    const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    if (bytes.length === 0) return;
    const text = decoder.decode(bytes);
    if (text.trim() !== '') line(text);
  };
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    progress();
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      if (pendingBytes + (nl - from) > limit) throw new WatchLineTooLong(limit);
      emit(chunk.subarray(from, nl));
      from = nl + 1;
    }
    if (from < chunk.length) {
      pendingBytes += chunk.length - from;
      if (pendingBytes > limit) throw new WatchLineTooLong(limit);
      pending.push(chunk.subarray(from));
    }
  }
  emit(new Uint8Array(0));
}
