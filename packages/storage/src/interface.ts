import type { KubeObject, StoredTextPlan } from '@kevents/api';

/**
 * Where an object lives: its resource (for example `events`), namespace and name.
 * Keys order by `<namespace>/<name>` byte order, which is the list order.
 */
export interface ObjectKey {
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
}

/** A set of objects to list or watch: one resource, in one namespace or (namespace undefined) all. */
export interface KeyPrefix {
  readonly resource: string;
  readonly namespace?: string;
}

/** Conditions a stored object must meet for an update or delete to go ahead. */
export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/**
 * One requirement of a field selector, on an internal field label (as the resource's strategy
 * reads it): the field's value is (`=`) or is not (`!=`) `value`.
 */
export interface FieldRequirement {
  readonly field: string;
  readonly op: '=' | '!=';
  readonly value: string;
}

/**
 * Filters objects in list and watch; also decides ADDED/DELETED transitions in a watch.
 *
 * `fields`, optional, is a hint: field-selector requirements that every object the predicate
 * accepts meets. A store that keeps a field label's value where it can look it up (the SQL store
 * indexes some) may read only the objects that meet one of them; it still applies the predicate,
 * which alone decides. A store may ignore the hint.
 */
export type Predicate<T extends KubeObject = KubeObject> = ((obj: T) => boolean) & {
  readonly fields?: readonly FieldRequirement[];
};

/**
 * How a list reads: `resourceVersion` and `resourceVersionMatch` follow the Kubernetes table
 * (the HTTP layer has already validated the combination):
 *
 * - continue token: read at the token's resourceVersion (rv -1: at the latest); `resourceVersion`
 *   and `resourceVersionMatch` are ignored;
 * - `resourceVersion` unset, `''` or `'0'`: the latest state;
 * - `'N'` with `Exact`, or with no match and a `limit`: exactly the state at N;
 * - `'N'` with `NotOlderThan`, or with no match and no limit: the latest state.
 *
 * Errors: InvalidContinue for a bad token; Expired for an exact read or continue token at a
 * compacted resourceVersion (for a token, `err.continue` carries a token with rv -1 that
 * continues from the latest state); TooLargeResourceVersion when N is newer than the store and
 * stays so for a short wait.
 */
export interface ListOptions<T extends KubeObject = KubeObject> {
  /** `''` (most recent), `'0'` (any), or a decimal resourceVersion. */
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: '' | 'NotOlderThan' | 'Exact';
  /** Page size; 0 or undefined means everything. */
  readonly limit?: number;
  /**
   * A continue token from an earlier page: the Kubernetes format, base64url without padding of
   * `{"v":"meta.k8s.io/v1","rv":<list rv>,"start":"<key>\u0000"}`, the key relative to the list's
   * prefix as in kube (`<name>` in a namespace's list, `<namespace>/<name>` in a cluster-wide one;
   * see `encodeListContinue`), so a token is read in whichever list it is sent with.
   */
  readonly continue?: string;
  readonly predicate?: Predicate<T>;
}

/** One page of a list, read at one resourceVersion. */
export interface ListResult<T extends KubeObject = KubeObject> {
  readonly items: T[];
  /** The resourceVersion at which the whole list (every page) is consistent. */
  readonly resourceVersion: string;
  /** Token for the next page, when there is one. */
  readonly continue?: string;
  /** How many objects remain after this page (only when the list has no predicate). */
  readonly remainingItemCount?: number;
}

/** How a watch starts. */
export interface WatchOptions<T extends KubeObject = KubeObject> {
  /**
   * Deliver changes strictly after this resourceVersion (a decimal string). Undefined, `''` or
   * `'0'` means "from now". A resourceVersion older than the retained history fails with Expired
   * (`too old resource version: N (M)`); one newer than the store waits briefly, then fails with
   * TooLargeResourceVersion. With `sendInitialEvents` it means "not older than": the initial
   * state is the latest one and it never expires.
   */
  readonly resourceVersion?: string;
  /**
   * First send a synthetic ADDED event (with the object's own resourceVersion) for every object
   * that exists at the start point; the watch then continues from there.
   */
  readonly sendInitialEvents?: boolean;
  /** After the initial ADDED events, send a BOOKMARK with `initialEventsEnd` set and the start resourceVersion. */
  readonly initialEventsEndBookmark?: boolean;
  /** Send BOOKMARK events carrying the current resourceVersion from time to time. */
  readonly allowBookmarks?: boolean;
  readonly predicate?: Predicate<T>;
  /** Ends the watch: the iterator finishes without error. */
  readonly signal?: AbortSignal;
}

/**
 * One change seen by a watch. `resourceVersion` is the change's resourceVersion; for DELETED
 * the object is its last state with `metadata.resourceVersion` set to the deletion's version.
 * For a predicate watch, an object that stops matching arrives as DELETED and one that starts
 * matching as ADDED, as Kubernetes does.
 */
export type StorageWatchEvent<T extends KubeObject = KubeObject> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T; readonly resourceVersion: string }
  | { readonly type: 'BOOKMARK'; readonly resourceVersion: string; readonly initialEventsEnd?: boolean };

/**
 * Receives a watch's events a batch at a time (see {@link Watcher.consume}). Return nothing to
 * get the next batch as soon as there is one, or a promise to make the watch wait until it
 * settles (backpressure: a stream whose client reads slowly). A throw or a rejection ends the
 * watch with that error.
 */
export type WatchSink<T extends KubeObject = KubeObject> = (
  batch: readonly StorageWatchEvent<T>[],
) => void | Promise<void>;

/**
 * A running watch. Its events' objects are deeply frozen and shared by every watcher of the
 * change. Consume it once, in one of three ways: iterate it for events, iterate
 * {@link Watcher.batches} for batches, or push batches into a sink with {@link Watcher.consume}.
 * The watch fails with a StorageError when it cannot go on, and ends when stopped, aborted or
 * when the store closes. A consumer that falls so far behind that the changes it has yet to read
 * were compacted gets Expired (`too old resource version: <last delivered> (<compacted>)`) and
 * must relist, as a Kubernetes watch does: stores buffer no events per watcher beyond their
 * shared history.
 */
export interface Watcher<T extends KubeObject = KubeObject> extends AsyncIterable<StorageWatchEvent<T>> {
  /**
   * The same events, in batches: each batch holds the events that were ready when the consumer
   * asked (at least one), in order.
   */
  batches(): AsyncIterable<readonly StorageWatchEvent<T>[]>;
  /**
   * Pushes the events into `sink` a batch at a time, in order: each batch is everything that was
   * ready when the store woke the watch, handed over in the same turn (no promise per event or
   * batch). Resolves when the watch ends; rejects with the error that ended it.
   */
  consume(sink: WatchSink<T>): Promise<void>;
  stop(): void;
}

/**
 * Options of writes. A failed uid precondition is Conflict
 * `Precondition failed: UID in precondition: x, UID in object meta: y`; a failed resourceVersion
 * precondition is Conflict `Precondition failed: ResourceVersion in precondition: x, ResourceVersion in object meta: y`.
 */
export interface WriteOptions {
  readonly preconditions?: Preconditions;
}

/** The update function of `guaranteedUpdate`: gets the current object (or undefined when allowed). */
export type UpdateFunction<T extends KubeObject = KubeObject> = (current: T | undefined) => T | Promise<T>;

/** Options of `guaranteedUpdate`. */
export interface GuaranteedUpdateOptions extends WriteOptions {
  /**
   * Call the update function with `undefined` when the object does not exist, and create it
   * (preconditions apply only to an existing object).
   */
  readonly ignoreNotFound?: boolean;
}

/**
 * The Storage contract every store implements (in-process, Redis). Objects are plain
 * Kubernetes-shaped JSON; the store sets only `metadata.resourceVersion`. Every write takes the
 * next value of one global, strictly increasing resourceVersion, atomically with the object and
 * an entry in the change log. Errors are {@link StorageError}s with stable codes.
 *
 * As in Kubernetes, a write whose result is identical to the stored object (same JSON, ignoring
 * `metadata.resourceVersion`) is a no-op: it returns the stored object with its resourceVersion
 * and writes no change.
 */
export interface Storage {
  /** A short description for logs and `/readyz`: `memory`, `redis://host:port/0`. */
  readonly description: string;

  /**
   * Reads one object. `resourceVersion` `'0'` allows any, `'N'` not older than N (newer than the
   * store: TooLargeResourceVersion after a short wait). Throws NotFound.
   */
  get<T extends KubeObject>(key: ObjectKey, options?: { resourceVersion?: string }): Promise<T>;

  /** Lists objects under a prefix, ordered by namespace then name. */
  list<T extends KubeObject>(prefix: KeyPrefix, options?: ListOptions<T>): Promise<ListResult<T>>;

  /** Stores a new object. Throws AlreadyExists. Returns it with its new resourceVersion. */
  create<T extends KubeObject>(key: ObjectKey, obj: T): Promise<T>;

  /**
   * Replaces an existing object. With `preconditions.resourceVersion` (or a non-empty
   * `obj.metadata.resourceVersion`) the stored version must match, else Conflict (for the
   * object's resourceVersion with `optimisticLockErrorMsg`). Throws NotFound when absent.
   */
  update<T extends KubeObject>(key: ObjectKey, obj: T, options?: WriteOptions): Promise<T>;

  /**
   * Read-modify-write with retry on conflict: calls `tryUpdate` with the current object and
   * stores its result only if nothing changed in between, else reads again and retries.
   * Preconditions are checked against the current object on every attempt; the resourceVersion
   * of the returned object is ignored. Errors thrown by `tryUpdate` end the update and are re-thrown.
   */
  guaranteedUpdate<T extends KubeObject>(
    key: ObjectKey,
    tryUpdate: UpdateFunction<T>,
    options?: GuaranteedUpdateOptions,
  ): Promise<T>;

  /** Deletes an object, checking preconditions. Returns the deleted object (with the deletion RV). */
  delete<T extends KubeObject>(key: ObjectKey, options?: WriteOptions): Promise<T>;

  /** Watches a prefix. Rejects with Expired when the start point is older than the history. */
  watch<T extends KubeObject>(prefix: KeyPrefix, options?: WatchOptions<T>): Promise<Watcher<T>>;

  /**
   * The resourceVersion of the newest write; `'1'` for a store never written (etcd's first
   * revision: the first write is `'2'`, and nothing is ever at `'0'`, which reads mean "any").
   */
  currentResourceVersion(): Promise<string>;

  /**
   * Drops change history at or below `resourceVersion` (clamped to the current one): watches
   * from an older resourceVersion, exact lists and continue tokens below it then expire. Stores
   * also compact by themselves, as their history settings say.
   */
  compact(resourceVersion: string): Promise<void>;

  /** Resolves when the store can serve requests; rejects with Unavailable otherwise. */
  ready(): Promise<void>;

  /** Ends every watch and releases connections. */
  close(): Promise<void>;
}

/**
 * A stored object read without decoding it: its resourceVersion (which names this state of the
 * object for as long as the store lives: a write always takes a new one) and its decoding, on
 * demand. Callers that keep what they encoded for a resourceVersion reuse it instead of decoding.
 */
export interface StoredRevision<T extends KubeObject = KubeObject> {
  readonly resourceVersion: number;
  /** A fresh copy of the object, as {@link Storage.get} returns it. */
  decode(): T;
  /**
   * The object to read, not to change (to encode it): deeply equal to {@link decode}'s, but
   * values that many stored objects repeat may be deeply frozen and shared between the objects
   * decoded so (the memory store's interned managedFields entries: their `fieldsV1`), which
   * spares parsing them and lets serializers that keep texts of frozen values write them once.
   * Absent in stores that share nothing: use {@link decode}.
   */
  decodeShared?(): T;
  /**
   * The object's metadata alone (with its resourceVersion), to read, not to change, as
   * {@link decodeShared} gives it: for answers that show nothing else (PartialObjectMetadata), so
   * that the rest of a large object is not decoded. Absent in stores that cannot read it alone.
   */
  decodeMetadata?(): Pick<T, 'metadata'>;
  /**
   * The JSON text a {@link StoredTextPlan} says of the object (a view's text, written from the
   * stored form without decoding it), with Go's escapes (`goEscapeJSON`: as kube-apiserver writes
   * JSON), or undefined where the store cannot write it so (then encode {@link decodeShared}'s
   * object). Absent in stores that cannot.
   */
  encodeText?(plan: StoredTextPlan): string | undefined;
}

/** One page of {@link RevisionReads.listRevisions}: a {@link ListResult} of undecoded objects. */
export interface RevisionPage<T extends KubeObject = KubeObject> extends Omit<ListResult<T>, 'items'> {
  readonly items: StoredRevision<T>[];
}

/**
 * Reads that leave decoding to the caller, offered by stores whose resourceVersions are never
 * reused for another state while the store object lives (the memory store). Same semantics and
 * errors as {@link Storage.get} and {@link Storage.list} (lists without a predicate).
 */
export interface RevisionReads {
  getRevision<T extends KubeObject>(key: ObjectKey, options?: { resourceVersion?: string }): Promise<StoredRevision<T>>;
  listRevisions<T extends KubeObject>(
    prefix: KeyPrefix,
    options?: Omit<ListOptions<T>, 'predicate'>,
  ): Promise<RevisionPage<T>>;
}

/** Whether a store offers {@link RevisionReads}. */
export function hasRevisionReads(storage: Storage): storage is Storage & RevisionReads {
  const s = storage as Partial<RevisionReads>;
  return typeof s.getRevision === 'function' && typeof s.listRevisions === 'function';
}
