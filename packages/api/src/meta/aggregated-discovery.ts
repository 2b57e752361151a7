import type { ListMeta, ObjectMeta } from './object-meta.js';

/*
 * apidiscovery.k8s.io/v2 (k8s.io/api/apidiscovery/v2/types.go): aggregated discovery, the whole
 * of `/api` or `/apis` in one document, which kubectl and client-go (1.30+) ask for with
 * {@link aggregatedDiscoveryMediaType} before falling back to the per-group-version documents.
 * The group is always `apidiscovery.k8s.io`, whatever `--group-domain` says: clients name it.
 */

/** The group of the aggregated discovery kinds. */
export const aggregatedDiscoveryGroup = 'apidiscovery.k8s.io';
/** The version of the aggregated discovery kinds. */
export const aggregatedDiscoveryVersion = 'v2';
/**
 * The media type a client asks for (in `Accept`) and a server answers with (in `Content-Type`)
 * for an aggregated discovery document.
 */
export const aggregatedDiscoveryMediaType = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** `metav1.GroupVersionKind` as JSON: every field is always written. */
export interface GroupVersionKindJSON {
  group: string;
  version: string;
  kind: string;
}

/** `ResourceScope`: where the objects of a resource live. */
export type ResourceScope = 'Cluster' | 'Namespaced';

/**
 * `DiscoveryFreshness`: `Current` when the group version's document was recently refreshed,
 * `Stale` when it could not be retrieved and may be out of date.
 */
export type DiscoveryFreshness = 'Current' | 'Stale';

/** `APISubresourceDiscovery`: one subresource of a resource (`status`, `scale`). */
export interface APISubresourceDiscovery {
  /** The subresource name, the last URL path segment. */
  subresource: string;
  /** The kind the subresource typically returns; absent for subresources that return no object. */
  responseKind?: GroupVersionKindJSON;
  /** The kinds the subresource accepts (omitempty). */
  acceptedTypes?: GroupVersionKindJSON[];
  /** The verbs it supports (always written, `null` in Go when nil). */
  verbs: string[];
}

/** `APIResourceDiscovery`: one resource of a group version. */
export interface APIResourceDiscovery {
  /** The plural resource name (`leases`), the URL path segment. */
  resource: string;
  /**
   * The kind the resource's endpoints typically return (`{group, version, kind}`); absent when an
   * APIService reports subresources but no operation on the parent resource.
   */
  responseKind?: GroupVersionKindJSON;
  /** `Namespaced` or `Cluster`. */
  scope: ResourceScope;
  /** The singular name (`lease`); always written. */
  singularResource: string;
  /** The verbs the resource supports (`get`, `list`, `watch`, ...); always written. */
  verbs: string[];
  /** Suggested short names (omitempty). */
  shortNames?: string[];
  /** The categories the resource belongs to, e.g. `all` (omitempty). */
  categories?: string[];
  /** The resource's subresources (omitempty). */
  subresources?: APISubresourceDiscovery[];
}

/** `APIVersionDiscovery`: the resources served at one version of a group. */
export interface APIVersionDiscovery {
  /** The version name (`v1`); always written. */
  version: string;
  /** The resources of the group version (omitempty). */
  resources?: APIResourceDiscovery[];
  /** Whether the document is up to date (omitempty; kube-apiserver writes `Current`). */
  freshness?: DiscoveryFreshness;
}

/**
 * `APIGroupDiscovery`: one API group with its versions, in descending order of preference (the
 * first is the preferred version). Only `metadata.name` is set (`""`, hence absent, for the core
 * group under `/api`).
 */
export interface APIGroupDiscovery {
  apiVersion?: string;
  kind?: 'APIGroupDiscovery';
  metadata: ObjectMeta;
  /** The versions of the group, preferred first (omitempty). */
  versions?: APIVersionDiscovery[];
}

/**
 * `APIGroupDiscoveryList`: the aggregated discovery document of `/api` (the core group) or
 * `/apis` (every named group, in priority order). `metadata` carries no resourceVersion.
 */
export interface APIGroupDiscoveryList {
  apiVersion: 'apidiscovery.k8s.io/v2';
  kind: 'APIGroupDiscoveryList';
  metadata: ListMeta;
  /** The groups, in priority order (always written). */
  items: APIGroupDiscovery[];
}
