import { createHash } from 'node:crypto';
import { compactVerify, importJWK } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import type { IssuerHttpClient } from '../http-client.js';
import { cacheExpiry } from './cache-expiry.js';

/** go-oidc's `keysExpiryDelta`: keys about to expire within this window may be refreshed. */
export const keysExpiryDeltaMs = 30_000;

/** Reports each request to the exact `jwks_uri` (the JWKS fetch metrics). */
export type JwksFetchObserver = (result: 'success' | 'failure', bodyHash?: string) => void;

interface CachedKey {
  readonly jwk: JWK;
  readonly imported: Map<string, Promise<CryptoKey | Uint8Array | undefined>>;
}

/**
 * A remote JSON Web Key Set with go-oidc v2's rotation rules: keys are fetched lazily on the
 * first verification; a token whose key is not cached triggers a refresh only when the cached set
 * has expired or expires within 30 s (the JWKS answer's caching headers decide when); concurrent
 * refreshes share one request; a failed refresh keeps the old keys.
 */
export class RemoteKeySet {
  readonly #url: string;
  readonly #client: IssuerHttpClient;
  readonly #now: () => number;
  readonly #observe: JwksFetchObserver | undefined;
  readonly #signal: AbortSignal | undefined;
  #keys: CachedKey[] = [];
  #expiry = 0;
  #inflight: Promise<CachedKey[]> | undefined;

  constructor(
    url: string,
    client: IssuerHttpClient,
    options: { now?: () => number; observe?: JwksFetchObserver; signal?: AbortSignal } = {},
  ) {
    this.#url = url;
    this.#client = client;
    this.#now = options.now ?? Date.now;
    this.#observe = options.observe;
    this.#signal = options.signal;
  }

  /**
   * Verifies a compact JWS signed with `alg` (already checked against the allowed list) and
   * returns its payload bytes.
   * @throws Error `failed to verify id token signature` or `fetching keys <err>`.
   */
  async verify(token: string, kid: string | undefined, alg: string): Promise<Uint8Array> {
    const cached = await tryKeys(this.#keys, token, kid, alg);
    if (cached) return cached;
    if (this.#now() + keysExpiryDeltaMs <= this.#expiry) throw new Error('failed to verify id token signature');
    let keys: CachedKey[];
    try {
      keys = await this.#refresh();
    } catch (e) {
      throw new Error(`fetching keys ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    const fresh = await tryKeys(keys, token, kid, alg);
    if (fresh) return fresh;
    throw new Error('failed to verify id token signature');
  }

  #refresh(): Promise<CachedKey[]> {
    this.#inflight ??= this.#fetch().finally(() => (this.#inflight = undefined));
    return this.#inflight;
  }

  async #fetch(): Promise<CachedKey[]> {
    let res;
    try {
      res = await this.#client(this.#url, this.#signal ? { signal: this.#signal } : {});
    } catch (e) {
      this.#observe?.('failure');
      throw e;
    }
    if (res.status !== 200) {
      this.#observe?.('failure');
      throw new Error(`oidc: get keys failed: ${res.statusLine} ${res.body}`);
    }
    let set: { keys?: unknown };
    try {
      set = JSON.parse(res.body) as { keys?: unknown };
      if (set === null || typeof set !== 'object' || !Array.isArray(set.keys)) throw new Error('no "keys" array');
    } catch (e) {
      this.#observe?.('failure');
      throw new Error(`oidc: failed to decode keys: ${e instanceof Error ? e.message : String(e)} ${res.body}`);
    }
    this.#observe?.('success', createHash('sha256').update(res.body).digest('hex'));
    const keys = (set.keys as unknown[])
      .filter((k): k is JWK => k !== null && typeof k === 'object' && typeof (k as JWK).kty === 'string')
      .map((jwk) => ({ jwk, imported: new Map() }));
    this.#keys = keys;
    this.#expiry = cacheExpiry(res.headers, this.#now());
    return keys;
  }
}

async function tryKeys(
  keys: readonly CachedKey[],
  token: string,
  kid: string | undefined,
  alg: string,
): Promise<Uint8Array | undefined> {
  for (const k of keys) {
    if (kid && k.jwk.kid !== kid) continue;
    let imported = k.imported.get(alg);
    if (!imported) {
      imported = importJWK({ ...k.jwk, alg }, alg).catch(() => undefined);
      k.imported.set(alg, imported);
    }
    const key = await imported;
    if (!key) continue;
    try {
      const { payload } = await compactVerify(token, key, { algorithms: [alg] });
      return payload;
    } catch {
      // try the next key
    }
  }
  return undefined;
}
