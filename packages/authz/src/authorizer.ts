import type { Authorizer } from '@kevents/api';

/** `AlwaysAllow`: every request may proceed. */
export const alwaysAllow: Authorizer = { name: 'AlwaysAllow', authorize: () => ({ decision: 'Allow', reason: '' }) };

/** `AlwaysDeny`: every request is forbidden (kube-apiserver's reason text). */
export const alwaysDeny: Authorizer = {
  name: 'AlwaysDeny',
  authorize: () => ({ decision: 'Deny', reason: 'Everything is forbidden.' }),
};

/**
 * Asks each authorizer in order; the first Allow or Deny wins, and a request no authorizer
 * decides is denied with the reasons collected, as kube-apiserver's union authorizer does.
 */
export function chain(authorizers: readonly Authorizer[]): Authorizer {
  return {
    name: authorizers.map((a) => a.name).join(','),
    authorize: async (attrs) => {
      const reasons: string[] = [];
      for (const a of authorizers) {
        const d = await a.authorize(attrs);
        if (d.decision !== 'NoOpinion') return d;
        if (d.reason) reasons.push(d.reason);
      }
      return { decision: 'Deny', reason: reasons.join(', ') };
    },
  };
}

/** The authorizer a `--authorization-mode` value names. */
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
