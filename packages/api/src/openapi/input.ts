import type { ObjectSchema } from '../schema/types.js';

/** The Kubernetes verbs an OpenAPI document can describe for a resource. */
export type OpenAPIVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** One served resource of a group version. */
export interface OpenAPIResource {
  /** Plural resource name, the path segment: `events`. */
  readonly resource: string;
  /** Kind of one object: `Event`. */
  readonly kind: string;
  /** Kind of a list; `<kind>List` when absent. */
  readonly listKind?: string;
  readonly namespaced: boolean;
  /** Schema of one object. Its `gvk` is ignored: the group version comes from the input. */
  readonly schema: ObjectSchema;
  /** Schema of the list; required when `list` is among the verbs. */
  readonly listSchema?: ObjectSchema;
  readonly verbs: readonly OpenAPIVerb[];
  /** The deprecated `/watch/` list paths are served too (only with the `watch` verb). */
  readonly legacyWatchPaths?: boolean;
  /**
   * The deprecated `/watch/.../{name}` path of one object is served too (only with the `watch`
   * verb). kube-apiserver serves it for every watchable resource (`watchCoordinationV1NamespacedLease`);
   * describe it only when the server routes it.
   */
  readonly legacyWatchItemPath?: boolean;
}

/** One served group version (`group` is empty for the core group, served under `/api`). */
export interface OpenAPIGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly OpenAPIResource[];
  /** `GET <prefix>/` answers the group version's APIResourceList. */
  readonly discovery?: boolean;
}

/** What an API server serves: the input of the OpenAPI generators. */
export interface OpenAPIInput {
  readonly groupVersions: readonly OpenAPIGroupVersion[];
  /** `info.title`; `Kubernetes` when absent, as kube-apiserver says. */
  readonly title?: string;
  /** `info.version`; `unversioned` when absent. */
  readonly version?: string;
  /**
   * The group domain stripped from group names in operation ids (`events.k8s.io` becomes
   * `Events`, as in `readEventsV1NamespacedEvent`); `k8s.io` when absent.
   */
  readonly groupDomain?: string;
  /** PATCH media types accepted; the JSON, merge and strategic merge patch types when absent. */
  readonly patchTypes?: readonly string[];
  /** Media types of responses; `application/json` when absent. */
  readonly produces?: readonly string[];
  /** Media types of request bodies; `application/json` and `application/yaml` when absent. */
  readonly consumes?: readonly string[];
}

/** The PATCH media types kevents accepts, as kube-apiserver lists them (server-side apply last; no CBOR). */
export const defaultPatchTypes: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
