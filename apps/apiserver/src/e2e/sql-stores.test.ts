import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import * as k8s from '@kubernetes/client-node';
import { waitFor } from '@kevents/storage-redis/testing';
import { PostgresProcess, TestDatabase } from '@kevents/storage-sql/testing';
import { stringify } from 'yaml';
import { ApiserverProcess } from '../testing/apiserver-process.js';
import { kubeConfig, sampleEvent } from '../testing/e2e-informer.js';
import { Kubectl, sampleEvent as plainEvent } from '../testing/server.js';

/**
 * kevents-apiserver processes (the built dist) on the SQL stores: kubectl on SQLite; a kill -9
 * under a create load on SQLite and on PostgreSQL loses no acknowledged create; two replicas on
 * one PostgreSQL see each other's writes in resourceVersion order.
 */
const dir = mkdtempSync(join(tmpdir(), 'kevents-sql-e2e-'));
const servers: ApiserverProcess[] = [];
const dbs: TestDatabase[] = [];
const start = async (storage: string): Promise<ApiserverProcess> => {
  const a = await ApiserverProcess.start(storage);
  servers.push(a);
  return a;
};
const database = async (): Promise<TestDatabase> => {
  const db = await TestDatabase.create();
  dbs.push(db);
  return db;
};

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  for (const db of dbs.splice(0)) await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

const apiOf = (url: string): k8s.EventsV1Api => kubeConfig(url).makeApiClient(k8s.EventsV1Api);

/** POSTs creates to `urls` from `writers` loops until `stop()`; records the names acknowledged (2xx). */
function createLoad(urls: () => readonly string[], ns: string, writers = 4) {
  const acked: string[] = [];
  let stopped = false;
  let n = 0;
  const loop = async (w: number): Promise<void> => {
    while (!stopped) {
      const list = urls();
      const url = list[w % list.length]!;
      const name = `w${w}-${n++}`;
      const res = await fetch(`${url}/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(plainEvent(name, ns)),
        signal: AbortSignal.timeout(10_000),
      }).catch(() => undefined);
      await res?.arrayBuffer().catch(() => undefined);
      if (res !== undefined && res.status >= 200 && res.status < 300) acked.push(name);
      else await new Promise((r) => setTimeout(r, 20));
    }
  };
  const running = Array.from({ length: writers }, (_, w) => loop(w));
  return {
    acked,
    stop: async (): Promise<void> => {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Every name in `namespace`, read page by page. */
async function storedNames(url: string, namespace: string): Promise<Set<string>> {
  const names = new Set<string>();
  let token: string | undefined;
  do {
    const page = await apiOf(url).listNamespacedEvent({ namespace, limit: 500, _continue: token });
    for (const e of page.items) names.add(e.metadata!.name!);
    token = page.metadata?._continue;
  } while (token);
  return names;
}

describe('kubectl on SQLite', () => {
  let kubectl: Kubectl;
  beforeAll(async () => {
    const a = await start(`sqlite://${join(dir, 'kubectl', 'events.db')}`);
    kubectl = new Kubectl(a.url);
  });

  it('creates, lists, selects by field, watches and deletes', async () => {
    const file = join(dir, 'ev.yaml');
    writeFileSync(
      file,
      stringify({
        ...plainEvent('alpha', 'team-a'),
        regarding: { kind: 'Pod', name: 'api-0', namespace: 'team-a', apiVersion: 'v1' },
      }),
    );
    let r = await kubectl.run(['create', '-f', file, '--validate=false']);
    expect(r.stdout.trim()).toBe('event.events.k8s.io/alpha created');
    writeFileSync(
      file,
      stringify({
        ...plainEvent('beta', 'team-a'),
        regarding: { kind: 'Pod', name: 'web-0', namespace: 'team-a', apiVersion: 'v1' },
      }),
    );
    expect((await kubectl.run(['create', '-f', file, '--validate=false'])).code).toBe(0);
    r = await kubectl.run(['get', 'events.events.k8s.io', '-n', 'team-a', '-o', 'name']);
    expect(r.stdout.trim().split('\n')).toEqual(['event.events.k8s.io/alpha', 'event.events.k8s.io/beta']);
    r = await kubectl.run([
      'get',
      'events',
      '-n',
      'team-a',
      '--field-selector',
      'involvedObject.name=api-0',
      '-o',
      'name',
    ]);
    expect(r.stdout.trim()).toBe('event/alpha');
    r = await kubectl.run(['events', '-n', 'team-a', '--for', 'pod/web-0']);
    expect(`${r.code} ${r.stderr}`).toBe('0 ');
    expect(r.stdout).toContain('event beta');
    expect(r.stdout).not.toContain('event alpha');
    r = await kubectl.run(['delete', 'events.events.k8s.io', '-n', 'team-a', '--all']);
    expect(r.code).toBe(0);
    r = await kubectl.run(['get', 'events.events.k8s.io', '-n', 'team-a', '-o', 'name']);
    expect(r.stdout.trim()).toBe('');
  }, 60_000);
});

describe('kill -9 under a create load', () => {
  it('SQLite: every acknowledged create is there after a restart', async () => {
    const url = `sqlite://${join(dir, 'kill', 'events.db')}`;
    let a = await start(url);
    const load = createLoad(() => [a.url], 'load');
    await waitFor(
      () => load.acked.length >= 300,
      20_000,
      () => `only ${load.acked.length} creates`,
    );
    a.kill('SIGKILL');
    await a.exited();
    await load.stop();
    a = await start(url);
    const stored = await storedNames(a.url, 'load');
    expect(load.acked.filter((n) => !stored.has(n))).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(load.acked.length);
  }, 60_000);

  it('PostgreSQL, two replicas: one killed mid-load loses no acknowledged create; the other serves on', async () => {
    const db = await database();
    const [a, b] = await Promise.all([start(db.url), start(db.url)]);
    let targets = [a.url, b.url];
    const load = createLoad(() => targets, 'load');
    await waitFor(
      () => load.acked.length >= 300,
      20_000,
      () => `only ${load.acked.length} creates`,
    );
    a.kill('SIGKILL');
    await a.exited();
    targets = [b.url];
    const before = load.acked.length;
    await waitFor(
      () => load.acked.length >= before + 100,
      20_000,
      () => `the surviving replica took ${load.acked.length - before} creates`,
    );
    await load.stop();
    const stored = await storedNames(b.url, 'load');
    expect(load.acked.filter((n) => !stored.has(n))).toEqual([]);
  }, 60_000);
});

describe('two replicas on one PostgreSQL', () => {
  it('a watch on A sees the writes made through B, and its own, in resourceVersion order', async () => {
    const db = await database();
    const [a, b] = await Promise.all([start(db.url), start(db.url)]);
    const seen: { type: string; name: string; rv: number }[] = [];
    const start0 = (await apiOf(a.url).listNamespacedEvent({ namespace: 'mp' })).metadata!.resourceVersion!;
    const ctrl = await new k8s.Watch(kubeConfig(a.url)).watch(
      '/apis/events.k8s.io/v1/namespaces/mp/events',
      { resourceVersion: start0 },
      (type: string, obj: k8s.EventsV1Event) =>
        seen.push({ type, name: obj.metadata!.name!, rv: Number(obj.metadata!.resourceVersion) }),
      () => undefined,
    );
    const written: number[] = [];
    await Promise.all(
      [a, b].map(async (s, i) => {
        const api = apiOf(s.url);
        for (let j = 0; j < 30; j++) {
          const c = await api.createNamespacedEvent({ namespace: 'mp', body: sampleEvent(`r${i}-${j}`, 'mp') });
          written.push(Number(c.metadata!.resourceVersion));
          if (j % 5 === 0) await api.deleteNamespacedEvent({ name: `r${i}-${j}`, namespace: 'mp' });
        }
      }),
    );
    await waitFor(
      () => seen.length >= 72,
      15_000,
      () => `the watch saw ${seen.length} of 72 changes`,
    );
    ctrl.abort();
    // Every write of both replicas, in one dense resourceVersion order (the database is this test's own).
    expect(seen.map((e) => e.rv)).toEqual(Array.from({ length: 72 }, (_, i) => Number(start0) + 1 + i));
    const created = new Set(written);
    expect(seen.filter((e) => e.type === 'ADDED').map((e) => e.rv)).toEqual([...created].sort((x, y) => x - y));
    expect(seen.filter((e) => e.type === 'DELETED')).toHaveLength(12);
  }, 60_000);
});

describe('PostgreSQL crashed and restarted under load', () => {
  it('loses no acknowledged create, answers 503 meanwhile, and both replicas recover by themselves', async () => {
    const pg = await PostgresProcess.start();
    try {
      const db = await TestDatabase.create(pg.url());
      const [a, b] = await Promise.all([start(db.url), start(db.url)]);
      const load = createLoad(() => [a.url, b.url], 'load');
      await waitFor(
        () => load.acked.length >= 200,
        20_000,
        () => `only ${load.acked.length} creates`,
      );
      pg.stop('immediate');
      const down = await fetch(`${a.url}/apis/events.k8s.io/v1/namespaces/load/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(plainEvent('during-outage', 'load')),
        signal: AbortSignal.timeout(10_000),
      });
      expect(down.status).toBe(503);
      expect(((await down.json()) as { reason?: string }).reason).toBe('ServiceUnavailable');
      expect((await fetch(`${b.url}/readyz`)).status).not.toBe(200);
      pg.restart();
      const before = load.acked.length;
      await waitFor(
        () => load.acked.length >= before + 200,
        30_000,
        () => `the replicas took ${load.acked.length - before} creates after the restart\n${a.log}`,
      );
      await load.stop();
      const stored = await storedNames(b.url, 'load');
      expect(load.acked.filter((n) => !stored.has(n))).toEqual([]);
      for (const s of [a, b]) expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop()));
      pg.destroy();
    }
  }, 90_000);
});
