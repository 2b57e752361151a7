/* eslint-disable @typescript-eslint/no-explicit-any -- rendered YAML is untyped */
import { beforeAll, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { byKind, chartDir, ensureRenderer, renderChart, rendererMissing, type Rendered } from './renderer.js';
import { describeIfTools } from './gate.js';

const ciDir = join(chartDir, 'ci');
const badDir = join(import.meta.dirname, 'testdata', 'bad');
const examples = readdirSync(ciDir)
  .filter((f) => f.endsWith('-values.yaml'))
  .sort();
const bad = readdirSync(badDir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

/** The cluster's root CA as `lookup` finds it during `helm install` (kube-root-ca.crt in every namespace). */
const rootCA = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'kube-root-ca.crt', namespace: 'kevents' },
  data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\nMIIB-cluster-root\n-----END CERTIFICATE-----\n' },
};
const lookup = [rootCA];

const describeRender = describeIfTools(await rendererMissing(), 'chart rendering');

describeRender('chart rendering', () => {
  beforeAll(async () => {
    const t0 = Date.now();
    await ensureRenderer();
    console.log(`chart renderer ready in ${Date.now() - t0} ms`);
  }, 180_000);

  it.each(['(defaults)', ...examples])('%s: passes the schema and renders parseable objects', async (file) => {
    const r = await renderChart({ valuesFiles: file === '(defaults)' ? [] : [join(ciDir, file)], lookup });
    expect(r.documents.length).toBeGreaterThan(3);
    for (const { source, object } of r.documents) {
      expect({ source, apiVersion: typeof object.apiVersion, kind: typeof object.kind }).toEqual({
        source,
        apiVersion: 'string',
        kind: 'string',
      });
      expect(typeof object.metadata?.['name']).toBe('string');
      expect((object.metadata?.['name'] as string).length).toBeLessThanOrEqual(63);
    }
    const names = r.documents.map((d) => `${d.object.kind}/${d.object.metadata!['name']}`);
    expect(new Set(names).size).toBe(names.length);
    expect(r.notes).toContain('kubectl');
    for (const d of byKind(r, 'Deployment').values()) {
      const pod = (d['spec'] as any).template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      for (const c of pod.containers) {
        expect(c.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          runAsNonRoot: true,
          capabilities: { drop: ['ALL'] },
        });
        for (const m of c.volumeMounts ?? []) expect(pod.volumes.map((v: any) => v.name)).toContain(m.name);
      }
    }
  });

  it.each(bad)('rejects %s with its message', async (file) => {
    const text = readFileSync(join(badDir, file), 'utf8');
    const expected = /^# expect: (.*)$/m.exec(text)![1]!;
    await expect(renderChart({ valuesFiles: [join(badDir, file)] })).rejects.toThrow(expected);
  });

  it('defaults: two apiservers on the bundled Redis, PDB, probes on /livez and /readyz, images from appVersion', async () => {
    const r = await renderChart();
    const { parse } = await import('yaml');
    const appVersion = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')).appVersion;
    const server = byKind(r, 'Deployment').get('test-kevents-server')!;
    const pod = (server['spec'] as any).template.spec;
    const c = pod.containers[0];
    expect((server['spec'] as any).replicas).toBe(2);
    expect(c.image).toBe(`kevents-apiserver:${appVersion}`);
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'https', scheme: 'HTTPS' });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'https', scheme: 'HTTPS' });
    expect(c.args).toContain('--storage=redis://:$(KEVENTS_REDIS_PASSWORD)@test-kevents-redis:6379?prefix=kevents');
    expect(c.env[0]).toEqual({
      name: 'KEVENTS_REDIS_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'test-kevents-redis', key: 'redis-password' } },
    });
    expect(byKind(r, 'PodDisruptionBudget').get('test-kevents-server')).toMatchObject({
      apiVersion: 'policy/v1',
      spec: { maxUnavailable: 1 },
    });
    const redis = (byKind(r, 'Deployment').get('test-kevents-redis')!['spec'] as any).template.spec.containers[0];
    expect(redis.image).toBe('docker.io/library/redis:7.0.15-bookworm');
    expect(redis.args.join(' ')).toContain('--appendonly yes');
    const controller = (byKind(r, 'Deployment').get('test-kevents-controller')!['spec'] as any).template.spec;
    expect(controller.containers[0].image).toBe(`kevents-controller:${appVersion}`);
    expect(controller.containers[0].args).toContain('--leader-elect=true');
    expect(controller.automountServiceAccountToken).toBe(false);
    expect(byKind(r, 'ServiceMonitor').size).toBe(0);
    expect(byKind(r, 'ClusterRole').size).toBe(0);
  });

  it('registry and tag: global registry, per-image override', async () => {
    const r = await renderChart({
      values: { global: { image: { registry: 'ghcr.io/acme' } }, controller: { image: { tag: '9.9.9' } } },
    });
    const image = (n: string) => (byKind(r, 'Deployment').get(n)!['spec'] as any).template.spec.containers[0].image;
    expect(image('test-kevents-server')).toBe('ghcr.io/acme/kevents-apiserver:0.1.0');
    expect(image('test-kevents-controller')).toBe('ghcr.io/acme/kevents-controller:9.9.9');
    expect(image('test-kevents-redis')).toBe('docker.io/library/redis:7.0.15-bookworm');
  });

  it('external Redis: TLS URL, password from the existing Secret, CA and client certificate files', async () => {
    const r = await renderChart({ valuesFiles: [join(ciDir, 'external-redis-values.yaml')] });
    const c = (byKind(r, 'Deployment').get('test-kevents-server')!['spec'] as any).template.spec.containers[0];
    expect(c.args).toEqual(
      expect.arrayContaining([
        '--storage=rediss://kevents:$(KEVENTS_REDIS_PASSWORD)@redis.example.internal:6380/0?commandTimeoutMs=3000&prefix=prod-events',
        '--storage-cafile=/etc/kevents/redis-tls/ca.crt',
        '--storage-certfile=/etc/kevents/redis-tls/tls.crt',
        '--storage-keyfile=/etc/kevents/redis-tls/tls.key',
      ]),
    );
    expect(c.env[0].valueFrom.secretKeyRef).toEqual({ name: 'kevents-redis', key: 'redis-password' });
    expect(byKind(r, 'Deployment').has('test-kevents-redis')).toBe(false);
    const s = await renderChart({ valuesFiles: [join(ciDir, 'external-redis-sentinel-values.yaml')] });
    const sc = (byKind(s, 'Deployment').get('test-kevents-server')!['spec'] as any).template.spec.containers[0];
    expect(sc.args).toContain(
      '--storage=redis+sentinel://:$(KEVENTS_REDIS_PASSWORD)@sentinel-0.redis:26379,sentinel-1.redis:26379,sentinel-2.redis:26379/mymaster/0?prefix=kevents&sentinelPassword=$(KEVENTS_REDIS_SENTINEL_PASSWORD)',
    );
  });

  it('an inline external password is kept percent-encoded in a chart Secret', async () => {
    const r = await renderChart({
      values: { redis: { enabled: false }, externalRedis: { host: 'r', password: 'p@ss w+rd/' } },
    });
    const secret = byKind(r, 'Secret').get('test-kevents-external-redis')!;
    const data = (secret['data'] as Record<string, string>)['redis-password']!;
    expect(Buffer.from(data, 'base64').toString()).toBe(encodeURIComponent('p@ss w+rd/'));
  });

  it('RBAC delegation: SubjectAccessReview webhook, auth-delegator binding, ServiceAccount JWT with the cluster CA', async () => {
    const file = join(ciDir, 'rbac-delegation-values.yaml');
    await expect(renderChart({ valuesFiles: [file] })).rejects.toThrow('set certificateAuthority');
    const r = await renderChart({ valuesFiles: [file], lookup });
    const { parse } = await import('yaml');
    const data = (byKind(r, 'ConfigMap').get('test-kevents-server-config')!['data'] as Record<string, string>)!;
    const authz = parse(data['authorization.yaml']!);
    expect(authz.authorizers[0]).toMatchObject({
      type: 'Webhook',
      webhook: { subjectAccessReviewVersion: 'v1', connectionInfo: { type: 'KubeConfigFile' } },
    });
    const kubeconfig = parse(data['cluster-rbac.kubeconfig']!);
    expect(kubeconfig.clusters[0].cluster.server).toBe(
      'https://kubernetes.default.svc/apis/authorization.k8s.io/v1/subjectaccessreviews',
    );
    expect(kubeconfig.users[0].user.tokenFile).toBe('/var/run/secrets/kubernetes.io/serviceaccount/token');
    const authn = parse(data['authentication.yaml']!);
    expect(authn.anonymous.conditions).toEqual([{ path: '/livez' }, { path: '/readyz' }, { path: '/healthz' }]);
    expect(authn.jwt[0].issuer).toEqual({
      url: 'https://kubernetes.default.svc.cluster.local',
      audiences: ['kevents'],
      certificateAuthority: rootCA.data['ca.crt'],
    });
    expect(byKind(r, 'ClusterRoleBinding').get('test-kevents-server-auth-delegator')).toMatchObject({
      roleRef: { name: 'system:auth-delegator' },
      subjects: [{ kind: 'ServiceAccount', name: 'test-kevents-server', namespace: 'kevents' }],
    });
    expect(byKind(r, 'ClusterRoleBinding').get('test-kevents-controller-kevents')).toMatchObject({
      subjects: [{ kind: 'ServiceAccount', name: 'test-kevents-controller' }],
    });
    const server = (byKind(r, 'Deployment').get('test-kevents-server')!['spec'] as any).template.spec;
    expect(server.containers[0].args).toEqual(
      expect.arrayContaining([
        '--authentication-config=/etc/kevents/config/authentication.yaml',
        '--authorization-config=/etc/kevents/config/authorization.yaml',
      ]),
    );
    expect(server.containers[0].args.join(' ')).not.toContain('--anonymous-auth');
    expect(server.containers[0].args.join(' ')).not.toContain('--authorization-mode');
    const controller = (byKind(r, 'Deployment').get('test-kevents-controller')!['spec'] as any).template.spec;
    expect(controller.volumes.find((v: any) => v.name === 'token').projected.sources[0]).toEqual({
      serviceAccountToken: { path: 'token', audience: 'kevents', expirationSeconds: 3600 },
    });
    const ckube = parse((byKind(r, 'ConfigMap').get('test-kevents-controller-config')!['data'] as any).kubeconfig);
    expect(ckube.users[0].user['auth-provider'].config.tokenFile).toBe('/var/run/secrets/kevents/token');
  });

  it('controller on the host cluster: ClusterRole for events, Role for its lease, in-cluster credentials', async () => {
    const r = await renderChart({ valuesFiles: [join(ciDir, 'controller-on-cluster-values.yaml')] });
    expect((byKind(r, 'ClusterRole').get('test-kevents-controller')!['rules'] as any)[0]).toEqual({
      apiGroups: ['events.k8s.io'],
      resources: ['events'],
      verbs: ['get', 'list', 'watch', 'update', 'delete'],
    });
    expect((byKind(r, 'Role').get('test-kevents-controller-leader-election')!['rules'] as any)[0]).toEqual({
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      verbs: ['get', 'create', 'update'],
    });
    const pod = (byKind(r, 'Deployment').get('test-kevents-controller')!['spec'] as any).template.spec;
    expect(pod.automountServiceAccountToken).toBe(true);
    expect(pod.containers[0].args.join(' ')).not.toContain('--kubeconfig');
    expect(pod.containers[0].args).toContain('--retention-config=/etc/kevents/config/retention.yaml');
  });

  it('checksum annotations change with the config they cover, and only then', async () => {
    const checksums = async (values: Record<string, unknown>) => {
      const r = await renderChart({ values });
      const ann = (n: string) => (byKind(r, 'Deployment').get(n)!['spec'] as any).template.metadata.annotations;
      return { server: ann('test-kevents-server'), controller: ann('test-kevents-controller') };
    };
    const tracing = (rate: number) => ({
      server: {
        tracing: {
          config: {
            apiVersion: 'apiserver.config.k8s.io/v1beta1',
            kind: 'TracingConfiguration',
            samplingRatePerMillion: rate,
          },
        },
      },
    });
    const a = await checksums(tracing(1));
    const b = await checksums(tracing(1));
    const c = await checksums(tracing(2));
    expect(a.server['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
    expect(b.server['checksum/config']).toBe(a.server['checksum/config']);
    expect(c.server['checksum/config']).not.toBe(a.server['checksum/config']);
    const files = async (token: string) =>
      (await checksums({ server: { secretFiles: { 'hook.kubeconfig': `token: ${token}` } } })).server[
        'checksum/secret-files'
      ];
    expect(await files('a')).toBe(await files('a'));
    expect(await files('a')).not.toBe(await files('b'));
    const retention = (ttl: string) => ({
      controller: {
        retentionConfig: {
          apiVersion: 'controller.config.kevents.io/v1alpha1',
          kind: 'EventRetentionConfiguration',
          rules: [{ match: { types: ['Warning'] }, ttl }],
        },
      },
    });
    const r1 = await checksums(retention('1h'));
    expect((await checksums(retention('1h'))).controller['checksum/config']).toBe(r1.controller['checksum/config']);
    expect((await checksums(retention('2h'))).controller['checksum/config']).not.toBe(r1.controller['checksum/config']);
  });

  it('ServiceMonitors render only where monitoring.coreos.com/v1 is served', async () => {
    const file = [join(ciDir, 'persistence-metrics-values.yaml')];
    const without = await renderChart({ valuesFiles: file });
    expect(byKind(without, 'ServiceMonitor').size).toBe(0);
    const withCRD = await renderChart({ valuesFiles: file, apiVersions: ['monitoring.coreos.com/v1'] });
    expect([...byKind(withCRD, 'ServiceMonitor').keys()].sort()).toEqual([
      'test-kevents-controller',
      'test-kevents-server',
    ]);
    const off = await renderChart({ apiVersions: ['monitoring.coreos.com/v1'] });
    expect(byKind(off, 'ServiceMonitor').size).toBe(0);
    expect(byKind(withCRD, 'PersistentVolumeClaim').get('test-kevents-redis')).toMatchObject({
      spec: { resources: { requests: { storage: '2Gi' } } },
    });
  });

  it('the generated serving certificate names the Service and the chart CA signs it', async () => {
    const { X509Certificate } = await import('node:crypto');
    const r: Rendered = await renderChart();
    const secret = (n: string) => byKind(r, 'Secret').get(n)!['data'] as Record<string, string>;
    const pem = (s: string) => Buffer.from(s, 'base64').toString();
    const serving = new X509Certificate(pem(secret('test-kevents-server-tls')['tls.crt']!));
    const ca = new X509Certificate(pem(secret('test-kevents-ca')['tls.crt']!));
    expect(serving.checkIssued(ca)).toBe(true);
    expect(serving.subjectAltName).toContain('DNS:test-kevents-server.kevents.svc.cluster.local');
    expect(serving.subjectAltName).toContain('IP Address:127.0.0.1');
    const client = new X509Certificate(pem(secret('test-kevents-controller-client')['tls.crt']!));
    expect(client.subject).toContain('CN=system:kevents-controller');
    expect(client.checkIssued(ca)).toBe(true);
    expect(pem(secret('test-kevents-server-client-ca')['ca.crt']!)).toBe(ca.toString());
  });
});
