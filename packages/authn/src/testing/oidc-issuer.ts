import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import type { JWK, JWTPayload } from 'jose';
import { generateCA, generateServingCert } from '@kevents/api/testing';
import type { KeyPair } from '@kevents/api/testing';

/** The JWS algorithms the issuer can sign with (the nine kube-apiserver accepts). */
export type SigningAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'ES256' | 'ES384' | 'ES512' | 'PS256' | 'PS384' | 'PS512';

interface SigningKey {
  readonly kid: string;
  readonly alg: SigningAlgorithm;
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

/** Options of {@link OidcIssuer.start}. */
export interface OidcIssuerOptions {
  /** Port to listen on (0: a free one). */
  readonly port?: number;
  /** The issuer's path under `https://127.0.0.1:<port>` (default none). */
  readonly path?: string;
  /** Keep the CA, serving pair and signing keys in this directory (and reuse them when present). */
  readonly stateDir?: string;
  /** Algorithm of the first signing key; default RS256. */
  readonly alg?: SigningAlgorithm;
  /** An existing CA to serve with (tests that restart an issuer on the same CA). */
  readonly ca?: KeyPair;
}

/**
 * A small OpenID Connect issuer over HTTPS with its own CA, for tests and local development:
 * `/.well-known/openid-configuration`, a JWKS at `/jwks` (with rotation and configurable caching
 * headers), a distributed claims endpoint at `/claims/groups`, and token minting. Everything the
 * JWT authenticator fetches is real HTTPS traffic.
 */
export class OidcIssuer {
  readonly ca: KeyPair;
  readonly #server: Server;
  readonly #stateDir: string | undefined;
  readonly #path: string;
  #keys: SigningKey[];
  /** Overrides the discovery document's `issuer` (to test a mismatch). */
  discoveryIssuer: string | undefined;
  /** `Cache-Control` of the JWKS answer (default none: keys count as expired at once). */
  jwksCacheControl: string | undefined;
  /** The status the JWKS endpoint answers (to test a failing refresh); default 200. */
  jwksStatus = 200;
  /** Groups the distributed claims endpoint returns in its JWT. */
  distributedGroups: string[] = ['distributed-a', 'distributed-b'];
  /** Requests served, by path. */
  readonly requests = new Map<string, number>();

  private constructor(server: Server, ca: KeyPair, keys: SigningKey[], path: string, stateDir?: string) {
    this.#server = server;
    this.ca = ca;
    this.#keys = keys;
    this.#path = path;
    this.#stateDir = stateDir;
  }

  /** Generates (or loads from `stateDir`) a CA and a key, and listens on 127.0.0.1. */
  static async start(options: OidcIssuerOptions = {}): Promise<OidcIssuer> {
    const dir = options.stateDir;
    if (dir) mkdirSync(dir, { recursive: true });
    const read = (f: string): string | undefined =>
      dir && existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : undefined;
    let ca: KeyPair;
    let serving: KeyPair;
    const caCert = read('ca.crt');
    if (options.ca) {
      ca = options.ca;
      serving = await generateServingCert(ca);
    } else if (caCert && read('ca.key') && read('serving.crt') && read('serving.key')) {
      ca = { cert: caCert, key: read('ca.key')! };
      serving = { cert: read('serving.crt')!, key: read('serving.key')! };
    } else {
      ca = await generateCA('kevents dev OIDC issuer CA');
      serving = await generateServingCert(ca);
      if (dir) {
        writeFileSync(join(dir, 'ca.crt'), ca.cert);
        writeFileSync(join(dir, 'ca.key'), ca.key, { mode: 0o600 });
        writeFileSync(join(dir, 'serving.crt'), serving.cert);
        writeFileSync(join(dir, 'serving.key'), serving.key, { mode: 0o600 });
      }
    }
    const saved = read('keys.json');
    const keys = saved ? (JSON.parse(saved) as SigningKey[]) : [await newKey(options.alg ?? 'RS256')];
    const holder: { issuer?: OidcIssuer } = {};
    const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) =>
      holder.issuer!.#serve(req, res),
    );
    const issuer = new OidcIssuer(server, ca, keys, (options.path ?? '').replace(/\/+$/, ''), dir);
    holder.issuer = issuer;
    issuer.#save();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    return issuer;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The issuer URL, `https://127.0.0.1:<port>[/path]`. */
  get url(): string {
    return `https://127.0.0.1:${this.port}${this.#path}`;
  }

  /** The key ids served in the JWKS, newest last. */
  get kids(): string[] {
    return this.#keys.map((k) => k.kid);
  }

  /**
   * Adds a new signing key (the one {@link mint} uses from now on); with `retire`, the older keys
   * leave the JWKS (tokens they signed stop verifying once the authenticator refreshes).
   */
  async rotate(alg: SigningAlgorithm = this.#keys[this.#keys.length - 1]!.alg, retire = true): Promise<string> {
    this.#reload();
    const k = await newKey(alg);
    this.#keys = retire ? [k] : [...this.#keys, k];
    this.#save();
    return k.kid;
  }

  /**
   * Signs a token with the newest key (or `kid`). Defaults: `iss` this issuer, `iat` now, `exp`
   * in one hour; `claims` override them (`exp: undefined` removes it).
   */
  async mint(
    claims: JWTPayload & Record<string, unknown>,
    options: { kid?: string; header?: Record<string, unknown> } = {},
  ): Promise<string> {
    this.#reload();
    const key = options.kid ? this.#keys.find((k) => k.kid === options.kid) : this.#keys[this.#keys.length - 1];
    if (!key) throw new Error(`no signing key ${options.kid}`);
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { iss: this.url, iat: now, exp: now + 3600, ...claims };
    for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
    return new SignJWT(payload)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...(options.header ?? {}) })
      .sign(await importJWK(key.privateJwk, key.alg));
  }

  /** Stops listening and ends open connections. */
  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #serve(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (path === `${this.#path}/.well-known/openid-configuration`) {
      json(200, {
        issuer: this.discoveryIssuer ?? this.url,
        jwks_uri: `${this.url}/jwks`,
        id_token_signing_alg_values_supported: [...new Set(this.#keys.map((k) => k.alg))],
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
      });
      return;
    }
    if (path === `${this.#path}/jwks`) {
      this.#reload();
      if (this.jwksStatus !== 200) {
        res.writeHead(this.jwksStatus, { 'content-type': 'text/plain' });
        res.end('keys unavailable');
        return;
      }
      json(
        200,
        { keys: this.#keys.map((k) => k.publicJwk) },
        this.jwksCacheControl ? { 'cache-control': this.jwksCacheControl } : {},
      );
      return;
    }
    if (path === `${this.#path}/claims/groups`) {
      if (req.headers.authorization !== 'Bearer claims-access-token') {
        res.writeHead(401);
        res.end();
        return;
      }
      void this.mint({ groups: this.distributedGroups, aud: 'kevents' }).then((t) => {
        res.writeHead(200, { 'content-type': 'application/jwt' });
        res.end(t);
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404 page not found\n');
  }

  #save(): void {
    if (this.#stateDir) writeFileSync(join(this.#stateDir, 'keys.json'), JSON.stringify(this.#keys), { mode: 0o600 });
  }

  /** Picks up keys rotated by another process sharing the state directory. */
  #reload(): void {
    if (!this.#stateDir) return;
    const f = join(this.#stateDir, 'keys.json');
    if (existsSync(f)) this.#keys = JSON.parse(readFileSync(f, 'utf8')) as SigningKey[];
  }
}

let counter = 0;

async function newKey(alg: SigningAlgorithm): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg.startsWith('RS') || alg.startsWith('PS') ? { modulusLength: 2048 } : {}),
  });
  const kid = `${alg.toLowerCase()}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg };
  return { kid, alg, privateJwk, publicJwk };
}
