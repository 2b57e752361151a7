import { parseJson, type KubeObject, type ListMeta, type WatchEvent } from '@kevents/api';
import type { ReadableStream } from 'node:stream/web';
import { causeChain, ControllerRuntimeError } from '../errors.js';
import type { RestClient } from './rest-client.js';
import { readWatchLines } from './watch-lines.js';

/** Which resource a {@link ResourceClient} addresses. */
export interface ResourceRef {
  /** API group; '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural resource name (`events`, `leases`). */
  readonly resource: string;
  readonly namespaced: boolean;
}

/** A list answer. */
export interface ObjectList<T> {
  readonly metadata: ListMeta;
  readonly items: T[];
}

/** Options of list and watch calls (Kubernetes `ListOptions`). */
export interface ListOptions {
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly timeoutSeconds?: number;
  readonly allowWatchBookmarks?: boolean;
}

/** `DeleteOptions.preconditions`. */
export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** A running watch; `stop()` ends it (the `done` callback then runs once). */
export interface WatchHandle {
  stop(): void;
}

/**
 * Typed-by-generic access to one Kubernetes resource through a {@link RestClient}: get, list,
 * create, update (PUT, with `metadata.resourceVersion` as the precondition), delete with
 * preconditions, and watch.
 */
export class ResourceClient<T extends KubeObject> {
  readonly ref: ResourceRef;
  private readonly rest: RestClient;

  constructor(rest: RestClient, ref: ResourceRef) {
    this.rest = rest;
    this.ref = ref;
  }

  /** The collection path, namespaced or cluster-wide. */
  collectionPath(namespace?: string): string {
    const base = this.ref.group === '' ? `/api/${this.ref.version}` : `/apis/${this.ref.group}/${this.ref.version}`;
    return this.ref.namespaced && namespace
      ? `${base}/namespaces/${namespace}/${this.ref.resource}`
      : `${base}/${this.ref.resource}`;
  }

  private objectPath(namespace: string | undefined, name: string): string {
    return `${this.collectionPath(namespace)}/${encodeURIComponent(name)}`;
  }

  get(namespace: string | undefined, name: string): Promise<T> {
    return this.rest.request<T>({ method: 'GET', path: this.objectPath(namespace, name) });
  }

  list(opts: ListOptions = {}): Promise<ObjectList<T>> {
    const { namespace, ...q } = opts;
    return this.rest.request<ObjectList<T>>({ method: 'GET', path: this.collectionPath(namespace), query: { ...q } });
  }

  create(obj: T): Promise<T> {
    return this.rest.request<T>({ method: 'POST', path: this.collectionPath(obj.metadata.namespace), body: obj });
  }

  /** PUT: fails with 409 when `obj.metadata.resourceVersion` is not the stored one. */
  update(obj: T): Promise<T> {
    return this.rest.request<T>({
      method: 'PUT',
      path: this.objectPath(obj.metadata.namespace, obj.metadata.name!),
      body: obj,
    });
  }

  /** DELETE with `preconditions` (409 when they do not hold, 404 when the object is gone). */
  async delete(namespace: string | undefined, name: string, preconditions?: Preconditions): Promise<void> {
    await this.rest.request({
      method: 'DELETE',
      path: this.objectPath(namespace, name),
      body: preconditions ? { apiVersion: 'v1', kind: 'DeleteOptions', preconditions } : undefined,
    });
  }

  /**
   * Starts a watch. `onEvent` receives every line (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR);
   * `done` runs once when the stream ends, with the error if any, or with none after `stop()`,
   * `timeoutSeconds` (as client-go bounds it) or the client's `watchIdleTimeoutMs` without a byte (the caller resumes it, as client-go's reflector
   * does). A non-2xx answer (for example 410 before the stream starts) arrives in `done` as an
   * {@link ApiError} carrying the server's Status. Lines are read with `parseJson`, so an
   * earlier text cannot change how a later object's keys read (nodejs/node#63785). A line longer than
   * `maxWatchLineBytes` (16 MiB) ends the watch with a Transport error.
   */
  async watch(
    opts: ListOptions,
    onEvent: (ev: WatchEvent<T>) => void,
    done: (err: unknown) => void,
  ): Promise<WatchHandle> {
    const { namespace, ...q } = opts;
    const abort = new AbortController();
    let ended = false;
    let idle: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    const end = (err: unknown): void => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      clearTimeout(deadline);
      abort.abort();
      done(err);
    };
    // client-go's typed clients give a watch request `timeoutSeconds` as its own timeout too, so a
    // server that never ends it (one that drips a byte now and then) cannot hold it past that.
    if (q.timeoutSeconds !== undefined && q.timeoutSeconds > 0)
      deadline = setTimeout(() => end(null), Math.min(q.timeoutSeconds * 1000, 2 ** 31 - 1)).unref();
    const arm = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => end(null), this.rest.watchIdleTimeoutMs);
      idle.unref();
    };
    arm();
    let body: ReadableStream<Uint8Array>;
    try {
      body = await this.rest.stream(
        { method: 'GET', path: this.collectionPath(namespace), query: { ...q, watch: true } },
        abort.signal,
      );
    } catch (err) {
      end(ended ? null : err);
      return { stop: () => end(null) };
    }
    arm();
    void readWatchLines(body, arm, (line) => {
      if (ended) return;
      const ev = watchLine<T>(line);
      if (ev !== undefined) onEvent(ev);
    }).then(
      () => end(null),
      (err: unknown) =>
        end(ended ? null : new ControllerRuntimeError('Transport', `watch: ${causeChain(err)}`, { cause: err })),
    );
    return { stop: () => end(null) };
  }
}

/** One watch line as an event; undefined for a line that is not one (skipped, as client-node's `Watch` skipped it). */
function watchLine<T>(line: string): WatchEvent<T> | undefined {
  let v: unknown;
  try {
    v = parseJson(line);
  } catch {
    return undefined;
  }
  const ev = v as { type?: unknown; object?: unknown } | null;
  if (ev === null || typeof ev !== 'object' || typeof ev.type !== 'string' || typeof ev.object !== 'object')
    return undefined;
  return { type: ev.type as WatchEvent['type'], object: ev.object as T };
}
