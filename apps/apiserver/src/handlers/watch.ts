import { randomUUID } from 'node:crypto';
import { initialEventsEndAnnotation } from '@kevents/api';
import type { CoreEvent, WatchEvent } from '@kevents/api';
import { isStorageError } from '@kevents/storage';
import type { Predicate, StorageWatchEvent, Watcher, WatchOptions } from '@kevents/storage';
import type { FastifyReply } from 'fastify';
import { fromStorageError } from '../errors/api-error.js';
import type { Representation } from '../table/negotiate.js';
import { eventsToTable, parseIncludeObject } from '../table/table.js';
import type { HandlerContext, RestRequest } from './context.js';
import type { ListRequestOptions } from './query.js';
import { q } from './query.js';

/** Translates the wire start point into storage watch options (api-concepts.md semantics). */
export function watchStart(opts: ListRequestOptions): Pick<WatchOptions, 'resourceVersion' | 'sendInitialEvents' | 'initialEventsEndBookmark'> {
  const rv = opts.resourceVersion && opts.resourceVersion !== '0' ? opts.resourceVersion : undefined;
  if (opts.sendInitialEvents === true) return { sendInitialEvents: true, initialEventsEndBookmark: opts.allowWatchBookmarks };
  if (opts.sendInitialEvents === false) return rv ? { resourceVersion: rv } : {};
  return rv ? { resourceVersion: rv } : { sendInitialEvents: true };
}

const emptyEvent = (resourceVersion: string, annotations?: Record<string, string>): CoreEvent => ({
  metadata: { resourceVersion, ...(annotations ? { annotations } : {}) },
  involvedObject: {},
  reportingComponent: '',
  reportingInstance: '',
});

/**
 * Serves a watch as a stream of JSON lines (`{"type":...,"object":...}\n`), ending it after
 * `timeoutSeconds`, when the client goes away, at server shutdown, or with an in-stream ERROR
 * Status (410 Expired for a too old resourceVersion), as kube-apiserver does.
 */
export async function serveWatch(
  ctx: HandlerContext,
  req: RestRequest,
  reply: FastifyReply,
  opts: ListRequestOptions,
  predicate: Predicate<CoreEvent> | undefined,
  rep: Representation,
): Promise<void> {
  const include = rep.as === 'Table' ? parseIncludeObject(q(req.query, 'includeObject')) : 'Metadata';
  const namespace = req.params.namespace;
  const abort = new AbortController();
  let watcher: Watcher<CoreEvent> | undefined;
  let startError: unknown;
  try {
    watcher = await ctx.storage.watch<CoreEvent>(
      { resource: 'events', ...(namespace !== undefined ? { namespace } : {}) },
      { ...watchStart(opts), allowBookmarks: opts.allowWatchBookmarks, predicate, signal: abort.signal },
    );
  } catch (err) {
    if (!isStorageError(err, 'Expired')) throw fromStorageError(err, ctx.view.gr);
    startError = err;
  }

  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    'Audit-Id': randomUUID(),
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
    Connection: 'close',
  });
  res.flushHeaders();

  let headersSent = false;
  const encode = (type: WatchEvent['type'], e: CoreEvent): unknown => {
    if (rep.as !== 'Table' || type === 'ERROR') return ctx.view.toExternal(e);
    const t = eventsToTable(ctx.view, type === 'BOOKMARK' ? [] : [e], { resourceVersion: e.metadata.resourceVersion }, { version: rep.version, include, noHeaders: headersSent });
    headersSent = true;
    return t;
  };
  let pending: Buffer[] = [];
  let scheduled = false;
  let lastFlush = 0;
  let draining: Promise<void> | undefined;
  const flush = (): void => {
    scheduled = false;
    lastFlush = performance.now();
    if (pending.length === 0 || res.destroyed) {
      pending = [];
      return;
    }
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    if (!res.write(chunk)) {
      draining = new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  };
  const finish = (): void => {
    flush();
    res.end();
  };
  /**
   * Queues a line. Lines go out at the end of the current event-loop turn, and at most once per
   * `watchFlushIntervalMs` per stream, so a busy stream sends several events per write (one
   * socket write costs far more than a few hundred bytes more in it).
   */
  const write = (line: Buffer): Promise<void> | undefined => {
    pending.push(line);
    if (!scheduled) {
      scheduled = true;
      const wait = lastFlush + ctx.watchFlushIntervalMs - performance.now();
      if (wait <= 0) setImmediate(flush);
      else setTimeout(flush, wait);
    }
    const d = draining;
    draining = undefined;
    return d;
  };
  const writeError = async (err: unknown): Promise<void> =>
    write(Buffer.from(`${JSON.stringify({ type: 'ERROR', object: fromStorageError(err, ctx.view.gr).status })}\n`));

  if (startError !== undefined || !watcher) {
    await writeError(startError);
    finish();
    return;
  }
  const w = watcher;
  const stop = (): void => {
    abort.abort();
    w.stop();
  };
  const unregister = ctx.watches.add(stop);
  const seconds = opts.timeoutSeconds && opts.timeoutSeconds > 0
    ? opts.timeoutSeconds
    : ctx.minRequestTimeoutSeconds * (1 + Math.random());
  const timer = setTimeout(stop, seconds * 1000);
  res.on('close', stop);
  try {
    for await (const ev of w as AsyncIterable<StorageWatchEvent<CoreEvent>>) {
      if (res.destroyed) break;
      let line: Buffer;
      if (ev.type === 'BOOKMARK') {
        const annotations = ev.initialEventsEnd ? { [initialEventsEndAnnotation]: 'true' } : undefined;
        line = Buffer.from(`${JSON.stringify({ type: 'BOOKMARK', object: encode('BOOKMARK', emptyEvent(ev.resourceVersion, annotations)) })}\n`);
      } else if (rep.as === 'Table') {
        line = Buffer.from(`${JSON.stringify({ type: ev.type, object: encode(ev.type, ev.object) })}\n`);
      } else {
        const type = ev.type;
        const object = ev.object;
        line = ctx.encoded.get(object, type, () => Buffer.from(`${JSON.stringify({ type, object: ctx.view.toExternal(object) })}\n`));
      }
      const drained = write(line);
      if (drained) await drained;
    }
  } catch (err) {
    if (!res.destroyed) await writeError(err);
  } finally {
    clearTimeout(timer);
    unregister();
    stop();
    if (!res.destroyed) finish();
  }
}
