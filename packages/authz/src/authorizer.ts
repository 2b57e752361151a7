import type { Authorizer } from '@kevents/api';

/** `AlwaysAllow`: every request may proceed. */
export const alwaysAllow: Authorizer = {
  name: 'AlwaysAllow',
  type: 'AlwaysAllow',
  authorize: () => ({ decision: 'Allow', reason: '' }),
};

/** `AlwaysDeny`: every request is forbidden (kube-apiserver's reason text). */
export const alwaysDeny: Authorizer = {
  name: 'AlwaysDeny',
  type: 'AlwaysDeny',
  authorize: () => ({ decision: 'Deny', reason: 'Everything is forbidden.' }),
};

/** The authorizer types this server builds. */
export const supportedAuthorizerTypes: readonly string[] = ['AlwaysAllow', 'AlwaysDeny', 'Webhook'];

/** The authorizer a `--authorization-mode` value names (the legacy flag; no Webhook there). */
export function authorizerForMode(mode: string): Authorizer {
  switch (mode) {
    case 'AlwaysAllow':
      return alwaysAllow;
    case 'AlwaysDeny':
      return alwaysDeny;
    default:
      throw new Error(`--authorization-mode=${mode}: unknown authorization mode; use AlwaysAllow or AlwaysDeny`);
  }
}
