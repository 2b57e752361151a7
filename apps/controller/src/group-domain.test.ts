import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoreEvent, type Event, type Lease } from '@kevents/api';
import { ResourceClient, RestClient, isNotFound } from '@kevents/controller-runtime';
import { ApiserverChild, testEvent, testKubeConfig, waitFor, type ChildRun } from '@kevents/controller-runtime/testing';
import { startController } from './testing/controller-child.js';
import { eventClients, kubeconfigFile, kubeletEvent } from './testing/mirror-helpers.js';
import { clusterLabel } from './mirror/mirror-object.js';

/**
 * kevents-controller --group-domain against a kevents-apiserver serving another group domain (as
 * under aggregation, `--group-domain=kevents.io`): every controller reads and writes
 * events.kevents.io, the lease is taken in coordination.kevents.io, and the mirror still reads its
 * source cluster through events.k8s.io.
 */
describe('kevents-controller --group-domain=kevents.io', () => {
  const domain = 'kevents.io';
  let kevents: ApiserverChild;
  let source: ApiserverChild;
  let controller: ChildRun | undefined;
  let events: ResourceClient<Event>;
  let leases: ResourceClient<Lease>;
  const event = (name: string, namespace: string, extra: Partial<Event> = {}): Event => ({
    ...testEvent(name, namespace, extra),
    apiVersion: `events.${domain}/v1`,
  });

  beforeAll(async () => {
    [kevents, source] = await Promise.all([
      ApiserverChild.start('memory', [`--group-domain=${domain}`]),
      ApiserverChild.start('memory'),
    ]);
    const rest = new RestClient(testKubeConfig(kevents.url));
    events = new ResourceClient<Event>(rest, {
      group: `events.${domain}`,
      version: 'v1',
      resource: 'events',
      namespaced: true,
    });
    leases = new ResourceClient<Lease>(rest, {
      group: `coordination.${domain}`,
      version: 'v1',
      resource: 'leases',
      namespaced: true,
    });
  }, 60_000);

  afterAll(async () => {
    await controller?.kill();
    await kevents?.stop();
    await source?.stop();
  });

  it('leads, folds, expires and mirrors through events.kevents.io and coordination.kevents.io', async () => {
    const src = eventClients(source.url);
    await src.events.create(testEvent('modern', 'shop'));
    await src.core.create(kubeletEvent('pulled', 'shop') as CoreEvent);
    await events.create(event('old', 'expired'));
    const retention = join(mkdtempSync(join(tmpdir(), 'kevents-group-domain-')), 'retention.yaml');
    writeFileSync(
      retention,
      `apiVersion: controller.config.kevents.io/v1alpha1
kind: EventRetentionConfiguration
rules: [{name: short, match: {namespaces: [expired]}, ttl: 2s}]
`,
    );

    controller = await startController(kevents.url, [
      `--group-domain=${domain}`,
      '--controllers=series,retention',
      `--retention-config=${retention}`,
      '--leader-elect=true',
      '--leader-election-namespace=kube-system',
      '--leader-elect-lease-duration=4s',
      '--leader-elect-renew-deadline=3s',
      '--leader-elect-retry-period=1s',
      `--mirror-source=src=${kubeconfigFile(source.url)}`,
    ]);
    expect(controller.output).toContain('events.events.kevents.io in all namespaces');

    const lease = await leases.get('kube-system', 'kevents-controller');
    expect(lease.apiVersion).toBe(`coordination.${domain}/v1`);
    expect(lease.spec?.holderIdentity).toBeTruthy();

    for (let i = 0; i < 3; i++) await events.create(event(`burst-${i}`, 'burst'));
    await waitFor(
      async () => {
        const l = await events.list({ namespace: 'burst' });
        return l.items.length === 1 && l.items[0]!.series?.count === 3;
      },
      30_000,
      () => 'the three events were not folded into one series',
    );

    await waitFor(
      async () =>
        events.get('expired', 'old').then(
          () => false,
          (err) => isNotFound(err),
        ),
      30_000,
      () => 'the expired event was not deleted',
    );

    await waitFor(
      async () => (await events.list({ namespace: 'shop', labelSelector: `${clusterLabel}=src` })).items.length === 2,
      30_000,
      () => 'the source events were not mirrored',
    );
    const copies = (await events.list({ namespace: 'shop' })).items.map((e) => e.metadata.name).sort();
    expect(copies).toEqual(['modern', 'pulled']);
  }, 120_000);
});
