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

const frozenUsers = new WeakSet<UserInfo>();

/**
 * A deeply frozen copy of `u` (the user, its groups, its extra and each extra's values), or `u`
 * itself when it is one already. Such a user can never change, so what is derived from it (an
 * authorization cache key) may be kept by its identity ({@link isFrozenUser}); authenticators
 * that hand one user to many requests (cached tokens, a front-proxy connection) hand out these.
 */
export function frozenUser(u: UserInfo): UserInfo {
  if (frozenUsers.has(u)) return u;
  const extra = u.extra
    ? Object.freeze(Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, Object.freeze([...v])])))
    : undefined;
  const copy: UserInfo = Object.freeze({
    ...u,
    groups: Object.freeze([...u.groups]),
    ...(extra === undefined ? {} : { extra }),
  });
  frozenUsers.add(copy);
  return copy;
}

/** Whether `u` was made by {@link frozenUser}: it and everything in it can never change. */
export function isFrozenUser(u: UserInfo): boolean {
  return frozenUsers.has(u);
}

/** The user of requests no authenticator claimed (`--anonymous-auth`, the `anonymous` block). */
export const anonymousUser: UserInfo = frozenUser({ username: 'system:anonymous', groups: ['system:unauthenticated'] });

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
