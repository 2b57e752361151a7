import type { IssuerHttpClient } from '../http-client.js';
import { goQuote } from '../go-format.js';

/** The parts of an OpenID provider configuration the authenticator uses. */
export interface ProviderMetadata {
  readonly issuer: string;
  readonly jwksURI: string;
}

/**
 * One OIDC discovery attempt, as go-oidc's `NewProvider` plus kube-apiserver's checks: GET
 * `<issuer>/.well-known/openid-configuration` (or `discoveryURL`), 200 only, JSON, `issuer`
 * byte-equal to the configured URL, a non-empty `jwks_uri`.
 * @throws Error with go-oidc's wording (`oidc: issuer did not match ...`).
 */
export async function discover(
  issuerURL: string,
  discoveryURL: string | undefined,
  client: IssuerHttpClient,
  signal?: AbortSignal,
): Promise<ProviderMetadata> {
  const url = discoveryURL || `${issuerURL.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const res = await client(url, signal ? { signal } : {});
  if (res.status !== 200) throw new Error(`${res.statusLine}: ${res.body}`);
  let doc: { issuer?: unknown; jwks_uri?: unknown };
  try {
    doc = JSON.parse(res.body) as typeof doc;
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not a JSON object');
  } catch (e) {
    const ct = res.headers['content-type'] ?? '';
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      /^application\/json/.test(ct)
        ? `oidc: failed to decode provider discovery object: got Content-Type = application/json, but could not unmarshal as JSON: ${why}`
        : `oidc: failed to decode provider discovery object: expected Content-Type = application/json, got ${goQuote(ct)}: ${why}`,
    );
  }
  const issuer = typeof doc.issuer === 'string' ? doc.issuer : '';
  if (issuer !== issuerURL)
    throw new Error(
      `oidc: issuer did not match the issuer returned by provider, expected ${goQuote(issuerURL)} got ${goQuote(issuer)}`,
    );
  const jwksURI = typeof doc.jwks_uri === 'string' ? doc.jwks_uri : '';
  if (!jwksURI) throw new Error('provider did not return JWKS URL');
  return { issuer, jwksURI };
}
