import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as k8s from '@kubernetes/client-node';
import { MemoryStorage } from '@kevents/storage';
import { startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiError, kubeConfigFor } from '../testing/client-node.js';

const apiFor = (url: string): { kc: k8s.KubeConfig; api: k8s.CoordinationV1Api } => {
  const kc = kubeConfigFor(url);
  return { kc, api: kc.makeApiClient(k8s.CoordinationV1Api) };
};

const micro = (iso: string): k8s.V1MicroTime => new k8s.V1MicroTime(iso);
/** MicroTime as it reads back: client-node may deserialize it to a Date or keep the string. */
const iso = (t: unknown): string => (t instanceof Date ? t.toISOString() : String(t));

const lease = (name: string, namespace: string, spec: k8s.V1LeaseSpec = {}): k8s.V1Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, namespace },
  spec: {
    holderIdentity: 'holder-1',
    leaseDurationSeconds: 15,
    acquireTime: micro('2026-01-02T03:04:05.123Z'),
    renewTime: micro('2026-01-02T03:04:05.123Z'),
    leaseTransitions: 0,
    ...spec,
  },
});

let srv: TestServer;
let api: k8s.CoordinationV1Api;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage({ historyLimit: 5_000 }) });
  ({ kc, api } = apiFor(srv.url));
});
afterAll(async () => srv?.close());

describe('@kubernetes/client-node CoordinationV1Api against kevents', () => {
  it('creates, reads, replaces, lists and deletes', async () => {
    const ns = 'cn-leases';
    const created = await api.createNamespacedLease({ namespace: ns, body: lease('one', ns) });
    expect(created.kind).toBe('Lease');
    expect(created.apiVersion).toBe('coordination.k8s.io/v1');
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.spec?.holderIdentity).toBe('holder-1');
    expect(iso(created.spec?.acquireTime)).toMatch(/^2026-01-02T03:04:05\.123(000)?Z$/);

    const read = await api.readNamespacedLease({ name: 'one', namespace: ns });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    expect(read.spec?.leaseDurationSeconds).toBe(15);

    read.spec = { ...read.spec, holderIdentity: 'holder-2', leaseTransitions: 1 };
    const replaced = await api.replaceNamespacedLease({ name: 'one', namespace: ns, body: read });
    expect(replaced.spec?.holderIdentity).toBe('holder-2');
    expect(replaced.spec?.leaseTransitions).toBe(1);
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(read.metadata?.resourceVersion));

    const stale = await apiError(api.replaceNamespacedLease({ name: 'one', namespace: ns, body: read }));
    expect(stale.code).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    expect(stale.body.message).toBe(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "one": the object has been modified; please apply your changes to the latest version and try again',
    );

    await api.createNamespacedLease({ namespace: ns, body: lease('two', ns) });
    const list = await api.listNamespacedLease({ namespace: ns });
    expect(list.kind).toBe('LeaseList');
    expect(list.items.map((l) => l.metadata?.name)).toEqual(['one', 'two']);
    const all = await api.listLeaseForAllNamespaces({});
    expect(all.items.filter((l) => l.metadata?.namespace === ns)).toHaveLength(2);
    const selected = await api.listNamespacedLease({ namespace: ns, fieldSelector: 'metadata.name=two' });
    expect(selected.items.map((l) => l.metadata?.name)).toEqual(['two']);

    const status = await api.deleteNamespacedLease({ name: 'one', namespace: ns });
    expect(status.status).toBe('Success');
    expect(status.details?.uid).toBe(created.metadata?.uid);
    const gone = await apiError(api.readNamespacedLease({ name: 'one', namespace: ns }));
    expect(gone.code).toBe(404);
    expect(gone.body.message).toBe('leases.coordination.k8s.io "one" not found');

    await api.deleteCollectionNamespacedLease({ namespace: ns });
    expect((await api.listNamespacedLease({ namespace: ns })).items).toHaveLength(0);
  });

  it('a replace without resourceVersion is refused: leases never update unconditionally', async () => {
    const ns = 'cn-uncond';
    await api.createNamespacedLease({ namespace: ns, body: lease('l', ns) });
    const r = await apiError(
      api.replaceNamespacedLease({ name: 'l', namespace: ns, body: lease('l', ns, { holderIdentity: 'thief' }) }),
    );
    expect(r.code).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(r.body.message).toBe(
      'leases.coordination.k8s.io "l" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    expect((await api.readNamespacedLease({ name: 'l', namespace: ns })).spec?.holderIdentity).toBe('holder-1');
  });

  it('a replace of a missing lease creates it (AllowCreateOnUpdate)', async () => {
    const ns = 'cn-create-on-update';
    const made = await api.replaceNamespacedLease({ name: 'fresh', namespace: ns, body: lease('fresh', ns) });
    expect(made.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await api.readNamespacedLease({ name: 'fresh', namespace: ns })).metadata?.uid).toBe(made.metadata?.uid);
  });

  it('an invalid lease is a 422 with the ValidateLease causes', async () => {
    const ns = 'cn-invalid';
    const r = await apiError(
      api.createNamespacedLease({
        namespace: ns,
        body: lease('bad', ns, { leaseDurationSeconds: 0, leaseTransitions: -1 }),
      }),
    );
    expect(r.code).toBe(422);
    expect(r.body.message).toBe(
      'Lease.coordination.k8s.io "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    );
  });

  it('merge-patches the holder', async () => {
    const ns = 'cn-patch';
    await api.createNamespacedLease({ namespace: ns, body: lease('p', ns) });
    const patched = await api.patchNamespacedLease(
      { name: 'p', namespace: ns, body: { spec: { holderIdentity: 'patched' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(patched.spec?.holderIdentity).toBe('patched');
    expect(patched.spec?.leaseDurationSeconds).toBe(15);
  });

  it('Watch sees the lease being taken over', async () => {
    const ns = 'cn-watch';
    const first = await api.createNamespacedLease({ namespace: ns, body: lease('w', ns) });
    const seen: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const ctrl = await new k8s.Watch(kc).watch(
      `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
      { resourceVersion: first.metadata!.resourceVersion! },
      (phase, obj: k8s.V1Lease) => {
        seen.push(`${phase} ${obj.metadata?.name} ${obj.spec?.holderIdentity ?? ''}`);
        if (seen.length === 2) done();
      },
      () => done(),
    );
    const read = await api.readNamespacedLease({ name: 'w', namespace: ns });
    await api.replaceNamespacedLease({
      name: 'w',
      namespace: ns,
      body: { ...read, spec: { ...read.spec, holderIdentity: 'holder-2', leaseTransitions: 1 } },
    });
    await api.deleteNamespacedLease({ name: 'w', namespace: ns });
    await finished;
    ctrl.abort();
    expect(seen).toEqual(['MODIFIED w holder-2', 'DELETED w holder-2']);
  });
});

/**
 * A leader elector as client-go's `tryAcquireOrRenew` (resourcelock.LeaseLock): read the lease;
 * create it when missing; otherwise take it only when it expired or is ours, replacing with the
 * resourceVersion just read so that concurrent candidates conflict. The clock is injected.
 */
class Candidate {
  readonly id: string;
  readonly #api: k8s.CoordinationV1Api;
  readonly #ns: string;
  readonly #name: string;
  readonly #now: () => Date;

  constructor(id: string, api: k8s.CoordinationV1Api, ns: string, name: string, now: () => Date) {
    this.id = id;
    this.#api = api;
    this.#ns = ns;
    this.#name = name;
    this.#now = now;
  }

  /** true when this candidate holds the lease after the attempt; the reason otherwise. */
  async tryAcquireOrRenew(durationSeconds = 10): Promise<true | string> {
    const now = micro(this.#now().toISOString());
    let current: k8s.V1Lease;
    try {
      current = await this.#api.readNamespacedLease({ name: this.#name, namespace: this.#ns });
    } catch (err) {
      if ((err as k8s.ApiException<string>).code !== 404) throw err;
      try {
        await this.#api.createNamespacedLease({
          namespace: this.#ns,
          body: {
            metadata: { name: this.#name, namespace: this.#ns },
            spec: {
              holderIdentity: this.id,
              leaseDurationSeconds: durationSeconds,
              acquireTime: now,
              renewTime: now,
              leaseTransitions: 0,
            },
          },
        });
        return true;
      } catch (e) {
        const code = (e as k8s.ApiException<string>).code;
        if (code === 409) return 'AlreadyExists';
        throw e;
      }
    }
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const renewed = spec.renewTime ? new Date(iso(spec.renewTime)).getTime() : 0;
    const expired = renewed + (spec.leaseDurationSeconds ?? 0) * 1000 <= now.getTime();
    if (holder !== '' && holder !== this.id && !expired) return 'held';
    const takeover = holder !== this.id;
    const next: k8s.V1Lease = {
      ...current,
      spec: {
        ...spec,
        holderIdentity: this.id,
        leaseDurationSeconds: durationSeconds,
        renewTime: now,
        acquireTime: takeover ? now : spec.acquireTime,
        leaseTransitions: (spec.leaseTransitions ?? 0) + (takeover && holder !== '' ? 1 : 0),
      },
    };
    try {
      await this.#api.replaceNamespacedLease({ name: this.#name, namespace: this.#ns, body: next });
      return true;
    } catch (e) {
      const err = e as k8s.ApiException<string>;
      if (err.code === 409) return `Conflict: ${(JSON.parse(err.body) as k8s.V1Status).reason}`;
      throw e;
    }
  }

  /** client-go's release: an empty holder, a 1s duration, the transitions kept. */
  async release(): Promise<void> {
    const current = await this.#api.readNamespacedLease({ name: this.#name, namespace: this.#ns });
    if (current.spec?.holderIdentity !== this.id) return;
    const now = micro(this.#now().toISOString());
    await this.#api.replaceNamespacedLease({
      name: this.#name,
      namespace: this.#ns,
      body: {
        ...current,
        spec: {
          holderIdentity: '',
          leaseDurationSeconds: 1,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: current.spec?.leaseTransitions ?? 0,
        },
      },
    });
  }
}

describe('leader election on a Lease (resourceVersion preconditions)', () => {
  const ns = 'election';
  let clock = Date.parse('2026-03-04T05:06:07.000Z');
  const now = (): Date => new Date(clock);
  const read = (name: string): Promise<k8s.V1Lease> => api.readNamespacedLease({ name, namespace: ns });

  it('two candidates creating at once: one creates, the other gets AlreadyExists', async () => {
    const a = new Candidate('a', api, ns, 'race', now);
    const b = new Candidate('b', api, ns, 'race', now);
    const results = await Promise.all([a.tryAcquireOrRenew(), b.tryAcquireOrRenew()]);
    expect(results.filter((r) => r === true)).toHaveLength(1);
    const loser = results.find((r) => r !== true);
    // The loser either raced the create (AlreadyExists) or saw the lease already held.
    expect(['AlreadyExists', 'held']).toContain(loser);
    const l = await read('race');
    expect(['a', 'b']).toContain(l.spec?.holderIdentity);
    expect(l.spec?.leaseTransitions).toBe(0);
  });

  it('acquire, renew, conflict on takeover, release, re-acquire', async () => {
    const a = new Candidate('a', api, ns, 'leader', now);
    const b = new Candidate('b', api, ns, 'leader', now);
    const c = new Candidate('c', api, ns, 'leader', now);

    // a acquires a missing lease.
    expect(await a.tryAcquireOrRenew()).toBe(true);
    let l = await read('leader');
    const acquired = iso(l.spec?.acquireTime);
    expect(l.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 10, leaseTransitions: 0 });
    expect(iso(l.spec?.renewTime)).toBe(acquired);

    // b cannot take a held lease.
    clock += 5_000;
    expect(await b.tryAcquireOrRenew()).toBe('held');

    // a renews: renewTime moves, acquireTime and leaseTransitions stay.
    expect(await a.tryAcquireOrRenew()).toBe(true);
    l = await read('leader');
    expect(l.spec?.holderIdentity).toBe('a');
    expect(iso(l.spec?.acquireTime)).toBe(acquired);
    expect(new Date(iso(l.spec?.renewTime)).getTime()).toBe(clock);
    expect(l.spec?.leaseTransitions).toBe(0);

    // a stops renewing; the lease expires; b and c both read it and replace with that
    // resourceVersion: exactly one wins, the other gets 409 Conflict.
    clock += 11_000;
    const snapshot = await read('leader');
    const takeover = async (id: string): Promise<number> => {
      try {
        await api.replaceNamespacedLease({
          name: 'leader',
          namespace: ns,
          body: {
            ...snapshot,
            spec: {
              ...snapshot.spec,
              holderIdentity: id,
              acquireTime: micro(now().toISOString()),
              renewTime: micro(now().toISOString()),
              leaseTransitions: (snapshot.spec?.leaseTransitions ?? 0) + 1,
            },
          },
        });
        return 200;
      } catch (e) {
        return (e as k8s.ApiException<string>).code;
      }
    };
    const codes = await Promise.all([takeover('b'), takeover('c')]);
    expect([...codes].sort()).toEqual([200, 409]);
    const winner = codes[0] === 200 ? 'b' : 'c';
    l = await read('leader');
    expect(l.spec?.holderIdentity).toBe(winner);
    expect(l.spec?.leaseTransitions).toBe(1);
    expect(new Date(iso(l.spec?.acquireTime)).getTime()).toBe(clock);

    // The loser retries through the elector: the lease is held now.
    const loser = winner === 'b' ? c : b;
    expect(await loser.tryAcquireOrRenew()).toBe('held');
    // The old leader comes back: held too.
    expect(await a.tryAcquireOrRenew()).toBe('held');

    // The winner releases: empty holder, transitions kept.
    await (winner === 'b' ? b : c).release();
    l = await read('leader');
    expect(l.spec?.holderIdentity ?? '').toBe('');
    expect(l.spec?.leaseDurationSeconds).toBe(1);
    expect(l.spec?.leaseTransitions).toBe(1);

    // Anyone may take a released lease at once; taking a released lease is no transition in
    // this elector's bookkeeping (there is no previous holder).
    clock += 100;
    expect(await a.tryAcquireOrRenew()).toBe(true);
    l = await read('leader');
    expect(l.spec?.holderIdentity).toBe('a');
    expect(l.spec?.leaseTransitions).toBe(1);
    expect(new Date(iso(l.spec?.acquireTime)).getTime()).toBe(clock);
  });

  it('many candidates racing on an expired lease: exactly one wins each round', async () => {
    const ids = ['c0', 'c1', 'c2', 'c3', 'c4'];
    const cands = ids.map((id) => new Candidate(id, api, ns, 'crowd', now));
    expect(await cands[0]!.tryAcquireOrRenew(2)).toBe(true);
    for (let round = 1; round <= 5; round++) {
      clock += 3_000;
      const results = await Promise.all(cands.map((c) => c.tryAcquireOrRenew(2)));
      const winners = results.filter((r) => r === true);
      expect({ round, winners: winners.length }).toEqual({ round, winners: 1 });
      for (const r of results) if (r !== true) expect(['held', 'Conflict: Conflict']).toContain(r);
    }
    const l = await read('crowd');
    // Each round is one transition unless the previous holder won the race again.
    expect(l.spec?.leaseTransitions).toBeGreaterThanOrEqual(0);
    expect(l.spec?.leaseTransitions).toBeLessThanOrEqual(5);
    expect(ids).toContain(l.spec?.holderIdentity);
  });
});
