/* eslint-disable @typescript-eslint/no-explicit-any -- rendered YAML is untyped */
import { beforeAll, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { byKind, chartDir, ensureRenderer, renderChart, rendererMissing } from './renderer.js';
import { describeIfTools } from './gate.js';

const ciDir = join(chartDir, 'ci');
const describeRender = describeIfTools(await rendererMissing(), 'chart rendering (SQL stores)');

describeRender('chart rendering (SQL stores)', () => {
  beforeAll(async () => {
    await ensureRenderer();
  }, 180_000);

  const server = (r: Awaited<ReturnType<typeof renderChart>>): any =>
    byKind(r, 'Deployment').get('test-kevents-server')!['spec'];

  it('sqlite: one pod recreated on upgrade, the file on a PersistentVolumeClaim, no Redis', async () => {
    const r = await renderChart({ valuesFiles: [join(ciDir, 'sqlite-values.yaml')] });
    const spec = server(r);
    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({ type: 'Recreate' });
    const c = spec.template.spec.containers[0];
    expect(c.args).toContain('--storage=sqlite:///var/lib/kevents/events.db?historyMaxAgeMs=300000');
    expect(c.volumeMounts).toContainEqual({ name: 'sqlite', mountPath: '/var/lib/kevents' });
    expect(spec.template.spec.volumes).toContainEqual({
      name: 'sqlite',
      persistentVolumeClaim: { claimName: 'test-kevents-server-sqlite' },
    });
    const pvc = byKind(r, 'PersistentVolumeClaim').get('test-kevents-server-sqlite')! as any;
    expect(pvc.spec.resources.requests.storage).toBe('20Gi');
    expect(byKind(r, 'Deployment').has('test-kevents-redis')).toBe(false);
    await expect(
      renderChart({ valuesFiles: [join(ciDir, 'sqlite-values.yaml')], values: { server: { replicas: 2 } } }),
    ).rejects.toThrow(/storage.backend sqlite keeps events in a file one apiserver process owns/);
  });

  it('postgres: the URL from a Secret through the environment, the TLS files, many replicas', async () => {
    const r = await renderChart({ valuesFiles: [join(ciDir, 'postgres-values.yaml')] });
    const spec = server(r);
    expect(spec.replicas).toBe(2);
    const c = spec.template.spec.containers[0];
    expect(c.args).toEqual(
      expect.arrayContaining([
        '--storage=$(KEVENTS_POSTGRES_URL)',
        '--storage-cafile=/etc/kevents/postgres-tls/ca.crt',
      ]),
    );
    expect(c.args).not.toContain('--storage-certfile=/etc/kevents/postgres-tls/tls.crt');
    expect(c.env).toContainEqual({
      name: 'KEVENTS_POSTGRES_URL',
      valueFrom: { secretKeyRef: { name: 'kevents-postgres', key: 'url' } },
    });
    expect(spec.template.spec.volumes).toContainEqual({
      name: 'postgres-tls',
      secret: { secretName: 'kevents-postgres-tls', optional: false },
    });
    expect(byKind(r, 'Deployment').has('test-kevents-redis')).toBe(false);
    await expect(
      renderChart({ values: { storage: { backend: 'postgres' }, redis: { enabled: false } } }),
    ).rejects.toThrow(/set externalPostgres.existingSecret/);
  });
});
