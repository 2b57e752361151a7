import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../errors/api-error.js';
import { anonymousUser } from '@kevents/api';
import type { Authenticator, UserInfo } from '@kevents/api';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is asking, set by the authentication filter (`system:anonymous` when no authenticator claims the request). */
    user: UserInfo;
  }
}

/** Options of the authentication filter. */
export interface AuthenticationOptions {
  /** Decides who sent a request; none means every request is anonymous. */
  readonly authenticator?: Authenticator;
  /** Requests no authenticator claims are served as `system:anonymous` (else 401). Default true. */
  readonly anonymous?: boolean;
}

/**
 * The authentication filter (`WithAuthentication`): asks the authenticator who sent the request;
 * invalid credentials, or none when anonymous requests are off, answer 401 Unauthorized.
 */
export function installAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  const authenticator = options.authenticator;
  const anonymous = options.anonymous !== false;
  if (!authenticator && anonymous) {
    app.decorateRequest('user', { getter: () => anonymousUser });
    return;
  }
  app.decorateRequest('user', null as unknown as UserInfo);
  if (!authenticator) {
    app.addHook('onRequest', (_req, _reply, done) => done(unauthorized()));
    return;
  }
  app.addHook('onRequest', async (req) => {
    let response;
    try {
      response = await authenticator.authenticate({
        headers: req.headers,
        method: req.method,
        path: req.requestInfo.path,
      });
    } catch {
      throw unauthorized();
    }
    if (response) req.user = response.user;
    else if (anonymous) req.user = anonymousUser;
    else throw unauthorized();
  });
}
