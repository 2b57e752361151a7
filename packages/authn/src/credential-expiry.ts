import { parseJson, type AuthenticationResponse } from '@kevents/api';
import { goSecondsToUnixMs, idTokenTimes } from './jwt/json-time.js';
import { decodeSegment } from './jwt/peek.js';

/**
 * When the credentials behind a response stop being valid (a JWT's `exp`), kept beside the
 * response rather than in it so the response's shape stays kube's `authenticator.Response`.
 * Caches must not serve a response past this instant.
 */
const expiries = new WeakMap<AuthenticationResponse, number>();

/** Records that `response` is valid up to `expiresAt` (milliseconds since the epoch, included); returns it. */
export function withCredentialExpiry<T extends AuthenticationResponse>(response: T, expiresAt: number): T {
  expiries.set(response, expiresAt);
  return response;
}

/** The instant recorded by {@link withCredentialExpiry}, if any. */
export const credentialExpiry = (response: AuthenticationResponse): number | undefined => expiries.get(response);

/**
 * The `exp` of a compact JWT as go-oidc reads it (milliseconds since the epoch), when the token
 * is one and has an `exp` member; undefined otherwise. For bounding caches only: nothing here is
 * verified.
 */
export function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = decodeSegment(parts[1]!);
  if (payload === undefined) return undefined;
  try {
    const claims = parseJson(payload);
    if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return undefined;
    const times = idTokenTimes(payload);
    return times.expPresent ? goSecondsToUnixMs(times.exp) : undefined;
  } catch {
    return undefined;
  }
}
