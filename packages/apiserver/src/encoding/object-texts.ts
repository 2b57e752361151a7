import { goEscapeJSON } from '@kevents/api';
import type { KubeObject } from '@kevents/api';
import { hasRevisionReads } from '@kevents/storage';
import type { ListOptions, StoredRevision } from '@kevents/storage';
import { fromStorageError } from '../errors/api-error.js';
import type { ApiError } from '../errors/api-error.js';
import type { Store } from '../registry/store.js';
import { EncodedItems, encodedItemsMaxChars } from './encoded-items.js';
import { CreatedTexts } from './created-texts.js';
import { RecentTexts } from './recent-texts.js';

/**
 * A page of a list whose items are encoded on demand as JSON texts (see {@link ObjectTexts.listJSON}):
 * a long list is encoded a slice at a time, as it is streamed.
 */
export interface JSONPage {
  readonly length: number;
  /** The list-item texts of items `[from, to)`. */
  readonly texts: (from: number, to: number) => string[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/**
 * A page's objects by range (an array is one): those of {@link ObjectTexts.listObjects} are
 * decoded when their slice is asked for.
 */
export interface PageItems<T> {
  readonly length: number;
  slice(from: number, to: number): readonly T[];
}

/** A page of a list whose objects are decoded on demand (see {@link ObjectTexts.listObjects}). */
export interface ObjectPage<T> {
  readonly items: PageItems<T>;
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/**
 * The JSON texts of one store's objects through its view, with Go's escapes ({@link goEscapeJSON}),
 * with the texts encoded before kept by resourceVersion: what handlers answer gets, pages, writes
 * and watch lines with. Reads go
 * straight to the store's storage (they are never dry runs).
 */
export class ObjectTexts<T extends KubeObject = KubeObject> {
  readonly #store: Store<T>;
  /** The view's texts of stored objects by resourceVersion (used with stores that read revisions). */
  readonly #encoded: EncodedItems;
  /** The view's texts of the last writes and watch events, by resourceVersion. */
  readonly #recent = new RecentTexts();
  /** The view's texts of the last creates, by resourceVersion and uid (stores that do not read revisions). */
  readonly #created = new CreatedTexts();

  /** `encodedMaxChars`: the size of the encoded-item cache ({@link EncodedItems}). */
  constructor(store: Store<T>, encodedMaxChars = encodedItemsMaxChars) {
    this.#store = store;
    this.#encoded = new EncodedItems(encodedMaxChars);
  }

  #fail(err: unknown, name = ''): ApiError {
    return fromStorageError(err, this.#store.view.gr, name);
  }

  /**
   * The JSON text of one object through the view (with kind and apiVersion), reusing the text
   * encoded for its resourceVersion before; undefined when the storage cannot read revisions (or
   * the view cannot add type meta): then use {@link Store.get}.
   */
  async getJSON(namespace: string, name: string, resourceVersion?: string): Promise<string | undefined> {
    const storage = this.#store.storage;
    const typed = this.#store.view.withTypeMeta;
    if (!hasRevisionReads(storage) || typed === undefined) return undefined;
    try {
      const rev = await storage.getRevision<T>(this.#store.key(namespace, name), { resourceVersion });
      return typed(this.#itemJSON(rev));
    } catch (err) {
      throw this.#fail(err, name);
    }
  }

  /**
   * One stored object to be read only (to encode it: protobuf, a Table row, its
   * PartialObjectMetadata, YAML, indented JSON), decoded as a get's text is: straight from the
   * stored form, its shared values frozen (`StoredRevision.decodeShared`), not parsed from a fresh
   * text; undefined when the storage cannot read revisions: then use {@link Store.get}. With
   * `part` 'metadata' (a PartialObjectMetadata), only its metadata where the store reads it alone.
   */
  async getObject(
    namespace: string,
    name: string,
    resourceVersion?: string,
    part: ObjectPart = 'object',
  ): Promise<T | undefined> {
    const storage = this.#store.storage;
    if (!hasRevisionReads(storage)) return undefined;
    try {
      const rev = await storage.getRevision<T>(this.#store.key(namespace, name), { resourceVersion });
      return readOnly(rev, part);
    } catch (err) {
      throw this.#fail(err, name);
    }
  }

  /**
   * A page of a list without predicate as list-item JSON texts (reusing texts encoded before);
   * undefined when the storage cannot read revisions: then use {@link Store.list}. The texts
   * encoded for it are kept only while the whole list (this page and the items after it) would
   * fit in the cache ({@link EncodedItems.get}'s `listed`): a repeated page of a namespace is
   * served from the cache, a walk through 200,000 objects does not churn it.
   */
  async listJSON(
    namespace: string | undefined,
    options: Omit<ListOptions<T>, 'predicate'>,
  ): Promise<JSONPage | undefined> {
    const storage = this.#store.storage;
    if (!hasRevisionReads(storage)) return undefined;
    try {
      const { items, ...meta } = await storage.listRevisions<T>(this.#store.prefix(namespace), options);
      const listed = items.length + (meta.remainingItemCount ?? 0);
      const texts = (from: number, to: number): string[] =>
        items.slice(from, to).map((rev) => this.#itemJSON(rev, listed));
      return { ...meta, length: items.length, texts };
    } catch (err) {
      throw this.#fail(err);
    }
  }

  /**
   * A page of a list without predicate as objects to be read only (for Tables,
   * PartialObjectMetadataLists, protobuf, YAML and indented JSON), each decoded as {@link getObject}
   * decodes it when its slice is asked for, so that an answer made a slice at a time decodes a
   * slice at a time; undefined when the storage cannot read revisions: then use {@link Store.list}.
   * With `part` 'metadata' (a PartialObjectMetadataList), only their metadata where the store reads it alone.
   */
  async listObjects(
    namespace: string | undefined,
    options: Omit<ListOptions<T>, 'predicate'>,
    part: ObjectPart = 'object',
  ): Promise<ObjectPage<T> | undefined> {
    const storage = this.#store.storage;
    if (!hasRevisionReads(storage)) return undefined;
    try {
      const { items: revisions, ...meta } = await storage.listRevisions<T>(this.#store.prefix(namespace), options);
      const items: PageItems<T> = {
        length: revisions.length,
        slice: (from, to) => revisions.slice(from, to).map((rev) => readOnly(rev, part)),
      };
      return { ...meta, items };
    } catch (err) {
      throw this.#fail(err);
    }
  }

  /**
   * The JSON text through the view (with kind and apiVersion) of an object as it was stored at
   * its resourceVersion: what a write stored, or what a watch delivers. With stores that read
   * revisions the text of the last writes is kept by resourceVersion ({@link RecentTexts}), so the
   * answer to a create, the watch lines of the change and a get soon after share one encoding.
   * Never for a dry run's result, which was not stored (it has no resourceVersion).
   */
  storedJSON(obj: T): string {
    const view = this.#store.view;
    const typed = view.withTypeMeta;
    const rv = Number(obj.metadata?.resourceVersion);
    if (typed === undefined || !Number.isSafeInteger(rv) || rv <= 0) return goEscapeJSON(view.toJSON(obj, true));
    if (hasRevisionReads(this.#store.storage))
      return typed(this.#recent.get(rv, () => goEscapeJSON(view.toJSON(obj, false))));
    const uid = obj.metadata?.uid;
    const kept = typeof uid === 'string' && uid !== '' ? this.#created.peek(rv, uid) : undefined;
    return kept === undefined ? goEscapeJSON(view.toJSON(obj, true)) : typed(kept);
  }

  /**
   * {@link storedJSON} of an object a create just stored, which with stores that do not read
   * revisions is also kept for the watch lines of its change ({@link CreatedTexts}).
   */
  createdJSON(obj: T): string {
    const view = this.#store.view;
    const typed = view.withTypeMeta;
    const rv = Number(obj.metadata?.resourceVersion);
    const uid = obj.metadata?.uid;
    if (
      typed === undefined ||
      hasRevisionReads(this.#store.storage) ||
      !Number.isSafeInteger(rv) ||
      rv <= 0 ||
      typeof uid !== 'string' ||
      uid === ''
    )
      return this.storedJSON(obj);
    const text = goEscapeJSON(view.toJSON(obj, false));
    this.#created.set(rv, uid, text);
    return typed(text);
  }

  /**
   * The view's list-item text of a stored revision, decoded to be read only (`toJSON` changes
   * nothing); `listed`: how many items its list has ({@link EncodedItems.get}).
   */
  #itemJSON(rev: StoredRevision<T>, listed = 1): string {
    const rv = rev.resourceVersion;
    return this.#encoded.get(rv, () => this.#recent.peek(rv) ?? this.#encodeItem(rev), listed);
  }

  /**
   * The view's list-item text of a stored revision, with Go's escapes: written from its stored
   * form where the view's plan says it, else from its decoded object.
   */
  #encodeItem(rev: StoredRevision<T>): string {
    const { view } = this.#store;
    const plan = view.storedText;
    const text = plan === undefined ? undefined : rev.encodeText?.(plan);
    return text ?? goEscapeJSON(view.toJSON(readOnly(rev, 'object'), false));
  }
}

/**
 * What of a stored object a read needs: all of it, or its metadata alone (for PartialObjectMetadata,
 * which shows nothing else: the object then holds only `metadata`).
 */
export type ObjectPart = 'object' | 'metadata';

/** A stored revision decoded to be read only (shared values frozen where the store shares them). */
function readOnly<T extends KubeObject>(rev: StoredRevision<T>, part: ObjectPart): T {
  if (part === 'metadata' && rev.decodeMetadata !== undefined) return rev.decodeMetadata() as T;
  return rev.decodeShared?.() ?? rev.decode();
}
