import { hasRevisionReads } from '@kevents/storage';
import type { KeyPrefix, ListOptions, ObjectKey, RevisionReads, Storage } from '@kevents/storage';

type Attributes = Record<string, string | number>;

/** What the decorator needs of `@kevents/tracing`'s `Tracing`. */
export interface SpanRunner {
  withSpan<T>(scope: string, name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T>;
}

const scope = 'go.etcd.io/etcd/client/v3/storage';

const keyOf = (k: ObjectKey): string => `/${k.resource}/${k.namespace ? `${k.namespace}/` : ''}${k.name}`;
const prefixOf = (p: KeyPrefix): string => `/${p.resource}/${p.namespace ? `${p.namespace}/` : ''}`;

/**
 * The storage spans of kube-apiserver's etcd3 store (the Redis or in-process store is kevents'
 * etcd): `Create etcd3`, `GuaranteedUpdate etcd3` (update and guaranteed update),
 * `List(recursive=true) etcd3`, and, named alike, `Get etcd3` and `Delete etcd3`; each with
 * `audit-id`, `key` and `resource`. A span is made only under a recording span (a traced
 * request's handler); everything else (watch, compaction, new methods) passes through untouched.
 */
export function tracedStorage(storage: Storage, tracing: SpanRunner, auditId: () => string | undefined): Storage {
  const attrs = (key: string, resource: string): Attributes => ({ 'audit-id': auditId() ?? '', key, resource });
  const listAttrs = (prefix: KeyPrefix, options: Omit<ListOptions, 'predicate'> | undefined): Attributes => ({
    ...attrs(prefixOf(prefix), prefix.resource),
    resourceVersion: options?.resourceVersion ?? '',
    limit: options?.limit ?? 0,
  });
  // Revision reads (the memory store's gets and lists for cached encodings) are the same reads.
  const revisions: Partial<RevisionReads> = hasRevisionReads(storage)
    ? {
        getRevision: (key, options) =>
          tracing.withSpan(scope, 'Get etcd3', attrs(keyOf(key), key.resource), () =>
            storage.getRevision(key, options),
          ),
        listRevisions: (prefix, options) =>
          tracing.withSpan(scope, 'List(recursive=true) etcd3', listAttrs(prefix, options), () =>
            storage.listRevisions(prefix, options),
          ),
      }
    : {};
  const wrapped: Partial<Storage> & Partial<RevisionReads> = {
    ...revisions,
    get: (key, options) =>
      tracing.withSpan(scope, 'Get etcd3', attrs(keyOf(key), key.resource), () => storage.get(key, options)),
    list: (prefix, options) =>
      tracing.withSpan(scope, 'List(recursive=true) etcd3', listAttrs(prefix, options), () =>
        storage.list(prefix, options),
      ),
    create: (key, obj) =>
      tracing.withSpan(scope, 'Create etcd3', { ...attrs(keyOf(key), key.resource), type: obj.kind ?? '' }, () =>
        storage.create(key, obj),
      ),
    update: (key, obj, options) =>
      tracing.withSpan(
        scope,
        'GuaranteedUpdate etcd3',
        { ...attrs(keyOf(key), key.resource), type: obj.kind ?? '' },
        () => storage.update(key, obj, options),
      ),
    guaranteedUpdate: (key, tryUpdate, options) =>
      tracing.withSpan(scope, 'GuaranteedUpdate etcd3', attrs(keyOf(key), key.resource), () =>
        storage.guaranteedUpdate(key, tryUpdate, options),
      ),
    delete: (key, options) =>
      tracing.withSpan(scope, 'Delete etcd3', attrs(keyOf(key), key.resource), () => storage.delete(key, options)),
  };
  return new Proxy(storage, {
    get(target, prop, receiver) {
      const w = (wrapped as Record<string | symbol, unknown>)[prop];
      if (w) return w;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
