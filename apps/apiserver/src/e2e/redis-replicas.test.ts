import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import * as k8s from '@kubernetes/client-node';
import { RedisServer, waitFor } from '@kevents/storage-redis/testing';
import { ApiserverProcess } from '../testing/apiserver-process.js';
import { kubeConfig, MiniInformer, sampleEvent } from '../testing/e2e-informer.js';

/**
 * Two kevents-apiserver processes (the built dist) on one Redis: watches on one see the other's
 * writes in order; concurrent writers never share a resourceVersion; Redis crashes and comes back.
 */
let redis: RedisServer;
const servers: ApiserverProcess[] = [];
const start = async (prefix: string): Promise<ApiserverProcess> => {
  const a = await ApiserverProcess.start(`${redis.url}?prefix=${prefix}`);
  servers.push(a);
  return a;
};

beforeAll(async () => {
  redis = await RedisServer.start({ appendOnly: true });
}, 30_000);
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await redis?.stop();
});

const apiOf = (a: ApiserverProcess): k8s.EventsV1Api => kubeConfig(a.url).makeApiClient(k8s.EventsV1Api);

describe('two apiserver processes on one Redis', () => {
  it('a client-node watch on A sees creates, updates and deletes made through B, in order, with no gap', async () => {
    const [a, b] = await Promise.all([start('mp'), start('mp')]);
    const apiB = apiOf(b);
    const seen: { type: string; name: string; rv: number }[] = [];
    const expected: { type: string; name: string; rv: number }[] = [];
    const w = new k8s.Watch(kubeConfig(a.url));
    const start0 = (await apiOf(a).listNamespacedEvent({ namespace: 'mp' })).metadata!.resourceVersion!;
    const ctrl = await w.watch(
      '/apis/events.k8s.io/v1/namespaces/mp/events',
      { resourceVersion: start0 },
      (type: string, obj: k8s.EventsV1Event) => {
        seen.push({ type, name: obj.metadata!.name!, rv: Number(obj.metadata!.resourceVersion) });
      },
      () => undefined,
    );
    for (let i = 0; i < 15; i++) {
      const c = await apiB.createNamespacedEvent({ namespace: 'mp', body: sampleEvent(`e${i}`, 'mp') });
      expected.push({ type: 'ADDED', name: `e${i}`, rv: Number(c.metadata!.resourceVersion) });
      if (i % 3 === 1) {
        const u = await apiB.replaceNamespacedEvent({
          name: `e${i}`,
          namespace: 'mp',
          body: { ...c, metadata: { ...c.metadata, labels: { updated: 'yes' } } },
        });
        expected.push({ type: 'MODIFIED', name: `e${i}`, rv: Number(u.metadata!.resourceVersion) });
      }
      if (i % 5 === 2) {
        const d = await apiB.deleteNamespacedEvent({ name: `e${i}`, namespace: 'mp' });
        const rv = Number((d as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? 0);
        expected.push({ type: 'DELETED', name: `e${i}`, rv });
      }
    }
    await waitFor(
      () => seen.length >= expected.length,
      10_000,
      () => `watch saw ${seen.length} of ${expected.length}`,
    );
    ctrl.abort();
    expect(seen.map((e) => `${e.type} ${e.name}`)).toEqual(expected.map((e) => `${e.type} ${e.name}`));
    const rvs = seen.map((e) => e.rv);
    for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBe(rvs[i - 1] + 1); // one writer: dense, no gap
    expect(rvs[0]).toBe(Number(start0) + 1);
    for (const e of expected)
      if (e.rv > 0) expect(seen.find((s) => s.type === e.type && s.name === e.name)?.rv).toBe(e.rv);
    const ready = await fetch(`${a.url}/readyz?verbose`);
    expect(ready.status).toBe(200);
  }, 60_000);

  it('never lets two processes both succeed on the same resourceVersion', async () => {
    const [a, b] = await Promise.all([start('race'), start('race')]);
    const apis = [apiOf(a), apiOf(b)];
    const base = await apis[0].createNamespacedEvent({ namespace: 'race', body: sampleEvent('x', 'race') });
    let current = base;
    for (let round = 0; round < 20; round++) {
      const results = await Promise.allSettled(
        apis.map((api, i) =>
          api.replaceNamespacedEvent({
            name: 'x',
            namespace: 'race',
            body: { ...current, metadata: { ...current.metadata, labels: { round: String(round), from: String(i) } } },
          }),
        ),
      );
      const ok = results.filter((r): r is PromiseFulfilledResult<k8s.EventsV1Event> => r.status === 'fulfilled');
      expect(ok).toHaveLength(1);
      const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((failed.reason as { code?: number }).code).toBe(409);
      current = ok[0].value;
    }
    const final = await apis[1].readNamespacedEvent({ name: 'x', namespace: 'race' });
    expect(final.metadata!.resourceVersion).toBe(current.metadata!.resourceVersion);
  }, 60_000);
});

describe('Redis faults', () => {
  it('loses no acknowledged create across a Redis crash and restart (AOF), fails fast with 503 meanwhile, and recovers', async () => {
    const [a, b] = await Promise.all([start('fault'), start('fault')]);
    // The informer lists the empty store first: it answers resourceVersion "1" (etcd's first
    // revision), and the watch from it sees every create in order (from "0" it would mean "from any
    // point": the current state as synthetic ADDED events in key order).
    const informer = new MiniInformer(a.url, 'load');
    informer.start();
    await waitFor(
      () => informer.relists > 0,
      10_000,
      () => 'informer did not list',
    );
    const acked: string[] = [];
    const outage: { status: number; ms: number }[] = [];
    let phase: 'before' | 'down' | 'after' = 'before';
    let stop = false;
    let n = 0;
    const writer = async (server: ApiserverProcess, id: number): Promise<void> => {
      while (!stop) {
        const name = `w${id}-${n++}`;
        const t0 = Date.now();
        const p = phase;
        const res = await fetch(`${server.url}/apis/events.k8s.io/v1/namespaces/load/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(sampleEvent(name, 'load')),
          signal: AbortSignal.timeout(10_000),
        }).catch(() => undefined);
        const status = res?.status ?? 0;
        await res?.arrayBuffer();
        if (status >= 200 && status < 300) acked.push(name);
        if (p === 'down' && phase === 'down') outage.push({ status, ms: Date.now() - t0 });
        if (status >= 300) await new Promise((r) => setTimeout(r, 20));
      }
    };
    const writers = [writer(a, 0), writer(b, 1), writer(a, 2), writer(b, 3)];
    await waitFor(
      () => acked.length >= 100,
      15_000,
      () => `only ${acked.length} creates before the crash`,
    );
    await redis.kill('SIGKILL');
    phase = 'down';
    await new Promise((r) => setTimeout(r, 1_500));
    const readyDown = await fetch(`${a.url}/readyz`);
    expect(readyDown.status).not.toBe(200);
    await redis.restart();
    phase = 'after';
    const before = acked.length;
    await waitFor(
      () => acked.length >= before + 100,
      20_000,
      () => `servers did not recover: ${acked.length - before} creates after restart\n${a.log}`,
    );
    stop = true;
    await Promise.all(writers);

    expect(outage.length).toBeGreaterThan(0);
    expect(outage.every((o) => o.status === 503)).toBe(true);
    expect(Math.max(...outage.map((o) => o.ms))).toBeLessThan(2_500);

    const list = await apiOf(b).listNamespacedEvent({ namespace: 'load' });
    const stored = new Set(list.items.map((e) => e.metadata!.name!));
    expect(acked.filter((name) => !stored.has(name))).toEqual([]);
    for (const s of [a, b]) expect((await fetch(`${s.url}/readyz`)).status).toBe(200);

    // The informer (on A) relisted or resumed and ends with exactly the stored state.
    await waitFor(
      () => informer.cache.size === stored.size && [...stored].every((x) => informer.cache.has(x)),
      10_000,
      () =>
        `informer has ${informer.cache.size} of ${stored.size} objects (relists ${informer.relists}, resumes ${informer.resumes})`,
    );
    expect(informer.relists + informer.resumes).toBeGreaterThan(1);
    const rvs = informer.events.map((e) => e.rv);
    for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBeGreaterThan(rvs[i - 1]);
    await informer.stop();
  }, 80_000);
});
