import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timeToMillis } from '@kevents/api';
import { ApiserverChild, ChildRun, testClients, testEvent, waitFor } from '../testing/index.js';
import { leaderElectionDefaults } from './leader-elector.js';

const child = fileURLToPath(new URL('../../dist/testing/leader-child.js', import.meta.url));
const lease = 3_000;
const renew = 2_000;
const retry = 400;

function candidate(server: string, ns: string, identity: string): ChildRun {
  if (!existsSync(child)) throw new Error(`${child} is missing: run \`npm run build\` first`);
  return new ChildRun(
    spawn(process.execPath, [child, server, ns, identity, String(lease), String(renew), String(retry)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

const line = (c: ChildRun, text: string): Promise<void> =>
  waitFor(
    () => c.output.includes(text),
    30_000,
    () => `no "${text}" in:\n${c.output}`,
  );

describe('leader election on a coordination.k8s.io/v1 Lease', () => {
  let api: ApiserverChild;
  beforeAll(async () => {
    api = await ApiserverChild.start('memory');
  });
  afterAll(async () => {
    await api?.stop();
  });

  it("has client-go's defaults", () => {
    expect(leaderElectionDefaults).toEqual({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 });
  });

  it('the leader SIGKILLed, the other takes over within the lease duration; only one reconciles at any time; a clean stop releases', async () => {
    const ns = 'le';
    const { events, leases } = testClients(api.url);
    const a = candidate(api.url, ns, 'cand-a');
    await line(a, 'became leader');
    const b = candidate(api.url, ns, 'cand-b');
    await line(b, 'waiting for leadership');
    let n = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await events.create(testEvent(`ev-${n++}`, ns));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await waitFor(
      () => (a.output.match(/^reconciled /gm) ?? []).length >= 20,
      30_000,
      () => a.output,
    );
    const killedAt = Date.now();
    await a.kill();
    await line(b, 'became leader');
    const takeover = Date.now() - killedAt;
    await waitFor(
      () => (b.output.match(/^reconciled /gm) ?? []).length >= 20,
      30_000,
      () => b.output,
    );
    writing = false;
    await writer;
    // Every event ends stamped by exactly one candidate.
    let all = await events.list({ namespace: ns });
    await waitFor(
      async () => {
        all = await events.list({ namespace: ns });
        return all.items.every((e) => e.metadata.annotations?.['test/handled-by']);
      },
      30_000,
      () => 'unstamped events remain',
    );
    const stamps = all.items
      .map((e) => ({
        by: e.metadata.annotations!['test/handled-by']!,
        at: timeToMillis(e.metadata.annotations!['test/handled-at']),
      }))
      .sort((x, y) => x.at - y.at);
    const firstB = stamps.findIndex((s) => s.by === 'cand-b');
    // From the writes: all of A's stamps come before any of B's (no interleaving, no overlap).
    expect(firstB).toBeGreaterThan(0);
    expect(stamps.slice(0, firstB).every((s) => s.by === 'cand-a')).toBe(true);
    expect(stamps.slice(firstB).every((s) => s.by === 'cand-b')).toBe(true);
    expect(stamps[firstB]!.at).toBeGreaterThanOrEqual(killedAt);
    // One write per event, and nobody met a conflict. B is alive: the line of a write it just
    // made may still be in its stdout pipe, so wait for it. A was SIGKILLed, so the line of its
    // very last write may never have been printed.
    const wrote = (c: ChildRun): number => (c.output.match(/^reconciled /gm) ?? []).length;
    const stampsBy = (id: string): number => stamps.filter((s) => s.by === id).length;
    await waitFor(
      () => wrote(b) >= stampsBy('cand-b'),
      10_000,
      () => `B printed ${wrote(b)} writes, stamped ${stampsBy('cand-b')}`,
    );
    expect(wrote(b)).toBe(stampsBy('cand-b'));
    expect(stampsBy('cand-a') - wrote(a)).toBeGreaterThanOrEqual(0);
    expect(stampsBy('cand-a') - wrote(a)).toBeLessThanOrEqual(1);
    expect(`${a.output}${b.output}`).not.toMatch(/^conflict /m);
    // client-go: a candidate takes over once it has seen no renewal for leaseDuration (plus at
    // most one jittered retry period after that, plus the one it took to observe the last renewal).
    expect(takeover).toBeLessThan(lease + 2 * retry * 2.2 + 1_000);
    process.stdout.write(
      `leader election: takeover ${takeover} ms after SIGKILL (lease ${lease} ms, retry ${retry} ms)\n`,
    );
    const held = await leases.get(ns, 'stamp-leader');
    expect(held.spec.holderIdentity).toBe('cand-b');
    expect(held.spec.leaseTransitions).toBe(1);
    expect(held.spec.leaseDurationSeconds).toBe(3);

    // A clean stop gives the lease up at once; a new candidate does not wait for it to expire.
    expect(await b.stop()).toBe(0);
    const released = await leases.get(ns, 'stamp-leader');
    expect(released.spec.holderIdentity).toBe('');
    expect(released.spec.leaseDurationSeconds).toBe(1);
    const c = candidate(api.url, ns, 'cand-c');
    await line(c, 'waiting for leadership'); // started, cache synced: it tries the lease now
    const t = Date.now();
    await line(c, 'became leader');
    expect(Date.now() - t).toBeLessThan(lease);
    expect((await leases.get(ns, 'stamp-leader')).spec.leaseTransitions).toBe(2);
    await c.stop();
  }, 120_000);
});
