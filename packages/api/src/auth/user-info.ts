/**
 * Who is asking: the user an authenticator found, as `authentication.k8s.io/v1` `UserInfo` and
 * k8s.io/apiserver's `user.Info` describe it. Authorizers, audit and the `system:masters` checks
 * read it; nothing else about the request's credentials travels further.
 */
export interface UserInfo {
  /** The name that uniquely identifies the user among all active users (`system:anonymous`, `alice`). */
  readonly username: string;
  /** A unique value that identifies the user across time; a deleted and re-added user gets another. */
  readonly uid?: string;
  /** The groups the user belongs to (`system:authenticated`, `system:unauthenticated`, ...). */
  readonly groups: readonly string[];
  /** Any additional information the authenticator provided (claims mapped by `claimMappings.extra`). */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The user of requests no authenticator claimed (`--anonymous-auth`, the `anonymous` block). */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
