import { webhookDefaults, type AuthorizationConfiguration, type EgressSelectorConfiguration } from '@kevents/api';

/** v1beta1 `SetDefaults_WebhookConfiguration`: zero TTLs and absent cache flags get their defaults. */
export function defaultAuthorization(c: AuthorizationConfiguration): void {
  for (const a of c.authorizers ?? []) {
    const w = a.webhook;
    if (!w) continue;
    if (!w.authorizedTTL) w.authorizedTTL = webhookDefaults.authorizedTTL;
    if (!w.unauthorizedTTL) w.unauthorizedTTL = webhookDefaults.unauthorizedTTL;
    w.cacheAuthorizedRequests ??= webhookDefaults.cacheAuthorizedRequests;
    w.cacheUnauthorizedRequests ??= webhookDefaults.cacheUnauthorizedRequests;
  }
}

/** v1beta1 conversion: an egress selection named exactly `master` becomes `controlplane`. */
export function convertEgress(c: EgressSelectorConfiguration): void {
  for (const s of c.egressSelections ?? []) if (s.name === 'master') s.name = 'controlplane';
}
