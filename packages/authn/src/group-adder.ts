import type { AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';

/** The group of every authenticated user. */
export const allAuthenticated = 'system:authenticated';
/** The group of every anonymous request. */
export const allUnauthenticated = 'system:unauthenticated';

/**
 * kube-apiserver's authenticated group adder: appends `system:authenticated` to the groups of
 * every user an authenticator found, unless the user already has it or `system:unauthenticated`
 * (or is `system:anonymous`).
 */
export function authenticatedGroupAdder(inner: Authenticator): Authenticator {
  return {
    async authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> {
      const r = await inner.authenticate(req);
      return r && withAuthenticatedGroup(r);
    },
  };
}

/** The response with `system:authenticated` added to the user's groups, by the adder's rules. */
export function withAuthenticatedGroup(r: AuthenticationResponse): AuthenticationResponse {
  const u = r.user;
  if (u.username === 'system:anonymous') return r;
  if (u.groups.some((g) => g === allAuthenticated || g === allUnauthenticated)) return r;
  return { ...r, user: { ...u, groups: [...u.groups, allAuthenticated] } };
}
