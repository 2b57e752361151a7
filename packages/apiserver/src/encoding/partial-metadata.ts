import type { KubeObject, ListMeta } from '@kevents/api';
import { ApiError } from '../errors/api-error.js';
import type { VersionedView } from '../registry/view.js';
import type { MetaVersion } from './negotiate.js';

/** A `meta.k8s.io` PartialObjectMetadata: an object's kind-less metadata, as `meta.AsPartialObjectMetadata` makes it. */
export function partialObjectMetadata<T extends KubeObject>(
  view: VersionedView<T>,
  obj: T,
  version: MetaVersion,
): Record<string, unknown> {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: view.toListItem(obj)['metadata'],
  };
}

/**
 * A `meta.k8s.io` PartialObjectMetadataList of a page: the list's metadata and each item's. An
 * empty list's `items` is `null`, as kube-apiserver's `asPartialObjectMetadataList` leaves it.
 */
export function partialObjectMetadataList<T extends KubeObject>(
  view: VersionedView<T>,
  items: readonly T[],
  meta: ListMeta,
  version: MetaVersion,
): Record<string, unknown> {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: meta,
    items: items.length === 0 ? null : items.map((o) => partialObjectMetadata(view, o, version)),
  };
}

/** The Go type kube-apiserver prints for a view's objects (`*core.Event`) or lists (`*core.EventList`). */
const goType = (view: VersionedView, list: boolean): string =>
  `*${view.goType ?? 'unstructured.Unstructured'}${list ? 'List' : ''}`;

/** The 406 for PartialObjectMetadata asked of a list, or PartialObjectMetadataList of one object (kube's `asPartialObjectMetadata(List)`). */
export function partialMetadataMismatch(view: VersionedView, askedForList: boolean): ApiError {
  const message = askedForList
    ? `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(view, false)})`
    : `you requested PartialObjectMetadata, but the requested object is a list (${goType(view, true)})`;
  return new ApiError(406, 'NotAcceptable', message);
}
