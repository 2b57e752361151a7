import { anonymousUser } from '@kevents/api';
import type { AnonymousAuthConfig, AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';

const anonymousResponse: AuthenticationResponse = Object.freeze({ user: anonymousUser });

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
    return Promise.resolve(this.answer(req.path));
  }

  /** The answer for a request to `path` (decoded), synchronously: anonymous, or no opinion. */
  answer(path: string): AuthenticationResponse | null {
    return this.#paths && !this.#paths.has(path) ? null : anonymousResponse;
  }
}
