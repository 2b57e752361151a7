/**
 * List-then-watch of events.k8s.io/v1 events, as client-go's reflector does: list (in pages), then watch
 * from the list's resourceVersion with bookmarks; a watch that ends is resumed from the last resourceVersion
 * seen; a 410 Gone (on the request or as an ERROR event) lists again.
 */
import { collectionPath, requestQuery, type Filters, type WireEvent } from './model.js';

export interface WatchSink {
  /** A fresh list replaces everything held. */
  reset(items: readonly WireEvent[]): void;
  upsert(e: WireEvent): void;
  remove(e: WireEvent): void;
  /** Connection state for the status line. */
  status(text: string, error?: boolean): void;
}

/** Options of {@link watchEvents}. */
export interface WatchOptions {
  readonly filters: Filters;
  /** Bearer token for JWT setups (empty: none; client certificates and cookies are the browser's). */
  readonly token: string;
  readonly sink: WatchSink;
  readonly signal: AbortSignal;
  /** Base URL the relative API paths resolve against (the page's). */
  readonly base: string;
  readonly pageSize?: number;
}

class HttpError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

async function request(url: string, o: Pick<WatchOptions, 'token' | 'signal'>): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (o.token) headers['Authorization'] = `Bearer ${o.token}`;
  const res = await fetch(url, { headers, signal: o.signal, credentials: 'same-origin' });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const status = (await res.json()) as { message?: string };
      if (status.message) message = `${res.status}: ${status.message}`;
    } catch {
      // not a Status
    }
    throw new HttpError(res.status, message);
  }
  return res;
}

/** Lists every page of `query` (a list request's query string without limit/continue) at `collection`. */
export async function listAll(
  collection: string,
  query: Record<string, string>,
  o: Pick<WatchOptions, 'token' | 'signal' | 'base' | 'pageSize'>,
): Promise<{ items: WireEvent[]; resourceVersion: string }> {
  const path = new URL(collection, o.base).toString();
  const items: WireEvent[] = [];
  let cont = '';
  let rv = '';
  do {
    const q = new URLSearchParams(query);
    q.set('limit', String(o.pageSize ?? 2000));
    if (cont) q.set('continue', cont);
    const res = await request(`${path}?${q.toString()}`, o);
    const body = (await res.json()) as {
      items: WireEvent[];
      metadata: { resourceVersion?: string; continue?: string };
    };
    items.push(...body.items);
    cont = body.metadata.continue ?? '';
    rv = body.metadata.resourceVersion ?? rv;
  } while (cont);
  return { items, resourceVersion: rv };
}

async function list(o: WatchOptions): Promise<string> {
  const query = Object.fromEntries(new URLSearchParams(requestQuery(o.filters, {})));
  const { items, resourceVersion } = await listAll(collectionPath(o.filters.namespace), query, o);
  o.sink.reset(items);
  return resourceVersion;
}

/** Watches from `rv`; resolves with the last resourceVersion seen, or null when the server said 410. */
async function watchFrom(rv: string, o: WatchOptions): Promise<string | null> {
  const path = new URL(collectionPath(o.filters.namespace), o.base).toString();
  const query = requestQuery(o.filters, {
    watch: '1',
    resourceVersion: rv,
    allowWatchBookmarks: 'true',
    timeoutSeconds: '300',
  });
  let res: Response;
  try {
    res = await request(`${path}?${query}`, o);
  } catch (err) {
    if (err instanceof HttpError && err.code === 410) return null;
    throw err;
  }
  o.sink.status('live');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  // The text of a line not yet ended, in the chunks it came in: each chunk is searched for a newline
  // once and a line joined once, so a long line arriving in many chunks costs its length (appending
  // to one string and searching it again flattened it anew with every chunk: 27 s for 3 MiB in
  // 1 KiB chunks).
  const pending: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return rv;
    let start = 0;
    let nl: number;
    while ((nl = value.indexOf('\n', start)) >= 0) {
      pending.push(value.slice(start, nl));
      const line = pending.join('').trim();
      pending.length = 0;
      start = nl + 1;
      if (!line) continue;
      const ev = JSON.parse(line) as { type: string; object: WireEvent & { code?: number } };
      if (ev.type === 'ERROR') {
        if (ev.object.code === 410) return null;
        throw new HttpError(ev.object.code ?? 500, (ev.object as { message?: string }).message ?? 'watch error');
      }
      rv = ev.object.metadata.resourceVersion ?? rv;
      if (ev.type === 'ADDED' || ev.type === 'MODIFIED') o.sink.upsert(ev.object);
      else if (ev.type === 'DELETED') o.sink.remove(ev.object);
    }
    if (start < value.length) pending.push(value.slice(start));
  }
}

/** Runs until `signal` aborts; errors are reported to the sink and retried with backoff. */
export async function watchEvents(o: WatchOptions): Promise<void> {
  let rv: string | null = null;
  let backoff = 500;
  while (!o.signal.aborted) {
    try {
      if (rv === null) {
        o.sink.status('listing…');
        rv = await list(o);
      }
      rv = await watchFrom(rv, o);
      backoff = 500;
    } catch (err) {
      if (o.signal.aborted) return;
      const message = err instanceof Error ? err.message : String(err);
      o.sink.status(message, true);
      if (err instanceof HttpError && (err.code === 401 || err.code === 403)) rv = null;
      await sleep(backoff, o.signal);
      backoff = Math.min(backoff * 2, 10_000);
    }
  }
}
