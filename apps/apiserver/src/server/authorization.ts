import { readFile } from 'node:fs/promises';
import type { AuthorizationConfiguration, Authorizer } from '@kevents/api';
import { AuthorizationMetrics, authorizerForModes, buildAuthorizer } from '@kevents/authz';
import type { BuildAuthorizerOptions } from '@kevents/authz';
import { hashLabel } from '@kevents/authn';
import type { ServerMetrics } from '@kevents/apiserver';
import { parseConfig } from '@kevents/config';
import { apiserverId } from './authentication.js';
import { AuthorizationConfigReloader, ReloadableAuthorizer } from './authorization-reload.js';
import { reloadMetrics } from './config-reload.js';

/** What the servers need from authorization, and how to stop it. */
export interface AuthorizationSetup {
  readonly authorizer: Authorizer;
  /** One line for the startup log. */
  readonly summary: string;
  close(): void;
}

/** Options of {@link startAuthorization}. */
export interface StartAuthorizationOptions {
  readonly flags: Readonly<Record<string, string>>;
  /** `--authorization-config` (already validated by main); `--authorization-mode` is used only without it. */
  readonly file?: string;
  readonly metrics: ServerMetrics;
  readonly log: { info(o: object, msg: string): void; error(o: object, msg: string): void };
  /** The webhooks' network seam (the egress selector fills it) and retry schedule. */
  readonly build?: Omit<BuildAuthorizerOptions, 'metrics'>;
  /** Reload poll interval (tests shorten it). */
  readonly reload?: { pollMs?: number };
}

/**
 * Builds kube-apiserver's authorizer: the chain of `--authorization-config` (with its automatic
 * reload) or, without the file, the legacy `--authorization-mode`; registers the authorization
 * metrics on the server's registry.
 */
export async function startAuthorization(o: StartAuthorizationOptions): Promise<AuthorizationSetup> {
  const registry = o.metrics.registry;
  const metrics = new AuthorizationMetrics(registry);
  const build: BuildAuthorizerOptions = { ...o.build, metrics };
  if (!o.file) {
    const mode = o.flags['authorization-mode'] || 'AlwaysAllow';
    const authorizer = authorizerForModes(mode, build);
    return { authorizer, summary: `authorization: --authorization-mode=${mode}`, close: () => undefined };
  }
  const groupDomain = o.flags['group-domain'];
  const text = await readFile(o.file, 'utf8');
  const parsed = parseConfig<AuthorizationConfiguration>(text, {
    ...(groupDomain ? { groupDomain } : {}),
    expectedKind: 'AuthorizationConfiguration',
  });
  if (!parsed.ok) throw new Error(`${o.file}: ${parsed.errors.map(String).join('; ')}`);
  const authorizer = new ReloadableAuthorizer(buildAuthorizer(parsed.config, build));
  const reloader = new AuthorizationConfigReloader(o.file, text, parsed.config, authorizer, {
    build,
    log: o.log,
    ...(groupDomain ? { groupDomain } : {}),
    ...o.reload,
    metrics: reloadMetrics(
      'authorization',
      registry,
      o.metrics.configReloads.AuthorizationConfiguration,
      hashLabel(apiserverId()),
    ),
  });
  reloader.start();
  const names = (parsed.config.authorizers ?? []).map((a) => `${a.name} (${a.type})`).join(', ');
  return {
    authorizer,
    summary: `authorization: ${names} from ${o.file}, reloaded on change`,
    close: () => reloader.stop(),
  };
}
