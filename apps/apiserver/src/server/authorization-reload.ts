import type { AuthorizationConfiguration, Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { buildAuthorizer } from '@kevents/authz';
import type { BuildAuthorizerOptions } from '@kevents/authz';
import { parseConfig } from '@kevents/config';
import { ConfigReloader } from './config-reload.js';
import type { ConfigReloaderOptions, ReloadResult } from './config-reload.js';

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
export interface AuthorizationReloaderOptions extends ConfigReloaderOptions {
  /** How chains are built (metrics, dialers); the same as at start. */
  readonly build: BuildAuthorizerOptions;
  readonly groupDomain?: string;
}

/**
 * kube-apiserver's automatic reload of `--authorization-config` (pkg/kubeapiserver/authorizer/
 * reload.go): on changed bytes, remember them (invalid content is not retried until it changes),
 * decode and validate, skip a config equal to the running one, build the new chain (connection
 * files read, match conditions compiled) and swap it in atomically. Any failure keeps the running
 * chain and is counted as a `failure`.
 */
export class AuthorizationConfigReloader extends ConfigReloader {
  readonly #target: ReloadableAuthorizer;
  readonly #o: AuthorizationReloaderOptions;
  #bytes: string;
  #config: string;

  constructor(
    file: string,
    initialText: string,
    initial: AuthorizationConfiguration,
    target: ReloadableAuthorizer,
    o: AuthorizationReloaderOptions,
  ) {
    super(file, 'authorization config', initialText, o);
    this.#target = target;
    this.#o = o;
    this.#bytes = initialText;
    this.#config = JSON.stringify(initial);
  }

  protected async handle(text: string): Promise<ReloadResult> {
    if (text === this.#bytes) return 'unchanged';
    this.#bytes = text;
    const parsed = parseConfig<AuthorizationConfiguration>(text, {
      ...(this.#o.groupDomain ? { groupDomain: this.#o.groupDomain } : {}),
      expectedKind: 'AuthorizationConfiguration',
    });
    if (!parsed.ok) return this.record('failure', parsed.errors.map(String));
    const json = JSON.stringify(parsed.config);
    if (json === this.#config) return 'unchanged';
    let next: Authorizer;
    try {
      next = buildAuthorizer(parsed.config, this.#o.build);
    } catch (e) {
      return this.record('failure', [(e as Error).message]);
    }
    this.#target.replace(next);
    this.#config = json;
    this.applied(text);
    this.#o.log.info(
      { file: this.file, authorizers: (parsed.config.authorizers ?? []).map((a) => a.name) },
      'reloaded authorization config',
    );
    return this.record('success', []);
  }
}
