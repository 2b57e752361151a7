import type { IssuerHttpClient } from '../http-client.js';
import { invalidCredentials, messageOf } from '../errors.js';
import { IssuerVerifier } from './issuer-verifier.js';
import type { IssuerVerifierOptions } from './issuer-verifier.js';
import { peekIssuer } from './peek.js';

/**
 * Resolves the groups claim from a distributed claim source (`_claim_names`/`_claim_sources`),
 * as kube-apiserver's `claimResolver`: only the configured groups claim, only when the token lacks
 * it; the endpoint's answer is a JWT verified like the token itself (with a verifier per issuer,
 * discovered in the background). Results are not cached.
 */
export class DistributedClaimResolver {
  readonly #claim: string;
  readonly #client: IssuerHttpClient;
  readonly #verifierOptions: Omit<IssuerVerifierOptions, 'discoveryURL'>;
  readonly #verifiers = new Map<string, IssuerVerifier>();

  constructor(claim: string, verifierOptions: Omit<IssuerVerifierOptions, 'discoveryURL'>) {
    this.#claim = claim;
    this.#client = verifierOptions.client;
    this.#verifierOptions = verifierOptions;
  }

  /** Expands the claim into `claims` in place. @throws AuthenticationError with Kubernetes' text. */
  async expand(claims: Record<string, unknown>): Promise<void> {
    if (Object.hasOwn(claims, this.#claim)) return;
    if (!Object.hasOwn(claims, '_claim_names')) return;
    if (!Object.hasOwn(claims, '_claim_sources')) throw invalidCredentials('oidc: no claim sources');
    const names = claims['_claim_names'];
    if (names === null || typeof names !== 'object' || Array.isArray(names) || !stringValues(names))
      throw invalidCredentials(
        'oidc: error parsing distributed claim names: json: cannot unmarshal into map[string]string',
      );
    const sources = claims['_claim_sources'];
    if (sources === null || typeof sources !== 'object' || Array.isArray(sources))
      throw invalidCredentials('oidc: could not parse claim sources: json: cannot unmarshal into map[string]endpoint');
    const src = (names as Record<string, string>)[this.#claim];
    if (src === undefined) return;
    const ep = (sources as Record<string, unknown>)[src];
    if (ep === undefined)
      throw invalidCredentials(`id token _claim_names contained a source ${src} missing in _claims_sources`);
    const endpoint =
      ep !== null && typeof ep === 'object' ? (ep as { endpoint?: unknown; access_token?: unknown }) : {};
    if (typeof endpoint.endpoint !== 'string' || endpoint.endpoint === '') return;
    try {
      claims[this.#claim] = await this.#resolve(
        endpoint.endpoint,
        typeof endpoint.access_token === 'string' ? endpoint.access_token : '',
      );
    } catch (e) {
      throw invalidCredentials(`oidc: could not expand distributed claims: ${messageOf(e)}`, e);
    }
    delete claims['_claim_names'];
    delete claims['_claim_sources'];
  }

  async #resolve(url: string, accessToken: string): Promise<unknown> {
    let res;
    try {
      res = await this.#client(url, accessToken ? { headers: { authorization: `Bearer ${accessToken}` } } : {});
    } catch (e) {
      throw new Error(`while getting distributed claim ${JSON.stringify(this.#claim)}: ${messageOf(e)}`);
    }
    if (res.status < 200 || res.status > 226)
      throw new Error(
        `while getting distributed claim ${JSON.stringify(this.#claim)}: error while getting distributed claim JWT: ${res.statusLine}`,
      );
    const token = res.body.trim();
    const iss = peekIssuer(token);
    if (iss === undefined) throw new Error('verify distributed claim token: oidc: malformed jwt');
    let v = this.#verifiers.get(iss);
    if (!v) {
      v = new IssuerVerifier(iss, this.#verifierOptions);
      this.#verifiers.set(iss, v);
    }
    if (!v.ready) throw new Error(`verifier not initialized for issuer: ${JSON.stringify(iss)}`);
    let verified;
    try {
      verified = await v.verify(token);
    } catch (e) {
      throw new Error(`verify distributed claim token: ${messageOf(e)}`);
    }
    if (!Object.hasOwn(verified.claims, this.#claim))
      throw new Error(
        `jwt returned by distributed claim endpoint ${JSON.stringify(url)} did not contain claim: ${this.#claim}`,
      );
    return verified.claims[this.#claim];
  }

  /** Resolves when the claim source issuer's verifier is ready (for tests and warm-up). */
  async whenIssuerReady(iss: string): Promise<void> {
    await this.#verifiers.get(iss)?.whenReady();
  }
}

const stringValues = (o: object): boolean => Object.values(o).every((v) => typeof v === 'string');
