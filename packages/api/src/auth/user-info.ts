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

/**
 * The key of a user's extra value as it travels in a header name (`Impersonate-Extra-<key>`,
 * `X-Remote-Extra-<key>`): Go's `url.PathUnescape`, and the key as sent when it does not decode
 * (a `%` not followed by two hex digits, or bytes that are not UTF-8), as kube's
 * `unescapeExtraKey`. One reading for impersonation and the front-proxy headers alike.
 */
export function unescapeExtraKey(key: string): string {
  if (!key.includes('%')) return key;
  if (/%(?![0-9a-fA-F]{2})/.test(key)) return key;
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
