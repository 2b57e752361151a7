import { WebhookServer } from './webhook-server.js';
import type { ReceivedReview, WebhookAnswer } from './webhook-server.js';

/** One RBAC grant: a ClusterRole's rule bound to users or groups by a ClusterRoleBinding. */
export interface RbacGrant {
  readonly binding: string;
  readonly role: string;
  readonly users?: readonly string[];
  readonly groups?: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}

/** The path kube-apiserver serves SubjectAccessReviews on. */
export const subjectAccessReviewPath = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

const has = (list: readonly string[], v: string): boolean => list.includes('*') || list.includes(v);

/**
 * A stand-in for a cluster's `POST /apis/authorization.k8s.io/v1/subjectaccessreviews` for tests:
 * bearer-token authentication (401 Status otherwise), 404 elsewhere, and RBAC's answers in
 * kube-apiserver's shape: 201 Created with the review echoed, `metadata.creationTimestamp: null`,
 * and `status.allowed` with RBAC's reason (`RBAC: allowed by ClusterRoleBinding ...`), or
 * `allowed: false` with no reason when no rule matches (RBAC has no opinion; it never denies).
 */
export async function startRbacStandIn(token: string, grants: RbacGrant[]): Promise<WebhookServer> {
  const server = await WebhookServer.start({ token, path: subjectAccessReviewPath });
  server.answer = (r: ReceivedReview): WebhookAnswer => {
    const spec = (r.review.spec ?? {}) as {
      user?: string;
      groups?: string[];
      resourceAttributes?: { group?: string; resource?: string; subresource?: string; verb?: string };
    };
    if (r.review.apiVersion !== 'authorization.k8s.io/v1' || r.review.kind !== 'SubjectAccessReview')
      return {
        http: 400,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'the API version in the data does not match the expected API version',
          reason: 'BadRequest',
          code: 400,
        }),
      };
    const ra = spec.resourceAttributes;
    const user = spec.user ?? '';
    const groups = spec.groups ?? [];
    let reason = '';
    let allowed = false;
    if (ra) {
      const resource = ra.subresource ? `${ra.resource}/${ra.subresource}` : (ra.resource ?? '');
      for (const g of grants) {
        const subject = g.users?.includes(user) ? `User "${user}"` : undefined;
        const group = g.groups?.find((x) => groups.includes(x));
        const who = subject ?? (group ? `Group "${group}"` : undefined);
        if (!who) continue;
        if (has(g.apiGroups, ra.group ?? '') && has(g.resources, resource) && has(g.verbs, ra.verb ?? '')) {
          allowed = true;
          reason = `RBAC: allowed by ClusterRoleBinding "${g.binding}" of ClusterRole "${g.role}" to ${who}`;
          break;
        }
      }
    }
    return {
      http: 201,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'SubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: r.review.spec,
        status: { allowed, ...(reason ? { reason } : {}) },
      }),
    };
  };
  return server;
}
