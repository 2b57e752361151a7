import { callAfter } from '../watch/deadline.js';
import { encodeWatchEvent, goEscapeJSON, initialEventsEndAnnotation } from '@kevents/api';
import { protobufMediaType, protobufObject, protobufStatus } from './protobuf-answer.js';
import type { KubeObject, WatchEvent } from '@kevents/api';
import { hasRevisionReads, isStorageError } from '@kevents/storage';
import type { Predicate, StorageWatchEvent, Watcher, WatchOptions } from '@kevents/storage';
import type { FastifyReply } from 'fastify';
import { fromStorageError } from '../errors/api-error.js';
import type { Negotiated, Representation } from '../encoding/negotiate.js';
import { EncodedEventCache } from '../encoding/encoded-cache.js';
import { partialObjectMetadata } from '../encoding/partial-metadata.js';
import { parseIncludeObject, toTable } from '../table/table.js';
import type { RestScope } from '../scope/rest-scope.js';
import type { RestRequest } from '../request/rest-request.js';
import type { ListRequestOptions } from '../request/query.js';
import { WatchStream } from '../watch/watch-stream.js';
import { q } from '../request/query.js';

/** A JSON watch line as kube's streaming encoder writes it: compact, Go's escapes, a newline. */
const jsonLine = (event: unknown): Buffer => Buffer.from(`${goEscapeJSON(JSON.stringify(event))}\n`);

/**
 * A protobuf watch frame: the length of the WatchEvent (4 bytes, big-endian), then the WatchEvent
 * holding the object's envelope, as kube's length-delimited framer writes them.
 */
function protobufFrame(type: string, objectEnvelope: Buffer): Buffer {
  const event = encodeWatchEvent(type, objectEnvelope);
  const frame = Buffer.allocUnsafe(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  frame.set(event, 4);
  return frame;
}

/** Watch lines of a view in another representation (PartialObjectMetadata, protobuf), shared by the watches that ask for it. */
const conversionCaches = new WeakMap<RestScope, Map<string, EncodedEventCache>>();

function conversionCache(scope: RestScope, negotiated: Negotiated, rep: Representation): EncodedEventCache {
  let byKey = conversionCaches.get(scope);
  if (!byKey) conversionCaches.set(scope, (byKey = new Map()));
  const key = `${negotiated.mediaType};${rep.as};${'version' in rep ? rep.version : ''}`;
  let cache = byKey.get(key);
  if (!cache) byKey.set(key, (cache = new EncodedEventCache()));
  return cache;
}

/** Translates the wire start point into storage watch options (api-concepts.md semantics). */
export function watchStart(
  opts: ListRequestOptions,
): Pick<WatchOptions, 'resourceVersion' | 'sendInitialEvents' | 'initialEventsEndBookmark'> {
  const rv = opts.resourceVersion && opts.resourceVersion !== '0' ? opts.resourceVersion : undefined;
  if (opts.sendInitialEvents === true)
    return { sendInitialEvents: true, initialEventsEndBookmark: opts.allowWatchBookmarks };
  if (opts.sendInitialEvents === false) return rv ? { resourceVersion: rv } : {};
  return rv ? { resourceVersion: rv } : { sendInitialEvents: true };
}

/** The body of a BOOKMARK: an empty object of the resource with only its resourceVersion (and annotations). */
const bookmarkObject = <T extends KubeObject>(
  scope: RestScope<T>,
  resourceVersion: string,
  annotations?: Record<string, string>,
): T => {
  const obj = scope.strategy.newObject();
  obj.metadata = { resourceVersion, ...(annotations ? { annotations } : {}) };
  return obj;
};

/**
 * Serves a watch as a stream of JSON lines (`{"type":...,"object":...}\n`), ending it after
 * `timeoutSeconds`, when the client goes away, at server shutdown, or with an in-stream ERROR
 * Status (410 Expired for a too old resourceVersion), as kube-apiserver does.
 */
export async function serveWatch<T extends KubeObject>(
  ctx: RestScope<T>,
  req: RestRequest,
  reply: FastifyReply,
  opts: ListRequestOptions,
  predicate: Predicate<T> | undefined,
  negotiated: Negotiated,
): Promise<void> {
  // PartialObjectMetadataList asked of a watch's single objects fails kube's conversion, which
  // then sends the objects themselves (`watchEmbeddedEncoder`).
  const rep =
    negotiated.representation.as === 'PartialObjectMetadataList'
      ? { as: 'object' as const }
      : negotiated.representation;
  const protobuf = negotiated.mediaType === protobufMediaType;
  const converted = rep.as !== 'object' || protobuf;
  const include = rep.as === 'Table' ? parseIncludeObject(q(req.query, 'includeObject')) : 'Metadata';
  const namespace = req.params.namespace;
  const abort = new AbortController();
  const start = watchStart(opts);
  let watcher: Watcher<T> | undefined;
  let startError: unknown;
  try {
    watcher = await ctx.store.storage.watch<T>(ctx.store.prefix(namespace), {
      ...start,
      allowBookmarks: opts.allowWatchBookmarks,
      predicate,
      signal: abort.signal,
    });
  } catch (err) {
    if (!isStorageError(err, 'Expired')) throw fromStorageError(err, ctx.view.gr);
    startError = err;
  }

  // Until the watch passes this resourceVersion it sends initial events or older changes and
  // waits for its client; after that it is live: output is buffered up to the backlog limit.
  let catchingUpTo = -1;
  if (watcher) {
    try {
      catchingUpTo = Number(await ctx.store.storage.currentResourceVersion());
    } catch (err) {
      watcher.stop();
      throw fromStorageError(err, ctx.view.gr);
    }
  }

  const stream = new WatchStream(reply.raw, protobuf ? `${protobufMediaType};stream=watch` : 'application/json');
  reply.hijack();

  let headersSent = false;
  // Until the watch is live its ADDED events are mostly initial events: the same stored states
  // for every watch of the view that starts with them, decoded by each (see EncodedEventCache.revision).
  let live = false;
  const revisionsShared = !converted && hasRevisionReads(ctx.store.storage);
  const encode = (type: WatchEvent['type'], e: T): unknown => {
    if (rep.as === 'object' || type === 'ERROR') return ctx.view.toExternal(e);
    if (rep.as === 'PartialObjectMetadata') return partialObjectMetadata(ctx.view, e, rep.version);
    // A BOOKMARK is a one-row Table too: kube's printer converts the bookmark object as it is.
    const t = toTable(
      ctx,
      [e],
      { resourceVersion: e.metadata.resourceVersion },
      { version: rep.version, include, noHeaders: headersSent },
    );
    headersSent = true;
    return t;
  };
  const bookmarkOf = (ev: StorageWatchEvent<T> & { type: 'BOOKMARK' }): T =>
    bookmarkObject(ctx, ev.resourceVersion, ev.initialEventsEnd ? { [initialEventsEndAnnotation]: 'true' } : undefined);
  const lineOf = (ev: StorageWatchEvent<T>): Buffer => {
    if (protobuf) {
      const obj = ev.type === 'BOOKMARK' ? bookmarkOf(ev) : ev.object;
      return protobufFrame(ev.type, protobufObject(ctx.view, obj, rep));
    }
    if (ev.type === 'BOOKMARK') {
      const annotations = ev.initialEventsEnd ? { [initialEventsEndAnnotation]: 'true' } : undefined;
      return jsonLine({
        type: 'BOOKMARK',
        object: encode('BOOKMARK', bookmarkObject(ctx, ev.resourceVersion, annotations)),
      });
    }
    if (converted) return jsonLine({ type: ev.type, object: encode(ev.type, ev.object) });
    const { type, object } = ev;
    const line = (): Buffer => Buffer.from(`{"type":"${type}","object":${ctx.texts.storedJSON(object)}}\n`);
    if (type === 'ADDED' && !live && revisionsShared) return ctx.encoded.revision(Number(ev.resourceVersion), line);
    return ctx.encoded.get(object, type, line);
  };
  const errorLine = (err: unknown): Buffer => {
    const status = fromStorageError(err, ctx.view.gr).status;
    if (protobuf) return protobufFrame('ERROR', protobufStatus(status));
    return jsonLine({ type: 'ERROR', object: status });
  };

  if (startError !== undefined || !watcher) {
    void stream.write([errorLine(startError)]);
    stream.end();
    return;
  }
  const w = watcher;
  const stop = (): void => {
    abort.abort();
    w.stop();
    stream.end();
  };
  const info = req.requestInfo;
  const unregister = ctx.watches.add(stop, {
    group: ctx.view.group,
    version: ctx.view.version,
    resource: ctx.view.resource,
    scope: info.namespace ? 'namespace' : 'cluster',
  });
  // kube's: 0 or none is a random length in [min, 2*min); a negative one ends the watch at once.
  const seconds =
    opts.timeoutSeconds !== undefined && opts.timeoutSeconds !== 0
      ? opts.timeoutSeconds
      : ctx.minRequestTimeoutSeconds * (1 + Math.random());
  const cancelTimeout = callAfter(seconds * 1000, stop);
  stream.onClose(() => {
    // The client went away before the server ended the stream: fastify reports no response.
    if (!reply.raw.writableFinished) ctx.onWatchAbandoned?.(req);
    stop();
  });
  const hub = ctx.watches;
  const linesOf = (batch: readonly StorageWatchEvent<T>[]): readonly Buffer[] => batch.map(lineOf);
  // A JSON line depends only on its event and the view, so the watches of a view woken with the
  // same batch share its lines (Table rows carry per-watch column headers; PartialObjectMetadata
  // and protobuf lines are shared in a cache of their own per representation).
  const shared = rep.as === 'Table' ? undefined : converted ? conversionCache(ctx, negotiated, rep) : ctx.encoded;
  const encodeBatch = shared ? (batch: readonly StorageWatchEvent<T>[]) => shared.linesOf(batch, linesOf) : linesOf;
  // The client did not get back under the backlog limits in time: end the watch (it watches
  // again or relists) and free its output, as kube-apiserver's cacher terminates a blocked watcher.
  const judge = (caughtUp: boolean): void => {
    if (caughtUp || stream.closed) return;
    hub.recordTerminated(ctx.view.group, ctx.view.resource);
    stream.abort();
    stop();
  };
  try {
    await w.consume((batch) => {
      if (stream.closed) return stop();
      if (!live) {
        for (const ev of batch) if (ev.type !== 'BOOKMARK' && Number(ev.resourceVersion) > catchingUpTo) live = true;
        if (!live) return stream.write(encodeBatch(batch));
      }
      // A live watch does not wait for its client (the watches woken by a change share its
      // batch and its encoding) until its unsent output passes the backlog limits; then it
      // reads no more from the store for up to the grace period, and is ended if still behind.
      stream.writeBuffered(encodeBatch(batch), batch.length);
      if (!stream.over(hub.backlogLimitBytes, hub.backlogLimitEvents)) return undefined;
      return stream.backWithin(hub.backlogLimitBytes, hub.backlogLimitEvents, hub.backlogGraceMs).then(judge);
    });
  } catch (err) {
    if (!stream.closed) void stream.write([errorLine(err)]);
  } finally {
    cancelTimeout();
    unregister();
    stop();
  }
}
