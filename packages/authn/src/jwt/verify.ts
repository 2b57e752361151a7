import { parseJson } from '@kevents/api';
import { authenticatorUnavailable, expiredCredentials, invalidCredentials } from '../errors.js';
import { goInternalTime, goQuote, goQuoteList, goTime } from '../go-format.js';
import { decodeIdToken } from './id-token.js';
import type { IdTokenClaims } from './id-token.js';
import { goSecondsToUnixMs, unixMsToGoMs } from './json-time.js';
import { decodeSegment } from './peek.js';
import type { RemoteKeySet } from './key-set.js';

/** The nine JWS algorithms a structured JWT authenticator accepts, and no others. */
export const supportedSigningAlgorithms: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
];

/**
 * The `nbf` leeway of go-oidc v2.3.0, which kube-apiserver vendors: a token is usable one minute
 * before its `nbf` (go-oidc v3 allows five minutes; kube-apiserver does not use v3).
 */
export const notBeforeLeewayMs = 60_000;

/** What {@link verifyIdToken} checks against. */
export interface VerifyOptions {
  readonly issuer: string;
  /** With exactly one configured audience, go-oidc checks `aud` contains it. */
  readonly clientID?: string;
  readonly algorithms: readonly string[];
  readonly now: () => number;
  readonly keySet: RemoteKeySet;
}

/** A verified token: its claims as decoded JSON, its audiences, and its `exp`. */
export interface VerifiedToken {
  readonly claims: Record<string, unknown>;
  /** `aud` as go-oidc decoded it ({@link decodeIdToken}). */
  readonly audiences: readonly string[];
  /** The `exp` as go-oidc read it, in milliseconds since the epoch: the token is valid up to this instant included. */
  readonly expiresAt: number;
}

/**
 * go-oidc v2's `IDTokenVerifier.Verify`, in its order: parse, decode the claims, check the
 * distributed-claim structure, `iss`, the single audience, `exp` (no leeway), `nbf` (one minute),
 * one signature, the algorithm, then the signature against the key set. The errors carry
 * go-oidc's text; the caller prefixes `oidc: verify token: `.
 */
export async function verifyIdToken(raw: string, o: VerifyOptions): Promise<VerifiedToken> {
  const parts = raw.split('.');
  if (parts.length < 2) throw invalidCredentials(`oidc: malformed jwt, expected 3 parts got ${parts.length}`);
  const payloadText = decodeSegment(parts[1]!);
  if (payloadText === undefined) throw invalidCredentials('oidc: malformed jwt payload: illegal base64 data');
  let claims: Record<string, unknown>;
  let token: IdTokenClaims;
  try {
    const c = parseJson(payloadText);
    if (c === null || typeof c !== 'object' || Array.isArray(c)) throw new Error('claims are not a JSON object');
    claims = c as Record<string, unknown>;
    token = decodeIdToken(payloadText);
  } catch (e) {
    throw invalidCredentials(`oidc: failed to unmarshal claims: ${(e as Error).message}`);
  }
  const times = token.times;

  for (const src of token.claimNames?.values() ?? []) {
    if (src === '') throw invalidCredentials('oidc: failed to obtain source from claim name');
    if (!token.claimSources?.has(src)) throw invalidCredentials('oidc: source does not exist');
  }

  let iss = token.iss;
  if (iss === 'accounts.google.com') iss = 'https://accounts.google.com';
  if (iss !== o.issuer)
    throw invalidCredentials(
      `oidc: id token issued by a different provider, expected ${goQuote(o.issuer)} got ${goQuote(iss)}`,
    );

  const audiences = token.aud;
  if (o.clientID !== undefined && !audiences.includes(o.clientID))
    throw invalidCredentials(`oidc: expected audience ${goQuote(o.clientID)} got ${goQuoteList(audiences)}`);

  // go-oidc: `Expiry.Before(now)`, then `now.Add(leeway).Before(nbf)`, on Go's int64 seconds.
  const now = o.now();
  const nowGoMs = unixMsToGoMs(now);
  if (times.exp * 1000n < nowGoMs)
    throw expiredCredentials(`oidc: token is expired (Token Expiry: ${goInternalTime(times.exp)})`);
  if (times.nbf !== undefined && nowGoMs + BigInt(notBeforeLeewayMs) < times.nbf * 1000n)
    throw invalidCredentials(
      `oidc: current time ${goTime(now)} before the nbf (not before) time: ${goInternalTime(times.nbf)}`,
    );

  if (parts.length !== 3 || parts[2] === '') throw invalidCredentials('oidc: id token not signed');
  const headerText = decodeSegment(parts[0]!);
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = parseJson(headerText ?? '') as typeof header;
    if (header === null || typeof header !== 'object') throw new Error('header is not a JSON object');
  } catch (e) {
    throw invalidCredentials(`oidc: malformed jwt: ${(e as Error).message}`);
  }
  const alg = typeof header.alg === 'string' ? header.alg : '';
  if (!o.algorithms.includes(alg))
    throw invalidCredentials(
      `oidc: id token signed with unsupported algorithm, expected ${goQuoteList(o.algorithms)} got ${goQuote(alg)}`,
    );
  const kid = typeof header.kid === 'string' && header.kid !== '' ? header.kid : undefined;
  try {
    await o.keySet.verify(raw, kid, alg);
  } catch (e) {
    const msg = `failed to verify signature: ${(e as Error).message}`;
    throw /fetching keys/.test(msg) ? authenticatorUnavailable(msg, e) : invalidCredentials(msg, e);
  }
  return { claims, audiences, expiresAt: goSecondsToUnixMs(times.exp) };
}
