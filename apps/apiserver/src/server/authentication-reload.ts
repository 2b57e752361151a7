import { readFile } from 'node:fs/promises';
import type { AuthenticationConfiguration } from '@kevents/api';
import { JwtAuthenticatorSet } from '@kevents/authn';
import type { AuthenticationChain, JwtAuthenticatorOptions } from '@kevents/authn';
import { parseConfig } from '@kevents/config';
import type { Counter, Gauge } from 'prom-client';

/** The metrics of the reload controller (`apiserver_authentication_config_controller_*`). */
export interface ReloadMetrics {
  readonly reloads: Counter<'status'>;
  readonly lastTimestamp: Gauge<'status' | 'apiserver_id_hash'>;
  readonly lastConfigInfo: Gauge<'apiserver_id_hash' | 'hash'>;
  readonly apiserverIdHash: string;
}

/** Options of {@link AuthenticationConfigReloader}. */
export interface ReloaderOptions {
  /** How the new JWT authenticators are built (HTTP clients, metrics). */
  readonly jwt: JwtAuthenticatorOptions;
  readonly groupDomain?: string;
  readonly metrics: ReloadMetrics;
  readonly log: {
    info(o: object, msg: string): void;
    error(o: object, msg: string): void;
  };
  /** How often the file is read; default 1 s (kube-apiserver: file events plus a 1 min poll). */
  readonly pollMs?: number;
  /** How long new authenticators may take to become healthy; default 1 min. */
  readonly healthTimeoutMs?: number;
  /** How long the replaced authenticators keep running for requests in flight; default 1 min. */
  readonly retireAfterMs?: number;
}

/** Outcome of one {@link AuthenticationConfigReloader.check}. */
export type ReloadResult = 'unchanged' | 'success' | 'failure';

const sha256 = async (s: string): Promise<string> =>
  `sha256:${(await import('node:crypto')).createHash('sha256').update(s).digest('hex')}`;

/**
 * kube-apiserver's automatic reload of `--authentication-config`: on a changed file it decodes
 * and validates it (an invalid file, or a changed `anonymous` block, is a failure and that
 * content is not retried), builds new JWT authenticators and waits until every one is healthy,
 * then swaps them in atomically and retires the old ones a minute later. Authenticators that do
 * not become healthy are dropped and the same content is retried on the next check. Only the JWT
 * authenticators are reloaded.
 */
export class AuthenticationConfigReloader {
  readonly #file: string;
  readonly #chain: AuthenticationChain;
  readonly #o: ReloaderOptions;
  readonly #initialAnonymous: string;
  #tracked: string;
  #running: Promise<ReloadResult> | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #retiring = new Set<NodeJS.Timeout>();

  constructor(
    file: string,
    initialText: string,
    initial: AuthenticationConfiguration,
    chain: AuthenticationChain,
    o: ReloaderOptions,
  ) {
    this.#file = file;
    this.#chain = chain;
    this.#o = o;
    this.#tracked = initialText;
    this.#initialAnonymous = JSON.stringify(initial.anonymous ?? null);
  }

  /** Records the initial config's hash and starts polling the file. */
  async start(): Promise<void> {
    this.#o.metrics.lastConfigInfo.set(
      { apiserver_id_hash: this.#o.metrics.apiserverIdHash, hash: await sha256(this.#tracked) },
      1,
    );
    this.#timer = setInterval(() => void this.check(), this.#o.pollMs ?? 1000);
    this.#timer.unref();
    void this.check();
  }

  /** Runs the handler once (serialised: a check while one runs waits for it). */
  check(): Promise<ReloadResult> {
    if (this.#running) return this.#running;
    this.#running = this.#handle().finally(() => (this.#running = undefined));
    return this.#running;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    for (const t of this.#retiring) clearTimeout(t);
  }

  async #handle(): Promise<ReloadResult> {
    const { log } = this.#o;
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (e) {
      return this.#record('failure', [`open ${this.#file}: ${(e as Error).message}`]);
    }
    if (text === this.#tracked) return 'unchanged';
    const parsed = parseConfig<AuthenticationConfiguration>(text, {
      ...(this.#o.groupDomain ? { groupDomain: this.#o.groupDomain } : {}),
      expectedKind: 'AuthenticationConfiguration',
    });
    if (!parsed.ok) {
      this.#tracked = text;
      return this.#record('failure', parsed.errors.map(String));
    }
    if (JSON.stringify(parsed.config.anonymous ?? null) !== this.#initialAnonymous) {
      this.#tracked = text;
      return this.#record('failure', ['anonymous: Forbidden: changed from initial configuration file']);
    }
    let next: JwtAuthenticatorSet;
    try {
      next = new JwtAuthenticatorSet(parsed.config.jwt ?? [], this.#o.jwt);
    } catch (e) {
      this.#tracked = text;
      return this.#record('failure', [(e as Error).message]);
    }
    const deadline = Date.now() + (this.#o.healthTimeoutMs ?? 60_000);
    while (next.healthErrors().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const unhealthy = next.healthErrors();
    if (unhealthy.length) {
      next.close();
      return this.#record('failure', unhealthy);
    }
    const old = this.#chain.replaceJwt(next);
    const t = setTimeout(() => {
      this.#retiring.delete(t);
      old.close();
    }, this.#o.retireAfterMs ?? 60_000);
    t.unref();
    this.#retiring.add(t);
    this.#tracked = text;
    this.#o.metrics.lastConfigInfo.reset();
    this.#o.metrics.lastConfigInfo.set(
      { apiserver_id_hash: this.#o.metrics.apiserverIdHash, hash: await sha256(text) },
      1,
    );
    log.info({ file: this.#file, issuers: next.authenticators.map((a) => a.issuer) }, 'reloaded authentication config');
    return this.#record('success', []);
  }

  #record(status: 'success' | 'failure', errors: string[]): ReloadResult {
    const m = this.#o.metrics;
    m.reloads.inc({ status });
    m.lastTimestamp.set({ status, apiserver_id_hash: m.apiserverIdHash }, Date.now() / 1000);
    if (status === 'failure')
      this.#o.log.error({ file: this.#file, errors }, `kept the running authentication config: ${errors.join('; ')}`);
    return status;
  }
}
