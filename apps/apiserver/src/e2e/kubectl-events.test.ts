import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl, request, sampleEvent, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
let kubectl: Kubectl;
const ago = (minutes: number, micros = false): string => {
  const iso = new Date(Date.now() - minutes * 60_000).toISOString();
  return micros ? iso.replace(/\.(\d{3})Z$/, '.$1000Z') : iso.replace(/\.\d{3}Z$/, 'Z');
};
const lines = (s: string): string[] =>
  s
    .trimEnd()
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim());

beforeAll(async () => {
  srv = await startTestServer();
  kubectl = new Kubectl(srv.url);
  await request(`${srv.url}/api/v1/namespaces/shop/events`, {
    method: 'POST',
    body: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-0.backoff', namespace: 'shop' },
      involvedObject: {
        kind: 'Pod',
        name: 'web-0',
        namespace: 'shop',
        apiVersion: 'v1',
        fieldPath: 'spec.containers{web}',
      },
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: ago(180),
      lastTimestamp: ago(30),
      count: 5,
      type: 'Warning',
    },
  });
  await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/shop/events`, {
    method: 'POST',
    body: sampleEvent('web-0.scheduled', 'shop', {
      eventTime: ago(45, true),
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-cp-1',
      reason: 'Scheduled',
      action: 'Binding',
      note: 'Successfully assigned shop/web-0 to node-1',
      regarding: { kind: 'Pod', name: 'web-0', namespace: 'shop', apiVersion: 'v1' },
    }),
  });
  await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/ops/events`, {
    method: 'POST',
    body: sampleEvent('db.sync', 'ops', {
      eventTime: ago(240, true),
      series: { count: 12, lastObservedTime: ago(20, true) },
      reportingController: 'example.com/operator',
      reportingInstance: 'operator-0',
      reason: 'Synced',
      note: 'Synced database',
      regarding: { kind: 'Deployment', name: 'db', namespace: 'ops', apiVersion: 'apps/v1' },
    }),
  });
});
afterAll(async () => srv.close());

describe('kubectl get events (core v1 view, server-side Table)', () => {
  it('prints the default columns', async () => {
    const r = await kubectl.run(['get', 'events', '-n', 'shop']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '30m Warning BackOff pod/web-0 Back-off restarting failed container',
      '45m Normal Scheduled pod/web-0 Successfully assigned shop/web-0 to node-1',
    ]);
  });

  it('prints every column with -o wide', async () => {
    const r = await kubectl.run(['get', 'ev', '-n', 'shop', '-o', 'wide']);
    expect(lines(r.stdout)).toEqual([
      'LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME',
      '30m Warning BackOff pod/web-0 spec.containers{web} kubelet, node-1 Back-off restarting failed container 3h 5 web-0.backoff',
      '45m Normal Scheduled pod/web-0 default-scheduler, default-scheduler-cp-1 Successfully assigned shop/web-0 to node-1 45m 1 web-0.scheduled',
    ]);
  });

  it('prints all namespaces with -A, for both groups alike', async () => {
    const core = await kubectl.run(['get', 'events', '-A']);
    const group = await kubectl.run(['get', 'events.events.k8s.io', '-A']);
    expect(lines(core.stdout)).toEqual([
      'NAMESPACE LAST SEEN TYPE REASON OBJECT MESSAGE',
      'ops 20m Normal Synced deployment/db Synced database',
      'shop 30m Warning BackOff pod/web-0 Back-off restarting failed container',
      'shop 45m Normal Scheduled pod/web-0 Successfully assigned shop/web-0 to node-1',
    ]);
    expect(group.stdout).toBe(core.stdout);
  });

  it('filters with --field-selector', async () => {
    const r = await kubectl.run(['get', 'events', '-A', '--field-selector', 'type=Warning']);
    expect(lines(r.stdout)).toEqual([
      'NAMESPACE LAST SEEN TYPE REASON OBJECT MESSAGE',
      'shop 30m Warning BackOff pod/web-0 Back-off restarting failed container',
    ]);
  });

  it('get events -w prints a row for a write made through events.k8s.io', async () => {
    const w = kubectl.spawn(['get', 'events', '-n', 'live', '-w']);
    try {
      await new Promise((r) => setTimeout(r, 1500));
      const seen = waitForOutput(w, (o) => o.includes('live event'), 15_000);
      await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/live/events`, {
        method: 'POST',
        body: sampleEvent('l1', 'live', { eventTime: ago(0, true), note: 'live event' }),
      });
      expect(lines(await seen).pop()).toMatch(/^\d+s Normal Testing pod\/web-0 live event$/);
    } finally {
      w.kill();
    }
  });
});

describe('kubectl events', () => {
  it('lists a namespace, sorted by last seen, with series and counts', async () => {
    const r = await kubectl.run(['events', '-n', 'shop']);
    expect(lines(r.stdout)).toEqual([
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '45m Normal Scheduled Pod/web-0 Successfully assigned shop/web-0 to node-1',
      '30m (x5 over 3h) Warning BackOff Pod/web-0 Back-off restarting failed container',
    ]);
  });

  it('lists all namespaces with -A', async () => {
    const r = await kubectl.run(['events', '-A']);
    expect(lines(r.stdout).filter((l) => !l.startsWith('live '))).toEqual([
      'NAMESPACE LAST SEEN TYPE REASON OBJECT MESSAGE',
      'shop 45m Normal Scheduled Pod/web-0 Successfully assigned shop/web-0 to node-1',
      'shop 30m (x5 over 3h) Warning BackOff Pod/web-0 Back-off restarting failed container',
      'ops 20m (x12 over 4h) Normal Synced Deployment/db Synced database',
    ]);
  });

  it('filters --for pod/NAME and --for deployment/NAME', async () => {
    const pod = await kubectl.run(['events', '-n', 'shop', '--for', 'pod/web-0']);
    expect(lines(pod.stdout)).toHaveLength(3);
    const dep = await kubectl.run(['events', '-n', 'ops', '--for', 'deployment/db']);
    expect(lines(dep.stdout)).toEqual([
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '20m (x12 over 4h) Normal Synced Deployment/db Synced database',
    ]);
  });

  it('filters --types=Warning', async () => {
    const r = await kubectl.run(['events', '-A', '--types=Warning']);
    expect(lines(r.stdout)).toEqual([
      'NAMESPACE LAST SEEN TYPE REASON OBJECT MESSAGE',
      'shop 30m (x5 over 3h) Warning BackOff Pod/web-0 Back-off restarting failed container',
    ]);
  });

  it('says so when a namespace has no events', async () => {
    const r = await kubectl.run(['events', '-n', 'empty']);
    expect(r.stderr.trim()).toBe('No events found in empty namespace.');
  });

  it('-w prints existing events, then new ones', async () => {
    const w = kubectl.spawn(['events', '-n', 'shop', '-w']);
    try {
      await waitForOutput(w, (o) => o.includes('BackOff'), 15_000);
      const seen = waitForOutput(w, (o) => o.includes('Pulled image'), 15_000);
      await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/shop/events`, {
        method: 'POST',
        body: sampleEvent('web-0.pulled', 'shop', {
          eventTime: ago(0, true),
          reason: 'Pulled',
          note: 'Pulled image',
          regarding: { kind: 'Pod', name: 'web-0', namespace: 'shop', apiVersion: 'v1' },
        }),
      });
      expect(lines(await seen).pop()).toMatch(/^\d+s Normal Pulled Pod\/web-0 Pulled image$/);
    } finally {
      w.kill();
    }
  });
});
