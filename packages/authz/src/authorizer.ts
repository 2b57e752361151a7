import type { RequestAttributes } from './attributes.js';

/** An authorizer's answer: allow, deny (stop), or no opinion (ask the next one). */
export interface Decision {
  readonly decision: 'Allow' | 'Deny' | 'NoOpinion';
  /** Why, shown to the client on a 403. */
  readonly reason: string;
}

/** Decides whether a request may proceed. */
export interface Authorizer {
  readonly name: string;
  authorize(attrs: RequestAttributes): Decision | Promise<Decision>;
}

/** `AlwaysAllow`: every request may proceed. */
export const alwaysAllow: Authorizer = { name: 'AlwaysAllow', authorize: () => ({ decision: 'Allow', reason: '' }) };

/** `AlwaysDeny`: every request is forbidden (kube-apiserver's reason text). */
export const alwaysDeny: Authorizer = { name: 'AlwaysDeny', authorize: () => ({ decision: 'Deny', reason: 'Everything is forbidden.' }) };

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

/**
 * The text kube-apiserver puts in a 403 (handlers/responsewriters/errors.go `forbiddenMessage`):
 * `User "u" cannot list resource "events" in API group "events.k8s.io" in the namespace "ns"`.
 */
export function forbiddenMessage(attrs: RequestAttributes): string {
  const user = attrs.user.username;
  if (!attrs.isResourceRequest) return `User ${JSON.stringify(user)} cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace ${JSON.stringify(attrs.namespace)}` : 'at the cluster scope';
  return `User ${JSON.stringify(user)} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup)} ${where}`;
}
