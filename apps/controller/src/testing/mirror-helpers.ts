/**
 * Test helpers for the mirror: source clusters' events written as kubelets and newer controllers
 * write them, kubeconfig files for sources, and the exactness check. Used by the tests only.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@kevents/api/testing';
import { coreToEvent, formatTime, microTimeNow, now, type CoreEvent, type Event } from '@kevents/api';
import { ResourceClient, RestClient, type ObjectList } from '@kevents/controller-runtime';
import { testEvent, testKubeConfig } from '@kevents/controller-runtime/testing';
import { clusterLabel, mirrorOf, mirroredContent, sourceUidAnnotation } from '../mirror/mirror-object.js';

const coreRef = { group: '', version: 'v1', resource: 'events', namespaced: true } as const;
const eventsRef = { group: 'events.k8s.io', version: 'v1', resource: 'events', namespaced: true } as const;

/** A kubeconfig file whose current context is `server` (anonymous). */
export function kubeconfigFile(server: string): string {
  const p = join(mkdtempSync(join(tmpdir(), 'kevents-mirror-')), 'kubeconfig');
  writeFileSync(
    p,
    `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "${server}"}}]
users: [{name: u, user: {}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
  );
  return p;
}

/** Both APIs' event clients on one server. */
export function eventClients(server: string): { events: ResourceClient<Event>; core: ResourceClient<CoreEvent> } {
  const rest = new RestClient(testKubeConfig(server), { timeoutMs: 60_000 });
  return { events: new ResourceClient<Event>(rest, eventsRef), core: new ResourceClient<CoreEvent>(rest, coreRef) };
}

/** A kubelet-style core v1 event: no eventTime, no reportingController, the legacy fields set. */
export function kubeletEvent(name: string, namespace: string): CoreEvent {
  const t = formatTime(now());
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: {
      kind: 'Pod',
      namespace,
      name: `pod-${name}`,
      apiVersion: 'v1',
      fieldPath: 'spec.containers{app}',
    },
    reason: 'Pulled',
    message: `Container image "app:1" already present on machine (${name})`,
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: t,
    lastTimestamp: t,
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  };
}

/**
 * Writes events to a source: a third kubelet-style through core v1, the rest through
 * events.k8s.io/v1. `update` bumps one: count, lastTimestamp and message for kubelet-style
 * events, the series for the others. Keeps the latest answer of each.
 */
export class SourceWriter {
  readonly latest = new Map<string, Event>();
  private readonly c: ReturnType<typeof eventClients>;
  constructor(server: string) {
    this.c = eventClients(server);
  }

  async create(i: number, namespace: string, prefix = 'ev'): Promise<Event> {
    const name = `${prefix}-${i}`;
    const e =
      i % 3 === 0
        ? coreToEvent(await this.c.core.create(kubeletEvent(name, namespace)))
        : await this.c.events.create(testEvent(name, namespace, { note: `note of ${name}` }));
    this.latest.set(`${namespace}/${name}`, e);
    return e;
  }

  async update(key: string): Promise<Event> {
    const e = this.latest.get(key)!;
    let out: Event;
    if (e.eventTime === null || e.eventTime === undefined) {
      const count = (e.deprecatedCount ?? 1) + 1;
      const c = await this.c.core.get(e.metadata.namespace, e.metadata.name!);
      out = coreToEvent(
        await this.c.core.update({
          ...c,
          count,
          lastTimestamp: formatTime(now()),
          message: `${c.message?.replace(/ \(seen \d+ times\)$/, '')} (seen ${count} times)`,
        }),
      );
    } else {
      const count = (e.series?.count ?? 1) + 1;
      out = await this.c.events.update({ ...e, series: { count, lastObservedTime: microTimeNow() } });
    }
    this.latest.set(key, out);
    return out;
  }
}

/** Every event on a server (paged), optionally by label selector. */
export async function listEvents(server: string, labelSelector?: string): Promise<Event[]> {
  const { events } = eventClients(server);
  const out: Event[] = [];
  let cont: string | undefined;
  do {
    const page: ObjectList<Event> = await events.list({ labelSelector, limit: 2000, continue: cont });
    out.push(...page.items);
    cont = page.metadata.continue;
  } while (cont);
  return out;
}

/**
 * Compares kevents' copies of `cluster` with the source's events: '' when every source event has
 * exactly one copy with its latest content; otherwise what differs (the first few). `extraUids`
 * are source uids that must still have a copy although the source no longer has them.
 */
export async function mirrorDiff(
  source: string,
  target: string,
  cluster: string,
  extraUids: ReadonlySet<string> = new Set(),
): Promise<string> {
  const [src, dst] = await Promise.all([listEvents(source), listEvents(target, `${clusterLabel}=${cluster}`)]);
  const byUid = new Map<string, Event[]>();
  for (const e of dst) {
    const uid = e.metadata.annotations?.[sourceUidAnnotation] ?? '';
    byUid.set(uid, [...(byUid.get(uid) ?? []), e]);
  }
  const problems: string[] = [];
  let dups = 0;
  for (const [uid, copies] of byUid)
    if (copies.length > 1) {
      dups += copies.length - 1;
      problems.push(`dup ${uid}: ${copies.map((c) => c.metadata.name).join(', ')}`);
    }
  let missing = 0;
  let stale = 0;
  for (const s of src) {
    const copies = byUid.get(s.metadata.uid!);
    if (!copies) {
      if (missing++ < 3) problems.push(`missing ${s.metadata.namespace}/${s.metadata.name}`);
      continue;
    }
    const want = mirroredContent(mirrorOf(s, cluster, copies[0]!.metadata.name));
    if (want !== mirroredContent(copies[0]!) && stale++ < 3)
      problems.push(`stale ${s.metadata.namespace}/${s.metadata.name}: ${mirroredContent(copies[0]!)} != ${want}`);
  }
  const srcUids = new Set(src.map((s) => s.metadata.uid!));
  let extra = 0;
  for (const uid of byUid.keys()) if (!srcUids.has(uid) && !extraUids.has(uid)) extra++;
  for (const uid of extraUids) if (!byUid.has(uid)) problems.push(`lost ${uid}`);
  if (problems.length === 0 && extra === 0) return '';
  return `source ${src.length}, copies ${dst.length}, missing ${missing}, stale ${stale}, dups ${dups}, unknown ${extra}: ${problems.slice(0, 8).join('; ')}`;
}

/** Polls `check` (which returns '' when satisfied) every `everyMs` until it holds or `ms` pass. */
export async function eventually(check: () => Promise<string>, ms: number, everyMs = 500): Promise<void> {
  let last = '';
  await waitFor(
    async () => (last = await check()) === '',
    ms,
    (err) => `not within ${ms} ms: ${err === undefined ? last : String((err as Error).message ?? err)}`,
    { intervalMs: everyMs, retryErrors: true },
  );
}

/** Reads one sample of a Prometheus text exposition (0 when absent). */
export async function metric(probeUrl: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${probeUrl}/metrics`)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf('}'));
    if (want.every((w) => inner.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/**
 * The probe URL a controller child logs (`serving /healthz /readyz /metrics`), waited for: the
 * line comes just after "controllers started", which is what starting a child waits for.
 */
export async function probeUrl(child: { readonly output: string }, ms = 10_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const line = child.output.split('\n').find((l) => l.includes('"msg":"serving /healthz /readyz /metrics"'));
    if (line) return `http://${(JSON.parse(line) as { address: string }).address}`;
    if (Date.now() > end) throw new Error(`no probe address in: ${child.output.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
