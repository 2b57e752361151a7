import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Event } from '@kevents/api';
import { Controller } from '../controller/controller.js';
import { Informer } from '../cache/informer.js';
import { objectKey } from '../cache/indexer.js';
import { ResourceClient } from '../client/resource-client.js';
import { RestClient } from '../client/rest-client.js';
import { TerminalError } from '../reconcile/reconciler.js';
import {
  ApiserverChild,
  eventsResource,
  leasesResource,
  testClients,
  testEvent,
  testKubeConfig,
  waitFor,
} from '../testing/index.js';
import { Manager } from './manager.js';

describe('Manager', () => {
  let api: ApiserverChild;
  beforeAll(async () => {
    api = await ApiserverChild.start('memory');
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('syncs caches, runs controllers once elected, serves /healthz /readyz /metrics, and stops cleanly', async () => {
    const ns = 'mgr';
    const { events, leases } = testClients(api.url);
    for (let i = 0; i < 3; i++) await events.create(testEvent(`pre-${i}`, ns));
    const kc = testKubeConfig(api.url);
    const informer = new Informer<Event>(new ResourceClient<Event>(new RestClient(kc), eventsResource), {
      namespace: ns,
    });
    const seen: string[] = [];
    let failures = 0;
    const controller = new Controller({
      name: 'recorder',
      reconciler: {
        async reconcile(key) {
          if (key.endsWith('/fails')) {
            failures++;
            throw failures < 3 ? new Error('transient') : new TerminalError('give up');
          }
          seen.push(key);
          return {};
        },
      },
      maxConcurrentReconciles: 2,
    });
    informer.addEventHandler({ onAdd: (e) => controller.enqueue(objectKey(e)) });
    const m = new Manager({
      probeAddress: '127.0.0.1:0',
      leaderElection: {
        leases: new ResourceClient(new RestClient(kc), leasesResource),
        namespace: ns,
        name: 'mgr-leader',
        identity: 'only-one',
        leaseDurationMs: 3000,
        renewDeadlineMs: 2000,
        retryPeriodMs: 500,
      },
    });
    m.addInformer(informer);
    m.addController(controller);
    await m.start();
    const base = `http://127.0.0.1:${m.probeAddress()!.port}`;
    try {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/nope`)).status).toBe(404);
      await waitFor(
        () => m.isLeader(),
        10_000,
        () => 'not elected',
      );
      await events.create(testEvent('fails', ns));
      await waitFor(
        () => seen.length === 3 && failures === 3,
        10_000,
        () => `seen ${seen}, failures ${failures}`,
      );
      // 4 events, 2 retries of the failing one; its third failure is terminal (no retry).
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/^workqueue_depth\{name="recorder"\} 0$/m);
      expect(metrics).toMatch(/^workqueue_adds_total\{name="recorder"\} 6$/m);
      expect(metrics).toMatch(/^workqueue_retries_total\{name="recorder"\} 2$/m);
      expect(metrics).toMatch(/^workqueue_queue_duration_seconds_count\{name="recorder"\} 6$/m);
      expect(metrics).toMatch(/^workqueue_work_duration_seconds_count\{name="recorder"\} 6$/m);
      expect(metrics).toMatch(/^controller_runtime_reconcile_total\{controller="recorder",result="success"\} 3$/m);
      expect(metrics).toMatch(/^controller_runtime_reconcile_total\{controller="recorder",result="error"\} 3$/m);
      expect(metrics).toMatch(/^controller_runtime_reconcile_errors_total\{controller="recorder"\} 3$/m);
      expect(metrics).toMatch(/^leader_election_master_status\{name="mgr-leader"\} 1$/m);
      expect((await leases.get(ns, 'mgr-leader')).spec.holderIdentity).toBe('only-one');
    } finally {
      await m.stop();
    }
    expect((await leases.get(ns, 'mgr-leader')).spec.holderIdentity).toBe('');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
