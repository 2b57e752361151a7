import type { UserInfo } from './user-info.js';

/**
 * What a request asks to do, as kube-apiserver's `authorizer.Attributes`: a resource request
 * (verb on group/version/resource, in a namespace, for a name) or a non-resource request (verb on
 * a path).
 */
export interface RequestAttributes {
  /** The authenticated user (or {@link anonymousUser}). */
  readonly user: UserInfo;
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`; for non-resource requests the lower-case HTTP method. */
  readonly verb: string;
  /** A request for an API resource (`/api/...`, `/apis/...`), not for a path such as `/healthz`. */
  readonly isResourceRequest: boolean;
  /** The URL path. */
  readonly path: string;
  /** The API group (`""` for core, `events.k8s.io`). */
  readonly apiGroup: string;
  readonly apiVersion: string;
  /** The plural resource (`events`, `leases`). */
  readonly resource: string;
  /** The subresource (`status`), or `""`. */
  readonly subresource: string;
  /** The namespace, or `""` for cluster-scoped and all-namespaces requests. */
  readonly namespace: string;
  /** The object name, or `""` for collection requests. */
  readonly name: string;
}
