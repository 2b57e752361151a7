import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AuthorizationConfiguration, Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { buildAuthorizer } from '@kevents/authz';
import type { BuildAuthorizerOptions } from '@kevents/authz';
import { parseConfig } from '@kevents/config';
import type { ReloadMetrics, ReloadResult } from './authentication-reload.js';

/**
 * The authorizer the servers hold when `--authorization-config` is given: it delegates to the
 * current chain, which a reload replaces in one assignment (requests in flight finish on the
 * chain they started with).
 */
export class ReloadableAuthorizer implements Authorizer {
  readonly name = 'AuthorizationConfiguration';
  readonly type = 'Union';
  #current: Authorizer;

  constructor(initial: Authorizer) {
    this.#current = initial;
  }

  get current(): Authorizer {
    return this.#current;
  }

  authorize(attrs: RequestAttributes): Decision | Promise<Decision> {
    return this.#current.authorize(attrs);
  }

  /** Swaps the chain; returns the old one. */
  replace(next: Authorizer): Authorizer {
    const old = this.#current;
    this.#current = next;
    return old;
  }
}

/** Options of {@link AuthorizationConfigReloader}. */
export interface AuthorizationReloaderOptions {
  /** How chains are built (metrics, dialers); the same as at start. */
  readonly build: BuildAuthorizerOptions;
  readonly groupDomain?: string;
  readonly metrics: ReloadMetrics;
  readonly log: { info(o: object, msg: string): void; error(o: object, msg: string): void };
  /** How often the file is read; default 1 s (kube-apiserver: file events plus a 1 min poll). */
  readonly pollMs?: number;
}

const sha256 = (s: string): string => `sha256:${createHash('sha256').update(s).digest('hex')}`;

/**
 * kube-apiserver's automatic reload of `--authorization-config` (pkg/kubeapiserver/authorizer/
 * reload.go): on changed bytes, remember them (invalid content is not retried until it changes),
 * decode and validate, skip a config equal to the running one, build the new chain (connection
 * files read, match conditions compiled) and swap it in atomically. Any failure keeps the running
 * chain and is counted as a `failure`.
 */
export class AuthorizationConfigReloader {
  readonly #file: string;
  readonly #target: ReloadableAuthorizer;
  readonly #o: AuthorizationReloaderOptions;
  #bytes: string;
  #config: string;
  #running: Promise<ReloadResult> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    file: string,
    initialText: string,
    initial: AuthorizationConfiguration,
    target: ReloadableAuthorizer,
    o: AuthorizationReloaderOptions,
  ) {
    this.#file = file;
    this.#target = target;
    this.#o = o;
    this.#bytes = initialText;
    this.#config = JSON.stringify(initial);
  }

  /** Records the initial config's hash and starts polling the file. */
  start(): void {
    const m = this.#o.metrics;
    m.lastConfigInfo.set({ apiserver_id_hash: m.apiserverIdHash, hash: sha256(this.#bytes) }, 1);
    this.#timer = setInterval(() => void this.check(), this.#o.pollMs ?? 1000);
    this.#timer.unref();
  }

  /** Runs one check (serialised: a check while one runs waits for it). */
  check(): Promise<ReloadResult> {
    if (this.#running) return this.#running;
    this.#running = this.#handle().finally(() => (this.#running = undefined));
    return this.#running;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  async #handle(): Promise<ReloadResult> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (e) {
      return this.#record('failure', [`open ${this.#file}: ${(e as Error).message}`]);
    }
    if (text === this.#bytes) return 'unchanged';
    this.#bytes = text;
    const parsed = parseConfig<AuthorizationConfiguration>(text, {
      ...(this.#o.groupDomain ? { groupDomain: this.#o.groupDomain } : {}),
      expectedKind: 'AuthorizationConfiguration',
    });
    if (!parsed.ok) return this.#record('failure', parsed.errors.map(String));
    const json = JSON.stringify(parsed.config);
    if (json === this.#config) return 'unchanged';
    let next: Authorizer;
    try {
      next = buildAuthorizer(parsed.config, this.#o.build);
    } catch (e) {
      return this.#record('failure', [(e as Error).message]);
    }
    this.#target.replace(next);
    this.#config = json;
    const m = this.#o.metrics;
    m.lastConfigInfo.reset();
    m.lastConfigInfo.set({ apiserver_id_hash: m.apiserverIdHash, hash: sha256(text) }, 1);
    this.#o.log.info(
      { file: this.#file, authorizers: (parsed.config.authorizers ?? []).map((a) => a.name) },
      'reloaded authorization config',
    );
    return this.#record('success', []);
  }

  #record(status: 'success' | 'failure', errors: string[]): ReloadResult {
    const m = this.#o.metrics;
    m.reloads.inc({ status });
    m.lastTimestamp.set({ status, apiserver_id_hash: m.apiserverIdHash }, Date.now() / 1000);
    if (status === 'failure')
      this.#o.log.error({ file: this.#file, errors }, `kept the running authorization config: ${errors.join('; ')}`);
    return status;
  }
}
