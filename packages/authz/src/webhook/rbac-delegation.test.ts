import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthorizationConfiguration, RequestAttributes } from '@kevents/api';
import { buildAuthorizer } from '../build.js';
import { startRbacStandIn, subjectAccessReviewPath } from '../testing/index.js';
import type { WebhookServer } from '../testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-rbac-'));
let cluster: WebhookServer;

const attrs = (user: string, verb: string, groups: string[] = ['system:authenticated']): RequestAttributes => ({
  user: { username: user, groups },
  verb,
  isResourceRequest: true,
  path: '/apis/events.k8s.io/v1/namespaces/ns/events',
  apiGroup: 'events.k8s.io',
  apiVersion: 'v1',
  resource: 'events',
  subresource: '',
  namespace: 'ns',
  name: '',
});

function delegate(token: string): ReturnType<typeof buildAuthorizer> {
  const file = join(dir, `cluster-${token}.kubeconfig`);
  // The server URL is the cluster's SubjectAccessReview endpoint itself: it is POSTed to as is.
  writeFileSync(file, cluster.kubeconfig({ token }));
  const config = {
    apiVersion: 'apiserver.config.k8s.io/v1beta1',
    kind: 'AuthorizationConfiguration',
    authorizers: [
      {
        type: 'Webhook',
        name: 'cluster-rbac',
        webhook: {
          timeout: 3e9,
          authorizedTTL: 300e9,
          unauthorizedTTL: 30e9,
          cacheAuthorizedRequests: true,
          cacheUnauthorizedRequests: true,
          subjectAccessReviewVersion: 'v1',
          failurePolicy: 'NoOpinion',
          connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: file },
        },
      },
    ],
  } as AuthorizationConfiguration;
  return buildAuthorizer(config, { retryBackoff: { initialMs: 5, factor: 1.5, jitter: 0.2, steps: 5 } });
}

beforeAll(async () => {
  cluster = await startRbacStandIn('kevents-sa-token', [
    {
      binding: 'events-readers',
      role: 'view-events',
      groups: ['readers'],
      apiGroups: ['events.k8s.io'],
      resources: ['events'],
      verbs: ['get', 'list', 'watch'],
    },
    {
      binding: 'alice-admin',
      role: 'events-admin',
      users: ['alice'],
      apiGroups: ['events.k8s.io'],
      resources: ['*'],
      verbs: ['*'],
    },
  ]);
});
afterAll(() => cluster.close());

describe('delegating to a cluster’s RBAC through its SubjectAccessReview endpoint', () => {
  it('lets the cluster’s RoleBindings decide, with RBAC’s reasons', async () => {
    const a = delegate('kevents-sa-token');
    expect(await a.authorize(attrs('bob', 'list', ['readers']))).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "events-readers" of ClusterRole "view-events" to Group "readers"',
    });
    expect(await a.authorize(attrs('alice', 'delete'))).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "alice-admin" of ClusterRole "events-admin" to User "alice"',
    });
    // No rule: RBAC has no opinion, so the union answers NoOpinion and the server 403.
    expect(await a.authorize(attrs('bob', 'delete', ['readers']))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(cluster.received.every((r) => r.path === subjectAccessReviewPath)).toBe(true);
    expect(cluster.received[0]!.headers.authorization).toBe('Bearer kevents-sa-token');
  });

  it('a credential the cluster refuses is an error, not a decision', async () => {
    const d = await delegate('wrong-token').authorize(attrs('bob', 'list', ['readers']));
    expect(d.decision).toBe('NoOpinion');
    expect(d.error?.message).toBe('Unauthorized');
  });
});
