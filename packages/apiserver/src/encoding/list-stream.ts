import { Readable } from 'node:stream';
import { goEscapeJSON } from '@kevents/api';

/**
 * Lists with at least this many items are sent as a stream ({@link streamJSONList}); smaller ones
 * go out in one write with a Content-Length. The bytes are the same either way.
 */
export const listStreamMinItems = 500;

/** A streamed list is written in chunks of about this many bytes (UTF-16 code units of JSON text). */
export const listStreamChunkChars = 64 * 1024;

/**
 * A JSON object whose last member is an array (a `*List` or a `Table`), described so it can be
 * encoded item by item: `envelope` is the object with that array empty, `arrayKey` names it, and
 * `items(from, to)` encodes the elements in `[from, to)` as JSON texts, each exactly as
 * `JSON.stringify(element)` would write it (compact, at depth 0).
 */
export interface JSONListShape {
  readonly envelope: Record<string, unknown>;
  readonly arrayKey: string;
  readonly length: number;
  /** Compact JSON texts of elements `[from, to)`. */
  readonly items: (from: number, to: number) => readonly string[];
  /** The texts of `items` already carry Go's escapes ({@link goEscapeJSON}); else each is escaped as it is written. */
  readonly escaped?: boolean;
  /** Elements `[from, to)` as values, for the indented (`?pretty`) form. */
  readonly values: (from: number, to: number) => readonly unknown[];
}

/** The most elements encoded per step (the chunk size is checked after each). */
const step = 64;

/**
 * The JSON text of `shape`, in pieces of about {@link listStreamChunkChars}, as Go's
 * serializer writes the whole object: compact plus a newline (`json.Encoder`), or indented by
 * two spaces for `?pretty` with no newline (`json.MarshalIndent`), with Go's escapes
 * ({@link goEscapeJSON}). Joined, the pieces are byte for byte what `JSON.stringify(object)` and a
 * newline, or `JSON.stringify(object, null, 2)`, give, so escaped, so a client cannot tell a
 * streamed list from a buffered one; only one piece is held at a time.
 */
export function* jsonListChunks(shape: JSONListShape, pretty: boolean): Generator<string, void, undefined> {
  const { envelope, arrayKey, length } = shape;
  const empty = goEscapeJSON(pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope));
  if (length === 0) {
    yield pretty ? empty : `${empty}\n`;
    return;
  }
  // The envelope's text ends with the empty array and the closing brace: `[]}` or `[]\n}`.
  const close = pretty ? '[]\n}' : '[]}';
  if (!empty.endsWith(close) || Object.keys(envelope).at(-1) !== arrayKey) {
    throw new Error(`jsonListChunks: ${arrayKey} must be the last member of the envelope`);
  }
  const head = empty.slice(0, empty.length - close.length);
  const open = pretty ? '[\n    ' : '[';
  const sep = pretty ? ',\n    ' : ',';
  const tail = pretty ? '\n  ]\n}' : ']}\n';
  let parts: string[] = [head, open];
  let size = head.length + open.length;
  // Indented texts are made one element at a time (64 events of up to 3 MiB each, indented in
  // one step, held the event loop for seconds); compact ones a step at a time, the step doubled
  // up to 64 elements while a step's texts stay under a chunk and one element again once they
  // pass it (large elements, each decoded and encoded when its step comes, then take a turn each).
  const escaped = shape.escaped === true && !pretty;
  let perStep = 1;
  for (let from = 0; from < length;) {
    const to = Math.min(length, from + perStep);
    const texts = pretty
      ? shape.values(from, to).map((v) => JSON.stringify(v, null, 2).replaceAll('\n', '\n    '))
      : shape.items(from, to);
    let stepChars = 0;
    for (let i = 0; i < texts.length; i++) {
      if (from + i > 0) parts.push(sep);
      const t = escaped ? texts[i]! : goEscapeJSON(texts[i]!);
      parts.push(t);
      stepChars += t.length;
      size += t.length + sep.length;
      // Checked per item: a chunk ends within one item of the size, whatever the items weigh
      // (a step of large items made chunks of several times the size, and pieces over ~128 KiB
      // cost several times more to write than the same bytes in smaller ones).
      if (size >= listStreamChunkChars) {
        yield parts.join('');
        parts = [];
        size = 0;
      }
    }
    from = to;
    if (!pretty) perStep = stepChars >= listStreamChunkChars ? 1 : Math.min(step, perStep * 2);
  }
  parts.push(tail);
  yield parts.join('');
}

/**
 * A readable stream of `chunks` that produces each chunk in its own turn of the event loop
 * (`setImmediate`), so other requests (`/livez` first of all) are served between two chunks, and
 * only as fast as the client reads (the response's backpressure pauses it). Destroying the
 * stream (the client went away) stops the generator.
 */
export function chunkStream(chunks: Generator<string | Uint8Array, void, undefined>): Readable {
  let pending: NodeJS.Immediate | undefined;
  return new Readable({
    read() {
      if (pending !== undefined) return;
      pending = setImmediate(() => {
        pending = undefined;
        let next: IteratorResult<string | Uint8Array, void>;
        try {
          next = chunks.next();
        } catch (err) {
          this.destroy(err as Error);
          return;
        }
        this.push(next.done === true ? null : typeof next.value === 'string' ? utf8Bytes(next.value) : next.value);
      });
    },
    destroy(err, callback) {
      if (pending !== undefined) clearImmediate(pending);
      pending = undefined;
      chunks.return(undefined);
      callback(err);
    },
  });
}

/**
 * `Buffer.from(text, 'utf8')` without measuring the text first (a scan of its own, ~2
 * instructions a character, 9% of a page of 500 Events): written into room for every
 * character as one byte and an eighth more, which holds the whole text when it wrote up to 3
 * bytes short of the room (no character takes more than 4); measured only where it did not fit.
 */
export function utf8Bytes(text: string): Buffer {
  const room = text.length + (text.length >> 3) + 8;
  const buf = Buffer.allocUnsafe(room);
  const written = buf.write(text, 0, room, 'utf8');
  return written <= room - 4 ? buf.subarray(0, written) : Buffer.from(text, 'utf8');
}
