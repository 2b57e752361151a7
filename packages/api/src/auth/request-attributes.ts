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
  /** The parsed `fieldSelector` of a list or watch (absent when none, or when it does not parse). */
  readonly fieldSelector?: readonly SelectorRequirement[];
  /** The parsed `labelSelector` of a list or watch (absent when none, or when it does not parse). */
  readonly labelSelector?: readonly SelectorRequirement[];
  /**
   * Aborted when the client goes away before the decision (its HTTP/1.1 connection closes, its
   * HTTP/2 stream is reset): the request context kube-apiserver hands `Authorize(ctx, attrs)`.
   * An authorizer that waits on I/O (a webhook) passes it to that I/O and to its retry sleeps,
   * and neither caches nor counts as a failure what an abort cut short; the server sends nothing
   * and runs no handler for a departed client, whatever the answer. Absent (or never aborted)
   * when nothing watches the client. The server makes it on first read: read it only on the
   * path that is about to wait (a cache miss), never on one that answers at once. Wrappers hand
   * the attributes object on as is (a spread copy would leave the signal behind).
   */
  readonly signal?: AbortSignal;
}

/**
 * One requirement of a selector, as a SubjectAccessReview carries it
 * (`authorization.k8s.io/v1` `FieldSelectorRequirement` / `LabelSelectorRequirement`).
 */
export interface SelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[];
}
