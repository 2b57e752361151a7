/** Who is asking (authentication v1 UserInfo). */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * What a request asks to do, as kube-apiserver's `authorizer.Attributes`: a resource request
 * (verb on group/version/resource, in a namespace, for a name) or a non-resource request (verb on
 * a path).
 */
export interface RequestAttributes {
  readonly user: UserInfo;
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`; for non-resource requests the lower-case HTTP method. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** The user of requests no authenticator claimed (`--anonymous-auth`). */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
