import type { IssuerHttpClient } from '../http-client.js';
import { messageOf } from '../errors.js';
import { discover } from './discovery.js';
import { RemoteKeySet } from './key-set.js';
import type { JwksFetchObserver } from './key-set.js';
import { verifyIdToken } from './verify.js';
import type { VerifiedToken } from './verify.js';

/** Options of {@link IssuerVerifier}. */
export interface IssuerVerifierOptions {
  readonly discoveryURL?: string;
  readonly client: IssuerHttpClient;
  readonly clientID?: string;
  readonly algorithms: readonly string[];
  readonly now: () => number;
  /** Between failed discovery attempts; kube-apiserver waits 10 s. */
  readonly retryMs: number;
  /** Ends the discovery loop and key fetches (the authenticator's lifecycle). */
  readonly signal: AbortSignal;
  readonly observeJwks?: JwksFetchObserver;
}

/**
 * An OIDC issuer's verifier: runs discovery in the background at once and then every
 * `retryMs` until it succeeds (no backoff, no limit), and verifies tokens with the discovered
 * key set once it has. Until then {@link IssuerVerifier.verifier} is undefined and
 * {@link IssuerVerifier.lastError} says why.
 */
export class IssuerVerifier {
  readonly issuer: string;
  #keySet: RemoteKeySet | undefined;
  #lastError: string;
  readonly #ready: Promise<void>;
  readonly #o: IssuerVerifierOptions;

  constructor(issuer: string, o: IssuerVerifierOptions) {
    this.issuer = issuer;
    this.#o = o;
    this.#lastError = `oidc: authenticator for issuer ${JSON.stringify(issuer)} is not initialized`;
    this.#ready = this.#loop();
    this.#ready.catch(() => undefined);
  }

  /** Undefined once discovery succeeded; else the last attempt's error. */
  get lastError(): string | undefined {
    return this.#keySet ? undefined : this.#lastError;
  }

  /** Resolves when discovery has succeeded (never rejects; stays pending when closed first). */
  whenReady(): Promise<void> {
    return this.#ready;
  }

  get ready(): boolean {
    return this.#keySet !== undefined;
  }

  /** go-oidc's Verify with the discovered keys. Call only when {@link ready}. */
  verify(raw: string): Promise<VerifiedToken> {
    return verifyIdToken(raw, {
      issuer: this.issuer,
      ...(this.#o.clientID !== undefined ? { clientID: this.#o.clientID } : {}),
      algorithms: this.#o.algorithms,
      now: this.#o.now,
      keySet: this.#keySet!,
    });
  }

  async #loop(): Promise<void> {
    const { signal } = this.#o;
    for (;;) {
      if (signal.aborted) return new Promise<void>(() => undefined);
      try {
        const meta = await discover(this.issuer, this.#o.discoveryURL, this.#o.client, signal);
        this.#keySet = new RemoteKeySet(meta.jwksURI, this.#o.client, {
          now: this.#o.now,
          signal,
          ...(this.#o.observeJwks ? { observe: this.#o.observeJwks } : {}),
        });
        return;
      } catch (e) {
        this.#lastError = messageOf(e);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.#o.retryMs);
        t.unref();
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            resolve();
          },
          { once: true },
        );
      });
    }
  }
}
