import type { AuthorizationConfiguration, Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { buildAuthorizer } from '@kevents/authz';
import type { BuildAuthorizerOptions } from '@kevents/authz';
import type { ApplyOutcome } from '@kevents/config';

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

/** Options of {@link authorizationApply}. */
export interface AuthorizationApplyOptions {
  /** The authorizer the servers hold; a reload swaps its chain. */
  readonly target: ReloadableAuthorizer;
  /** The config the running chain was built from. */
  readonly initial: AuthorizationConfiguration;
  /** How chains are built (metrics, dialers); the same as at start. */
  readonly build: BuildAuthorizerOptions;
  readonly file: string;
  readonly log: { info(o: object, msg: string): void };
}

/**
 * How kube-apiserver's automatic reload of `--authorization-config` (pkg/kubeapiserver/authorizer/
 * reload.go) applies a valid new file (the {@link ConfigWatcher} `apply` step): a config equal
 * to the running one is a no-op; otherwise the new chain is built (connection files read, match
 * conditions compiled; an error keeps the running chain) and swapped in atomically.
 */
export function authorizationApply(o: AuthorizationApplyOptions): (config: AuthorizationConfiguration) => ApplyOutcome {
  let running = JSON.stringify(o.initial);
  return (config) => {
    const json = JSON.stringify(config);
    if (json === running) return 'unchanged';
    o.target.replace(buildAuthorizer(config, o.build));
    running = json;
    o.log.info(
      { file: o.file, authorizers: (config.authorizers ?? []).map((a) => a.name) },
      'reloaded authorization config',
    );
    return 'applied';
  };
}
