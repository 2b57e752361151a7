import type { AuthenticationConfiguration } from '@kevents/api';
import { JwtAuthenticatorSet } from '@kevents/authn';
import type { AuthenticationChain, JwtAuthenticatorOptions } from '@kevents/authn';
import type { ApplyOutcome } from '@kevents/config';

/** Options of {@link AuthenticationConfigApplier}. */
export interface AuthenticationApplierOptions {
  /** The chain whose JWT authenticators a reload replaces. */
  readonly chain: AuthenticationChain;
  /** The config the chain was built from (its `anonymous` block may not change). */
  readonly initial: AuthenticationConfiguration;
  /** How the new JWT authenticators are built (HTTP clients, metrics). */
  readonly jwt: JwtAuthenticatorOptions;
  readonly file: string;
  readonly log: { info(o: object, msg: string): void };
  /** How long new authenticators may take to become healthy; default 1 min. */
  readonly healthTimeoutMs?: number;
  /** How long the replaced authenticators keep running for requests in flight; default 1 min. */
  readonly retireAfterMs?: number;
}

/**
 * How kube-apiserver's automatic reload of `--authentication-config` applies a valid new file
 * (the {@link ConfigWatcher} `apply` step): a changed `anonymous` block is refused; new JWT
 * authenticators are built and awaited until every one is healthy, then swapped in atomically,
 * the old ones retired a minute later. Authenticators that do not become healthy are dropped and
 * the same content is retried on the next check. Only the JWT authenticators are reloaded.
 */
export class AuthenticationConfigApplier {
  readonly #o: AuthenticationApplierOptions;
  readonly #initialAnonymous: string;
  readonly #retiring = new Set<NodeJS.Timeout>();

  constructor(o: AuthenticationApplierOptions) {
    this.#o = o;
    this.#initialAnonymous = JSON.stringify(o.initial.anonymous ?? null);
  }

  /** Applies one valid config (see the class). */
  readonly apply = async (config: AuthenticationConfiguration): Promise<ApplyOutcome> => {
    if (JSON.stringify(config.anonymous ?? null) !== this.#initialAnonymous)
      return { errors: ['anonymous: Forbidden: changed from initial configuration file'] };
    const next = new JwtAuthenticatorSet(config.jwt ?? [], this.#o.jwt);
    const deadline = Date.now() + (this.#o.healthTimeoutMs ?? 60_000);
    while (next.healthErrors().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const unhealthy = next.healthErrors();
    if (unhealthy.length) {
      next.close();
      return { errors: unhealthy, retry: true };
    }
    const old = this.#o.chain.replaceJwt(next);
    const t = setTimeout(() => {
      this.#retiring.delete(t);
      old.close();
    }, this.#o.retireAfterMs ?? 60_000);
    t.unref();
    this.#retiring.add(t);
    this.#o.log.info(
      { file: this.#o.file, issuers: next.authenticators.map((a) => a.issuer) },
      'reloaded authentication config',
    );
    return 'applied';
  };

  /** Stops the timers that retire replaced authenticators. */
  stop(): void {
    for (const t of this.#retiring) clearTimeout(t);
  }
}
