import type { Authorizer, Decision } from '@kevents/api';
import { AuthorizationError, aggregateMessage } from './errors.js';

/** The groups kube-apiserver's privileged-groups authorizer allows (`user.SystemPrivilegedGroup`). */
export const privilegedGroups: readonly string[] = ['system:masters'];

/**
 * The built-in authorizer kube-apiserver puts first (`authorizerfactory.NewPrivilegedGroups`):
 * Allow for a member of `system:masters`, otherwise no opinion. It is not metered.
 */
export const privilegedGroupsAuthorizer: Authorizer = {
  name: 'privileged-groups',
  authorize: (attrs) =>
    attrs.user.groups.some((g) => privilegedGroups.includes(g))
      ? { decision: 'Allow', reason: '' }
      : { decision: 'NoOpinion', reason: '' },
};

/**
 * kube-apiserver's union authorizer (`union.New`): asks each authorizer in order; the first Allow
 * or Deny is the answer, with that authorizer's reason and error. When none decides the answer is
 * NoOpinion with every collected reason joined by a newline and every collected error
 * aggregated, so a failed webhook nobody overruled surfaces as an error (a 500).
 */
export function union(authorizers: readonly Authorizer[], name?: string): Authorizer {
  const list = [...authorizers];
  const finish = (reasons: string[] | undefined, errors: Error[] | undefined): Decision => {
    const out: Decision = { decision: 'NoOpinion', reason: reasons ? reasons.join('\n') : '' };
    if (!errors) return out;
    const error =
      errors.length === 1 ? errors[0]! : new AuthorizationError('WebhookCallFailed', aggregateMessage(errors));
    return { ...out, error };
  };
  // Answers synchronously while every authorizer does (a warm webhook cache), so the common path
  // costs no promise; the first asynchronous answer continues in `rest`.
  const rest = async (
    pending: Promise<Decision>,
    from: number,
    attrs: Parameters<Authorizer['authorize']>[0],
    reasons: string[] | undefined,
    errors: Error[] | undefined,
  ): Promise<Decision> => {
    let d = await pending;
    for (let i = from; ;) {
      if (d.decision !== 'NoOpinion') return d;
      if (d.reason) (reasons ??= []).push(d.reason);
      if (d.error) (errors ??= []).push(d.error);
      if (++i >= list.length) return finish(reasons, errors);
      d = await list[i]!.authorize(attrs);
    }
  };
  return {
    name: name ?? list.map((a) => a.name).join(','),
    type: 'Union',
    authorize: (attrs) => {
      let reasons: string[] | undefined;
      let errors: Error[] | undefined;
      for (let i = 0; i < list.length; i++) {
        const d = list[i]!.authorize(attrs);
        if (d instanceof Promise) return rest(d, i, attrs, reasons, errors);
        if (d.decision !== 'NoOpinion') return d;
        if (d.reason) (reasons ??= []).push(d.reason);
        if (d.error) (errors ??= []).push(d.error);
      }
      return finish(reasons, errors);
    },
  };
}
