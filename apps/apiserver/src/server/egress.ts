import { readFile } from 'node:fs/promises';
import type { EgressSelectorConfiguration, JWTAuthenticator } from '@kevents/api';
import { issuerHttpClient } from '@kevents/authn';
import type { WebhookDialer } from '@kevents/authz';
import type { IssuerHttpClient } from '@kevents/authn';
import { decodeConfig, parseConfig } from '@kevents/config';
import { EgressSelector } from '@kevents/egress';
import type { Registry } from 'prom-client';

/** The egress selector of `--egress-selector-config-file` and what it feeds. */
export interface EgressSetup {
  /** Undefined without a file: every consumer dials directly. */
  readonly selector?: EgressSelector;
  /** One line for the startup log. */
  readonly summary: string;
  /** The HTTP client of each `jwt[]` entry (the authn seam), by its `issuer.egressSelectorType`. */
  readonly httpClientFor: (a: JWTAuthenticator) => IssuerHttpClient;
}

/**
 * Reads `--egress-selector-config-file` (already validated by main) and builds one dialer per
 * selection, with the egress dialer and konnectivity client metrics on `registry`.
 */
export async function startEgress(o: {
  readonly file?: string;
  readonly groupDomain?: string;
  readonly registry: Registry;
  readonly log: { warn(o: object, msg: string): void };
}): Promise<EgressSetup> {
  if (!o.file)
    return { summary: 'egress: no selector configured; dialing directly', httpClientFor: issuerHttpClientFor() };
  const text = await readFile(o.file, 'utf8');
  const options = {
    ...(o.groupDomain ? { groupDomain: o.groupDomain } : {}),
    expectedKind: 'EgressSelectorConfiguration' as const,
  };
  // v1beta1 conversion turns `master` into `controlplane` silently; warn as the deprecation asks.
  const raw = decodeConfig(text, options);
  if (raw.ok)
    for (const s of (raw.object as { egressSelections?: { name?: unknown }[] }).egressSelections ?? [])
      if (s?.name === 'master')
        o.log.warn({ file: o.file }, "EgressSelection name 'master' is deprecated, use 'controlplane' instead");
  const parsed = parseConfig<EgressSelectorConfiguration>(text, options);
  if (!parsed.ok) throw new Error(`${o.file}: ${parsed.errors.map(String).join('; ')}`);
  const selector = await EgressSelector.fromConfiguration(parsed.config, { registry: o.registry, log: o.log });
  return {
    selector,
    summary: `egress: ${selector.describe() || 'no selections'} (from ${o.file})`,
    httpClientFor: issuerHttpClientFor(selector),
  };
}

/**
 * kube-apiserver's JWT issuer client: `certificateAuthority` as the only trust, and the dialer of
 * `issuer.egressSelectorType` when set (discovery, JWKS and distributed claims all use it).
 * @throws Error `oidc: egress lookup required with egress selector type "<t>"` without a selector,
 *   `oidc: egress lookup for "<t>" is not configured` when the selection is missing.
 */
export function issuerHttpClientFor(
  selector?: EgressSelector,
  o: { timeoutMs?: number } = {},
): (a: JWTAuthenticator) => IssuerHttpClient {
  return (a) => {
    const type = a.issuer.egressSelectorType;
    const base = {
      ...(a.issuer.certificateAuthority ? { ca: a.issuer.certificateAuthority } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    };
    if (!type) return issuerHttpClient(base);
    if (!selector) throw new Error(`oidc: egress lookup required with egress selector type ${JSON.stringify(type)}`);
    const dialer = selector.lookup(type);
    if (!dialer) throw new Error(`oidc: egress lookup for ${JSON.stringify(type)} is not configured`);
    return issuerHttpClient({ ...base, dial: (address, { signal }) => dialer.dial(address, { signal }) });
  };
}

/**
 * The dialer of every webhook authorizer: kube-apiserver sends webhook traffic through the
 * `controlplane` selection when one is configured, and dials directly otherwise.
 */
export function webhookDialFor(selector?: EgressSelector): (authorizerName: string) => WebhookDialer | undefined {
  const dialer = selector?.lookup('controlplane');
  if (!dialer) return () => undefined;
  return () => (target) => dialer.dial(target);
}
