import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as k8s from '@kubernetes/client-node';
import { MemoryStorage } from '@kevents/storage';
import { sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiError, kubeConfigFor } from '../testing/client-node.js';

const clientFor = (url: string): { kc: k8s.KubeConfig; events: k8s.EventsV1Api } => {
  const kc = kubeConfigFor(url);
  return { kc, events: kc.makeApiClient(k8s.EventsV1Api) };
};

const ev = (name: string, namespace: string): k8s.EventsV1Event => {
  const e = sampleEvent(name, namespace) as unknown as k8s.EventsV1Event;
  return { ...e, eventTime: new k8s.V1MicroTime('2026-01-02T03:04:05.123Z') };
};

let srv: TestServer;
let api: k8s.EventsV1Api;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ historyLimit: 5_000 }) });
  ({ kc, events: api } = clientFor(srv.url));
});
afterAll(async () => srv.close());

describe('@kubernetes/client-node EventsV1Api against kevents', () => {
  it('creates, reads, lists, replaces, patches and deletes', async () => {
    const created = await api.createNamespacedEvent({ namespace: 'cn', body: ev('one', 'cn') });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(created.eventTime)).toBe('2026-01-02T03:04:05.123000Z');
    const read = await api.readNamespacedEvent({ name: 'one', namespace: 'cn' });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    expect(read.regarding?.name).toBe('web-0');

    const list = await api.listNamespacedEvent({ namespace: 'cn' });
    expect(list.items.map((e) => e.metadata?.name)).toEqual(['one']);
    const all = await api.listEventForAllNamespaces({});
    expect(all.items.some((e) => e.metadata?.namespace === 'cn')).toBe(true);

    read.metadata!.labels = { replaced: 'true' };
    const replaced = await api.replaceNamespacedEvent({ name: 'one', namespace: 'cn', body: read });
    expect(replaced.metadata?.labels).toEqual({ replaced: 'true' });
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(read.metadata?.resourceVersion));

    const stale = await apiError(api.replaceNamespacedEvent({ name: 'one', namespace: 'cn', body: read }));
    expect(stale.code).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    expect(stale.body.message).toBe(
      'Operation cannot be fulfilled on events.events.k8s.io "one": the object has been modified; please apply your changes to the latest version and try again',
    );

    const merged = await api.patchNamespacedEvent(
      { name: 'one', namespace: 'cn', body: { metadata: { labels: { patched: 'merge' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(merged.metadata?.labels).toEqual({ replaced: 'true', patched: 'merge' });
    const series = await api.patchNamespacedEvent(
      { name: 'one', namespace: 'cn', body: { series: { count: 2, lastObservedTime: '2026-01-02T03:05:00.000001Z' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(series.series?.count).toBe(2);
    const json = await api.patchNamespacedEvent(
      { name: 'one', namespace: 'cn', body: [{ op: 'replace', path: '/series/count', value: 3 }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    expect(json.series?.count).toBe(3);

    const status = await api.deleteNamespacedEvent({ name: 'one', namespace: 'cn' });
    expect(status.status).toBe('Success');
    expect(status.details?.uid).toBe(created.metadata?.uid);
    const gone = await apiError(api.readNamespacedEvent({ name: 'one', namespace: 'cn' }));
    expect(gone.code).toBe(404);
    expect(gone.body.message).toBe('events.events.k8s.io "one" not found');

    await api.createNamespacedEvent({ namespace: 'cn', body: ev('two', 'cn') });
    await api.createNamespacedEvent({ namespace: 'cn', body: ev('three', 'cn') });
    await api.deleteCollectionNamespacedEvent({ namespace: 'cn' });
    expect((await api.listNamespacedEvent({ namespace: 'cn' })).items).toHaveLength(0);
  });

  it('pages through 1,200 events with limit 500 while events are being written', async () => {
    const ns = 'paging';
    for (let i = 0; i < 1200; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, j) =>
          api.createNamespacedEvent({ namespace: ns, body: ev(`e-${String(i + j).padStart(5, '0')}`, ns) }),
        ),
      );
    }
    let writing = true;
    let extra = 0;
    const writer = (async () => {
      while (writing) {
        await api.createNamespacedEvent({ namespace: ns, body: ev(`late-${extra++}`, ns) });
        await api.deleteNamespacedEvent({ name: `e-${String(extra).padStart(5, '0')}`, namespace: ns });
      }
    })();
    const names: string[] = [];
    const rvs = new Set<string>();
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await api.listNamespacedEvent({ namespace: ns, limit: 500, _continue: cont });
      pages++;
      rvs.add(page.metadata!.resourceVersion!);
      names.push(...page.items.map((e) => e.metadata!.name!));
      cont = page.metadata?._continue;
      if (cont) expect(page.metadata?.remainingItemCount).toBe(1200 - names.length);
      await new Promise((r) => setTimeout(r, 20));
    } while (cont);
    writing = false;
    await writer;
    expect(extra).toBeGreaterThan(0);
    expect(pages).toBe(3);
    expect(rvs.size).toBe(1);
    expect(names).toHaveLength(1200);
    expect(names).toEqual([...names].sort());
    expect(names.every((n) => n.startsWith('e-'))).toBe(true);
  });

  it('Watch resumes from a resourceVersion and sees every change in order', async () => {
    const ns = 'watching';
    const first = await api.createNamespacedEvent({ namespace: ns, body: ev('w1', ns) });
    const since = first.metadata!.resourceVersion!;
    await api.createNamespacedEvent({ namespace: ns, body: ev('w2', ns) });
    await api.patchNamespacedEvent(
      { name: 'w2', namespace: ns, body: { metadata: { labels: { x: 'y' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await api.deleteNamespacedEvent({ name: 'w1', namespace: ns });
    const seen: string[] = [];
    const watch = new k8s.Watch(kc);
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const ctrl = await watch.watch(
      `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
      { resourceVersion: since },
      (phase, obj: k8s.EventsV1Event) => {
        seen.push(`${phase} ${obj.metadata?.name} ${obj.metadata?.resourceVersion}`);
        if (seen.length === 4) done();
      },
      () => done(),
    );
    await api.createNamespacedEvent({ namespace: ns, body: ev('w3', ns) });
    await finished;
    ctrl.abort();
    const rv = Number(since);
    expect(seen).toEqual([`ADDED w2 ${rv + 1}`, `MODIFIED w2 ${rv + 2}`, `DELETED w1 ${rv + 3}`, `ADDED w3 ${rv + 4}`]);
  });

  it('delivers 410 Expired in the stream for a resourceVersion older than the history', async () => {
    const small = await startTestServer({ storage: new MemoryStorage({ historyLimit: 10 }) });
    try {
      const c = clientFor(small.url);
      const firstEv = await c.events.createNamespacedEvent({ namespace: 'old', body: ev('o-0', 'old') });
      for (let i = 1; i < 30; i++)
        await c.events.createNamespacedEvent({ namespace: 'old', body: ev(`o-${i}`, 'old') });
      const events: { phase: string; obj: k8s.V1Status }[] = [];
      await new Promise<void>((resolve, reject) => {
        new k8s.Watch(c.kc)
          .watch(
            '/apis/events.k8s.io/v1/namespaces/old/events',
            { resourceVersion: firstEv.metadata!.resourceVersion! },
            (phase, obj) => {
              events.push({ phase, obj });
            },
            () => resolve(),
          )
          .catch(reject);
      });
      expect(events).toHaveLength(1);
      expect(events[0]!.phase).toBe('ERROR');
      expect(events[0]!.obj.code).toBe(410);
      expect(events[0]!.obj.reason).toBe('Expired');
      expect(events[0]!.obj.message).toMatch(
        new RegExp(`^too old resource version: ${firstEv.metadata!.resourceVersion!} \\(\\d+\\)$`),
      );
    } finally {
      await small.close();
    }
  });
});
