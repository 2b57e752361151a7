import * as k8s from '@kubernetes/client-node';
import type { KubeObject, ListMeta, WatchEvent } from '@kevents/api';
import { ApiError, ControllerRuntimeError } from '../errors.js';
import type { RestClient } from './rest-client.js';

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
 * preconditions, and watch (client-node's `Watch`).
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
   * `done` runs once when the stream ends, with the error if any. A non-200 answer (for
   * example 410 before the stream starts) arrives in `done` as an {@link ApiError}.
   */
  async watch(
    opts: ListOptions,
    onEvent: (ev: WatchEvent<T>) => void,
    done: (err: unknown) => void,
  ): Promise<WatchHandle> {
    const { namespace, ...q } = opts;
    const w = new k8s.Watch(this.rest.kubeConfig);
    // client-node ends a watch silent for 30 s (no event, no bookmark); the informer resumes it.
    const query: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') query[k] = v as string | number | boolean;
    let stopped = false;
    const controller = await w.watch(
      this.collectionPath(namespace),
      query,
      (type: string, object: T) => {
        if (!stopped) onEvent({ type: type as WatchEvent['type'], object });
      },
      (err: unknown) => {
        const code = (err as { statusCode?: number } | null)?.statusCode;
        // client-node's inactivity timeout (no line for 30 s) ends a quiet watch: a normal end.
        if ((err as Error | null)?.name === 'TimeoutError') err = null;
        done(
          stopped
            ? null
            : code
              ? new ApiError(code, undefined, (err as Error).message)
              : err
                ? new ControllerRuntimeError('Transport', String((err as Error).message ?? err), { cause: err })
                : null,
        );
      },
    );
    return {
      stop: () => {
        stopped = true;
        controller.abort();
      },
    };
  }
}
