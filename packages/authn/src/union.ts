import type { AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';
import { AuthenticationError } from '@kevents/api';
import { invalidCredentials } from './errors.js';
import type { TokenAuthenticator } from './token.js';

/** Joins the errors of a union's members as Go's `utilerrors.NewAggregate` prints them. */
function aggregate(errors: readonly unknown[]): AuthenticationError {
  if (errors.length === 1 && errors[0] instanceof AuthenticationError) return errors[0];
  const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
  const first = errors.find((e): e is AuthenticationError => e instanceof AuthenticationError);
  const text = `[${messages.join(', ')}]`;
  return first ? new AuthenticationError(first.code, text, { cause: first }) : invalidCredentials(text);
}

/**
 * k8s.io/apiserver's request union: asks each member in order and returns the first user. A
 * fail-fast union stops at the first error; otherwise errors are collected, the next member is
 * asked, and the aggregate is thrown when nobody answered. `null` when no member had an opinion.
 */
export function unionAuthenticator(members: readonly Authenticator[], failFast = false): Authenticator {
  if (members.length === 1) return members[0]!;
  return {
    async authenticate(req: AuthenticationRequest): Promise<AuthenticationResponse | null> {
      const errors: unknown[] = [];
      for (const m of members) {
        try {
          const r = await m.authenticate(req);
          if (r) return r;
        } catch (e) {
          if (failFast) throw e;
          errors.push(e);
        }
      }
      if (errors.length) throw aggregate(errors);
      return null;
    },
  };
}

/** The token union (non-fail-fast), the same rules over token authenticators. */
export function unionTokenAuthenticator(members: readonly TokenAuthenticator[]): TokenAuthenticator {
  if (members.length === 1) return members[0]!;
  return {
    async authenticateToken(token: string): Promise<AuthenticationResponse | null> {
      const errors: unknown[] = [];
      for (const m of members) {
        try {
          const r = await m.authenticateToken(token);
          if (r) return r;
        } catch (e) {
          errors.push(e);
        }
      }
      if (errors.length) throw aggregate(errors);
      return null;
    },
  };
}
