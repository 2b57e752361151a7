import type { AuthenticationConfiguration } from '@kevents/api';
import { JwtAuthenticatorSet } from '@kevents/authn';
import type { AuthenticationChain, JwtAuthenticatorOptions } from '@kevents/authn';
import { parseConfig } from '@kevents/config';
import { ConfigReloader } from './config-reload.js';
import type { ConfigReloaderOptions, ReloadResult } from './config-reload.js';

/** Options of {@link AuthenticationConfigReloader}. */
export interface ReloaderOptions extends ConfigReloaderOptions {
  /** How the new JWT authenticators are built (HTTP clients, metrics). */
  readonly jwt: JwtAuthenticatorOptions;
  readonly groupDomain?: string;
  /** How long new authenticators may take to become healthy; default 1 min. */
  readonly healthTimeoutMs?: number;
  /** How long the replaced authenticators keep running for requests in flight; default 1 min. */
  readonly retireAfterMs?: number;
}

/**
 * kube-apiserver's automatic reload of `--authentication-config`: on a changed file it decodes
 * and validates it (an invalid file, or a changed `anonymous` block, is a failure and that
 * content is not retried), builds new JWT authenticators and waits until every one is healthy,
 * then swaps them in atomically and retires the old ones a minute later. Authenticators that do
 * not become healthy are dropped and the same content is retried on the next check. Only the JWT
 * authenticators are reloaded.
 */
export class AuthenticationConfigReloader extends ConfigReloader {
  readonly #chain: AuthenticationChain;
  readonly #o: ReloaderOptions;
  readonly #initialAnonymous: string;
  #tracked: string;
  readonly #retiring = new Set<NodeJS.Timeout>();

  constructor(
    file: string,
    initialText: string,
    initial: AuthenticationConfiguration,
    chain: AuthenticationChain,
    o: ReloaderOptions,
  ) {
    super(file, 'authentication config', initialText, o);
    this.#chain = chain;
    this.#o = o;
    this.#tracked = initialText;
    this.#initialAnonymous = JSON.stringify(initial.anonymous ?? null);
  }

  /** Records the initial config's hash, starts polling the file and checks it once now. */
  override start(): void {
    super.start();
    void this.check();
  }

  override stop(): void {
    super.stop();
    for (const t of this.#retiring) clearTimeout(t);
  }

  protected async handle(text: string): Promise<ReloadResult> {
    const { log } = this.#o;
    if (text === this.#tracked) return 'unchanged';
    const parsed = parseConfig<AuthenticationConfiguration>(text, {
      ...(this.#o.groupDomain ? { groupDomain: this.#o.groupDomain } : {}),
      expectedKind: 'AuthenticationConfiguration',
    });
    if (!parsed.ok) {
      this.#tracked = text;
      return this.record('failure', parsed.errors.map(String));
    }
    if (JSON.stringify(parsed.config.anonymous ?? null) !== this.#initialAnonymous) {
      this.#tracked = text;
      return this.record('failure', ['anonymous: Forbidden: changed from initial configuration file']);
    }
    let next: JwtAuthenticatorSet;
    try {
      next = new JwtAuthenticatorSet(parsed.config.jwt ?? [], this.#o.jwt);
    } catch (e) {
      this.#tracked = text;
      return this.record('failure', [(e as Error).message]);
    }
    const deadline = Date.now() + (this.#o.healthTimeoutMs ?? 60_000);
    while (next.healthErrors().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const unhealthy = next.healthErrors();
    if (unhealthy.length) {
      next.close();
      return this.record('failure', unhealthy);
    }
    const old = this.#chain.replaceJwt(next);
    const t = setTimeout(() => {
      this.#retiring.delete(t);
      old.close();
    }, this.#o.retireAfterMs ?? 60_000);
    t.unref();
    this.#retiring.add(t);
    this.#tracked = text;
    this.applied(text);
    log.info({ file: this.file, issuers: next.authenticators.map((a) => a.issuer) }, 'reloaded authentication config');
    return this.record('success', []);
  }
}
