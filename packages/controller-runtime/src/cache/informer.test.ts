import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Event } from '@kevents/api';
import { ResourceClient } from '../client/resource-client.js';
import { RestClient } from '../client/rest-client.js';
import {
  ApiserverChild,
  RedisChild,
  TcpProxy,
  eventsResource,
  haveRedisServer,
  testClients,
  testEvent,
  testKubeConfig,
  waitFor,
} from '../testing/index.js';
import { Informer } from './informer.js';

/** An informer over one namespace whose handlers keep a name -> resourceVersion mirror and a log. */
function mirrored(server: string, namespace: string, pageSize?: number) {
  const informer = new Informer<Event>(
    new ResourceClient<Event>(new RestClient(testKubeConfig(server)), eventsResource),
    {
      namespace,
      pageSize,
    },
  );
  const mirror = new Map<string, string>();
  const log: string[] = [];
  informer.addEventHandler({
    onAdd: (o) => {
      log.push(`add ${o.metadata.name}`);
      mirror.set(o.metadata.name!, o.metadata.resourceVersion!);
    },
    onUpdate: (_old, o) => {
      log.push(`update ${o.metadata.name}`);
      mirror.set(o.metadata.name!, o.metadata.resourceVersion!);
    },
    onDelete: (o) => {
      log.push(`delete ${o.metadata.name}`);
      mirror.delete(o.metadata.name!);
    },
  });
  return { informer, mirror, log };
}

async function serverState(url: string, namespace: string): Promise<Map<string, string>> {
  const { events } = testClients(url);
  const l = await events.list({ namespace });
  return new Map(l.items.map((e) => [e.metadata.name!, e.metadata.resourceVersion!]));
}

async function converged(url: string, namespace: string, mirror: Map<string, string>): Promise<void> {
  let want = new Map<string, string>();
  await waitFor(
    async () => {
      want = await serverState(url, namespace);
      return JSON.stringify([...want].sort()) === JSON.stringify([...mirror].sort());
    },
    20_000,
    () => `mirror ${JSON.stringify([...mirror].sort())} != server ${JSON.stringify([...want].sort())}`,
  );
}

describe('Informer against a running kevents apiserver', () => {
  let api: ApiserverChild;
  beforeAll(async () => {
    api = await ApiserverChild.start('memory', ['--watch-history=20']);
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('lists in pages, then delivers adds, updates and deletes from the watch', async () => {
    const ns = 'paged';
    const { events } = testClients(api.url);
    for (let i = 0; i < 17; i++) await events.create(testEvent(`pre-${i}`, ns));
    const { informer, mirror, log } = mirrored(api.url, ns, 5);
    informer.start();
    await informer.waitForSync();
    expect(mirror.size).toBe(17);
    const e = await events.create(testEvent('live', ns));
    await events.update({ ...e, series: { count: 2, lastObservedTime: e.eventTime! } });
    await events.delete(ns, 'pre-3');
    await converged(api.url, ns, mirror);
    await waitFor(
      () => log.includes('delete pre-3'),
      5000,
      () => log.join('\n'),
    );
    expect(log.filter((l) => l === 'add live')).toHaveLength(1);
    expect(log).toContain('update live');
    expect(informer.stats.lists).toBe(1);
    await informer.stop();
  });

  it('re-delivers every cached object to onUpdate on a periodic resync, and keeps an index', async () => {
    const ns = 'resync';
    const { events } = testClients(api.url);
    await events.create(testEvent('r-0', ns, { reason: 'A' }));
    await events.create(testEvent('r-1', ns, { reason: 'B' }));
    await events.create(testEvent('r-2', ns, { reason: 'A' }));
    const informer = new Informer<Event>(
      new ResourceClient<Event>(new RestClient(testKubeConfig(api.url)), eventsResource),
      {
        namespace: ns,
        resyncPeriodMs: 100,
      },
    );
    informer.indexer.addIndex('reason', (e) => [e.reason ?? '']);
    const resynced = new Map<string, number>();
    informer.addEventHandler({
      onUpdate: (o, n) => {
        if (o === n) resynced.set(n.metadata.name!, (resynced.get(n.metadata.name!) ?? 0) + 1);
      },
    });
    informer.start();
    await informer.waitForSync();
    expect(
      informer.indexer
        .byIndex('reason', 'A')
        .map((e) => e.metadata.name)
        .sort(),
    ).toEqual(['r-0', 'r-2']);
    await waitFor(
      () => ['r-0', 'r-1', 'r-2'].every((n) => (resynced.get(n) ?? 0) >= 2),
      10_000,
      () => JSON.stringify([...resynced]),
    );
    await events.delete(ns, 'r-2');
    await waitFor(
      () => informer.indexer.byIndex('reason', 'A').length === 1,
      10_000,
      () => 'index not updated',
    );
    await informer.stop();
  });

  it('relists after 410 Expired and delivers the missed deletes exactly once', async () => {
    const ns = 'expired';
    const { events } = testClients(api.url);
    for (let i = 0; i < 10; i++) await events.create(testEvent(`keep-${i}`, ns));
    const proxy = await TcpProxy.start(api.port);
    const { informer, mirror, log } = mirrored(proxy.url, ns);
    informer.start();
    await informer.waitForSync();
    proxy.cut();
    // More changes than the server's 20-entry history, while the informer cannot see them.
    for (let i = 0; i < 5; i++) await events.delete(ns, `keep-${i}`);
    const k9 = await events.get(ns, 'keep-9');
    await events.update({ ...k9, series: { count: 2, lastObservedTime: k9.eventTime! } });
    for (let i = 0; i < 30; i++) await events.create(testEvent(`new-${i}`, ns));
    for (let i = 0; i < 10; i++) await events.delete(ns, `new-${i}`);
    proxy.restore();
    await waitFor(
      () => informer.stats.lists === 2,
      20_000,
      () => `no relist: ${JSON.stringify(informer.stats)}`,
    );
    await converged(api.url, ns, mirror);
    for (let i = 0; i < 5; i++) expect(log.filter((l) => l === `delete keep-${i}`)).toHaveLength(1);
    expect(log.filter((l) => l === 'update keep-9')).toHaveLength(1);
    // Created and deleted while cut: never seen, never reported.
    expect(log.some((l) => l.endsWith(' new-0'))).toBe(false);
    for (let i = 10; i < 30; i++) expect(log.filter((l) => l === `add new-${i}`)).toHaveLength(1);
    expect(informer.stats.relistDeletes).toBe(5);
    await informer.stop();
    await proxy.close();
  });

  it('relists when a restarted memory-store apiserver has forgotten everything', async () => {
    const ns = 'wiped';
    const own = await ApiserverChild.start('memory');
    const { events } = testClients(own.url);
    for (let i = 0; i < 8; i++) await events.create(testEvent(`before-${i}`, ns));
    const { informer, mirror, log } = mirrored(own.url, ns);
    informer.start();
    await informer.waitForSync();
    const again = await own.restart();
    await waitFor(
      () => informer.stats.lists === 2,
      30_000,
      () => `no relist: ${JSON.stringify(informer.stats)}`,
    );
    for (let i = 0; i < 3; i++) await testClients(again.url).events.create(testEvent(`after-${i}`, ns));
    await converged(again.url, ns, mirror);
    for (let i = 0; i < 8; i++) expect(log.filter((l) => l === `delete before-${i}`)).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect(log.filter((l) => l === `add after-${i}`)).toHaveLength(1);
    await informer.stop();
    await again.stop();
  });

  (haveRedisServer() ? it : it.skip)(
    'resumes its watch, without a relist, when an apiserver on Redis restarts',
    async () => {
      const ns = 'resumed';
      const redis = await RedisChild.start();
      const own = await ApiserverChild.start(redis.url);
      const { events } = testClients(own.url);
      for (let i = 0; i < 8; i++) await events.create(testEvent(`before-${i}`, ns));
      const { informer, mirror, log } = mirrored(own.url, ns);
      informer.start();
      await informer.waitForSync();
      const again = await own.restart();
      const c = testClients(again.url).events;
      await c.delete(ns, 'before-0');
      for (let i = 0; i < 3; i++) await c.create(testEvent(`after-${i}`, ns));
      await converged(again.url, ns, mirror);
      expect(informer.stats.lists).toBe(1);
      expect(informer.stats.resumes).toBeGreaterThanOrEqual(1);
      expect(log.filter((l) => l === 'delete before-0')).toHaveLength(1);
      for (let i = 0; i < 3; i++) expect(log.filter((l) => l === `add after-${i}`)).toHaveLength(1);
      await informer.stop();
      await again.stop();
      await redis.stop();
    },
  );
});

describe('informer: a paged list whose snapshot expires', () => {
  let api: ApiserverChild;
  beforeAll(async () => {
    api = await ApiserverChild.start('memory', ['--watch-history=20']);
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('lists everything in one answer instead (client-go pager FullListIfExpired), with initial adds flagged', async () => {
    const { events } = testClients(api.url);
    for (let i = 0; i < 10; i++) await events.create(testEvent(`p-${i}`, 'pager'));
    // Before the second page, more changes than the server keeps: the continue token expires.
    class Busy extends ResourceClient<Event> {
      calls = 0;
      override async list(opts: Parameters<ResourceClient<Event>['list']>[0] = {}) {
        if (this.calls++ === 1) for (let i = 0; i < 30; i++) await events.create(testEvent(`churn-${i}`, 'other'));
        return super.list(opts);
      }
    }
    const client = new Busy(new RestClient(testKubeConfig(api.url)), eventsResource);
    const errors: unknown[] = [];
    const informer = new Informer<Event>(client, {
      namespace: 'pager',
      pageSize: 4,
      onError: (e) => errors.push(e),
    });
    const initial: boolean[] = [];
    informer.addEventHandler({ onAdd: (_o, isInInitialList) => initial.push(isInInitialList) });
    informer.start();
    try {
      await informer.waitForSync();
      expect(informer.indexer.size).toBe(10);
      expect(informer.stats.lists).toBe(1);
      expect(String((errors[0] as Error).message)).toMatch(/^410 /);
      expect(client.calls).toBe(3); // page 1, the expired page 2, one unpaged list
      expect(initial).toEqual(new Array(10).fill(true));
      await events.create(testEvent('later', 'pager'));
      await waitFor(
        () => initial.length === 11,
        20_000,
        () => `adds: ${initial.length}`,
      );
      expect(initial[10]).toBe(false);
    } finally {
      await informer.stop();
    }
  });
});
