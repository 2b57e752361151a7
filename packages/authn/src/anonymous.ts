import { anonymousUser } from '@kevents/api';
import type { AnonymousAuthConfig, AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';

/**
 * kube-apiserver's anonymous authenticator: `system:anonymous` in `system:unauthenticated`. With
 * conditions, only a request whose decoded path equals one of the listed paths (no prefixes, no
 * globs, query ignored) is anonymous; others get no opinion and end as 401.
 */
export class AnonymousAuthenticator implements Authenticator {
  readonly #paths: ReadonlySet<string> | undefined;

  constructor(config: AnonymousAuthConfig = { enabled: true }) {
    const conditions = config.conditions ?? [];
    this.#paths = conditions.length ? new Set(conditions.map((c) => c.path ?? '')) : undefined;
  }

  authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> {
    if (this.#paths && !this.#paths.has(req.path)) return Promise.resolve(null);
    return Promise.resolve({ user: anonymousUser });
  }
}
