import { parseJson } from '@kevents/api';
import { peekIssuerClaim } from './id-token.js';
/**
 * The unverified `iss` of a compact JWT, as kube-apiserver peeks at it to pick an authenticator:
 * undefined for JSON serialization, a token that is not three dot-separated parts, a payload that
 * is not unpadded base64url JSON, or no string `iss`. The member name matches case-insensitively
 * and the last one wins, as Go's encoding/json reads it ({@link peekIssuerClaim}).
 * `accounts.google.com` reads as `https://accounts.google.com`.
 */
export function peekIssuer(token: string): string | undefined {
  if (token.startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = decodeSegment(parts[1]!);
  if (payload === undefined) return undefined;
  let claims: unknown;
  try {
    claims = parseJson(payload);
  } catch {
    return undefined;
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return undefined;
  const iss = peekIssuerClaim(payload);
  if (iss === undefined) return undefined;
  return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
}

/** Unpadded base64url (Go's `RawURLEncoding`): padding or other alphabets are refused. */
export function decodeSegment(s: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return undefined;
  return Buffer.from(s, 'base64url').toString('utf8');
}
