/* eslint-disable @typescript-eslint/no-explicit-any -- rendered YAML is untyped */
import { beforeAll, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { parse } from 'yaml';
import { byKind, chartDir, ensureRenderer, renderChart, rendererMissing } from './renderer.js';
import { describeIfTools } from './gate.js';

const values = join(chartDir, 'ci', 'aggregation-values.yaml');
const describeRender = describeIfTools(await rendererMissing(), 'chart rendering: aggregation');

describeRender('chart rendering: aggregation', () => {
  beforeAll(async () => {
    await ensureRenderer();
  }, 180_000);

  it('renders the APIService with the chart CA, the delegation RBAC and the aggregated roles', async () => {
    const r = await renderChart({ valuesFiles: [values] });
    const api = byKind(r, 'APIService').get('v1.events.kevents.io') as any;
    expect(api.apiVersion).toBe('apiregistration.k8s.io/v1');
    expect(api.spec).toMatchObject({
      group: 'events.kevents.io',
      version: 'v1',
      service: { name: 'test-kevents-server', namespace: expect.any(String), port: 443 },
      groupPriorityMinimum: 1000,
      versionPriority: 15,
    });
    // caBundle is the CA that signed the serving certificate.
    const ca = new X509Certificate(Buffer.from(api.spec.caBundle, 'base64').toString('utf8'));
    const serving = byKind(r, 'Secret').get('test-kevents-server-tls') as any;
    const leaf = new X509Certificate(Buffer.from(serving.data['tls.crt'], 'base64').toString('utf8'));
    expect(leaf.verify(ca.publicKey)).toBe(true);

    const delegator = byKind(r, 'ClusterRoleBinding').get('test-kevents-server-auth-delegator') as any;
    expect(delegator.roleRef.name).toBe('system:auth-delegator');
    const reader = byKind(r, 'RoleBinding').get('test-kevents-server-auth-reader') as any;
    expect(reader.metadata.namespace).toBe('kube-system');
    expect(reader.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'extension-apiserver-authentication-reader',
    });
    const view = byKind(r, 'ClusterRole').get('kevents-view') as any;
    expect(view.metadata.labels['rbac.authorization.k8s.io/aggregate-to-view']).toBe('true');
    expect(view.rules).toEqual([
      { apiGroups: ['events.kevents.io'], resources: ['events'], verbs: ['get', 'list', 'watch'] },
    ]);
    const edit = byKind(r, 'ClusterRole').get('kevents-edit') as any;
    expect(edit.metadata.labels['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');

    const pod = (byKind(r, 'Deployment').get('test-kevents-server') as any).spec.template.spec;
    const args: string[] = pod.containers[0].args;
    expect(args).toEqual(
      expect.arrayContaining([
        '--group-domain=kevents.io',
        '--authentication-kubeconfig=/etc/kevents/config/cluster.kubeconfig',
        '--authorization-kubeconfig=/etc/kevents/config/cluster.kubeconfig',
        // The cluster's namespace, garbage-collector and quota controllers leave kevents' history alone.
        '--discovery-omit-verbs=delete,deletecollection',
      ]),
    );
    const config = byKind(r, 'ConfigMap').get('test-kevents-server-config') as any;
    expect(parse(config.data['cluster.kubeconfig']).clusters[0].cluster.server).toBe('https://kubernetes.default.svc');
    expect(parse(config.data['authentication.yaml']).apiVersion).toBe('apiserver.config.kevents.io/v1beta1');
    // The controller works on events.kevents.io and coordination.kevents.io, granted by the cluster's RBAC.
    const controller = (byKind(r, 'Deployment').get('test-kevents-controller') as any).spec.template.spec;
    expect(controller.containers[0].args).toEqual(
      expect.arrayContaining(['--group-domain=kevents.io', '--mirror-source=local=in-cluster']),
    );
    const grant = byKind(r, 'ClusterRole').get('test-kevents-controller-kevents') as any;
    expect(grant.rules).toEqual([
      { apiGroups: ['events.kevents.io'], resources: ['events'], verbs: ['get', 'list', 'watch', 'update', 'delete'] },
      { apiGroups: ['', 'events.kevents.io'], resources: ['events'], verbs: ['get', 'create', 'update'] },
      { apiGroups: ['coordination.kevents.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
    ]);
    const grantee = byKind(r, 'ClusterRoleBinding').get('test-kevents-controller-kevents') as any;
    expect(grantee.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kevents-controller' },
    ]);
    expect(args).toContain('--client-ca-file=/etc/kevents/client-ca/ca.crt');
    expect(r.notes).toContain('kubectl get events.events.kevents.io -A');
    expect(r.notes).not.toContain('AlwaysAllow');
  });

  it('takes the CA from cert-manager or a given bundle with an existing serving Secret', async () => {
    const r = await renderChart({
      valuesFiles: [values],
      values: {
        server: { tls: { existingSecret: 'my-tls' } },
        aggregation: { enabled: true, certManagerInjectFrom: 'kevents/kevents-serving' },
      },
    });
    const api = byKind(r, 'APIService').get('v1.events.kevents.io') as any;
    expect(api.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('kevents/kevents-serving');
    expect(api.spec.caBundle).toBeUndefined();
    await expect(
      renderChart({ valuesFiles: [values], values: { server: { tls: { existingSecret: 'my-tls' } } } }),
    ).rejects.toThrow('set aggregation.caBundle');
  });

  it('refuses k8s.io', async () => {
    await expect(
      renderChart({ valuesFiles: [values], values: { aggregation: { enabled: true, groupDomain: 'k8s.io' } } }),
    ).rejects.toThrow("collides with the cluster's own events.k8s.io");
  });

  it('gives the controller no --group-domain for k8s.io, and without the controller takes the client CA from the cluster', async () => {
    const plain = await renderChart({});
    const args: string[] = (byKind(plain, 'Deployment').get('test-kevents-controller') as any).spec.template.spec
      .containers[0].args;
    expect(args.some((a) => a.startsWith('--group-domain'))).toBe(false);
    const alone = await renderChart({ valuesFiles: [values], values: { controller: { enabled: false } } });
    const server: string[] = (byKind(alone, 'Deployment').get('test-kevents-server') as any).spec.template.spec
      .containers[0].args;
    expect(server.some((a) => a.startsWith('--client-ca-file'))).toBe(false);
    expect(byKind(alone, 'ClusterRole').has('test-kevents-controller-kevents')).toBe(false);
  });

  it('lists every verb in discovery with aggregation.hideDeleteVerbs false, and without aggregation', async () => {
    const serverArgs = (r: Awaited<ReturnType<typeof renderChart>>): string[] =>
      (byKind(r, 'Deployment').get('test-kevents-server') as any).spec.template.spec.containers[0].args;
    const shown = await renderChart({ valuesFiles: [values], values: { aggregation: { hideDeleteVerbs: false } } });
    expect(serverArgs(shown).some((a) => a.startsWith('--discovery-omit-verbs'))).toBe(false);
    expect(serverArgs(await renderChart({})).some((a) => a.startsWith('--discovery-omit-verbs'))).toBe(false);
  });
});
