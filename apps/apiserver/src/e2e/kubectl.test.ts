import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { Kubectl, request, sampleEvent, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
let kubectl: Kubectl;
const dir = mkdtempSync(join(tmpdir(), 'kevents-e2e-'));
const file = (name: string, obj: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, stringify(obj));
  return p;
};

beforeAll(async () => {
  srv = await startTestServer();
  kubectl = new Kubectl(srv.url);
});
afterAll(async () => srv.close());

describe('real kubectl against kevents (events.k8s.io/v1)', () => {
  it('lists events in api-resources for both groups', async () => {
    const r = await kubectl.run(['api-resources']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^events\s+ev\s+v1\s+true\s+Event$/m);
    expect(r.stdout).toMatch(/^events\s+ev\s+events\.k8s\.io\/v1\s+true\s+Event$/m);
  });

  it('creates from a file and reads back with get -A and -o yaml', async () => {
    const r = await kubectl.run(['create', '-f', file('a.yaml', sampleEvent('alpha', 'team-a')), '--validate=false']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('event.events.k8s.io/alpha created');
    const all = await kubectl.run(['get', 'events.events.k8s.io', '-A']);
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n')[0]).toMatch(/^NAMESPACE\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    expect(all.stdout).toMatch(/team-a\s+\S+\s+Normal\s+Testing\s+pod\/web-0\s+event alpha/);
    const y = await kubectl.run(['get', 'events.events.k8s.io', '-n', 'team-a', 'alpha', '-o', 'yaml']);
    expect(y.stdout).toContain('apiVersion: events.k8s.io/v1');
    expect(y.stdout).toContain('eventTime: "2026-01-02T03:04:05.123456Z"');
    expect(y.stdout).toMatch(/resourceVersion: "\d+"/);
    expect(y.stdout).toMatch(/uid: [0-9a-f-]{36}/);
  });

  it('prints Kubernetes NotFound for a missing event', async () => {
    const r = await kubectl.run(['get', 'events.events.k8s.io', '-n', 'team-a', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (NotFound): events.events.k8s.io "nope" not found');
  });

  it('get -w sees a create made from another process', async () => {
    const watch = kubectl.spawn(['get', 'events.events.k8s.io', '-n', 'team-w', '-w', '--no-headers']);
    try {
      await new Promise((r) => setTimeout(r, 1500));
      const seen = waitForOutput(watch, (out) => out.includes('watched-one'), 15_000);
      const other = new Kubectl(srv.url);
      const c = await other.run([
        'create',
        '-f',
        file('w.yaml', sampleEvent('watched', 'team-w', { note: 'watched-one' })),
        '--validate=false',
      ]);
      expect(c.code).toBe(0);
      expect(await seen).toMatch(/Normal\s+Testing\s+pod\/web-0\s+watched-one/);
    } finally {
      watch.kill();
    }
  });

  it('patches with --type=merge and --type=json', async () => {
    await kubectl.run(['create', '-f', file('p.yaml', sampleEvent('patched', 'team-p')), '--validate=false']);
    const m = await kubectl.run([
      'patch',
      'events.events.k8s.io',
      'patched',
      '-n',
      'team-p',
      '--type=merge',
      '-p',
      '{"metadata":{"labels":{"tier":"gold"}}}',
    ]);
    expect(m.stderr).toBe('');
    expect(m.stdout.trim()).toBe('event.events.k8s.io/patched patched');
    const j = await kubectl.run([
      'patch',
      'events.events.k8s.io',
      'patched',
      '-n',
      'team-p',
      '--type=json',
      '-p',
      '[{"op":"add","path":"/metadata/annotations","value":{"a":"b"}}]',
    ]);
    expect(j.stdout.trim()).toBe('event.events.k8s.io/patched patched');
    const got = await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/team-p/events/patched`);
    expect(got.body.metadata.labels).toEqual({ tier: 'gold' });
    expect(got.body.metadata.annotations).toEqual({ a: 'b' });
    const s = await kubectl.run([
      'patch',
      'events.events.k8s.io',
      'patched',
      '-n',
      'team-p',
      '--type=merge',
      '-p',
      '{"series":{"count":2,"lastObservedTime":"2026-01-02T03:05:00.000000Z"}}',
    ]);
    expect(s.code).toBe(0);
    const bad = await kubectl.run([
      'patch',
      'events.events.k8s.io',
      'patched',
      '-n',
      'team-p',
      '--type=merge',
      '-p',
      '{"note":"changed"}',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(
      'The Event "patched" is invalid: message: Invalid value: "changed": field is immutable',
    );
  });

  it('replaces an event', async () => {
    await kubectl.run(['create', '-f', file('r.yaml', sampleEvent('replaced', 'team-r')), '--validate=false']);
    const next = sampleEvent('replaced', 'team-r', {
      metadata: { name: 'replaced', namespace: 'team-r', labels: { replaced: 'v2' } },
    });
    const r = await kubectl.run(['replace', '-f', file('r2.yaml', next), '--validate=false']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('event.events.k8s.io/replaced replaced');
    const got = await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/team-r/events/replaced`);
    expect(got.body.metadata.labels).toEqual({ replaced: 'v2' });
  });

  it('deletes one event and then all in a namespace', async () => {
    for (const n of ['d1', 'd2', 'd3']) {
      await kubectl.run(['create', '-f', file(`${n}.yaml`, sampleEvent(n, 'team-d')), '--validate=false']);
    }
    const one = await kubectl.run(['delete', 'events.events.k8s.io', 'd1', '-n', 'team-d']);
    expect(one.stdout.trim()).toBe('event.events.k8s.io "d1" deleted');
    const all = await kubectl.run(['delete', 'events.events.k8s.io', '--all', '-n', 'team-d']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('event.events.k8s.io "d2" deleted');
    expect(all.stdout).toContain('event.events.k8s.io "d3" deleted');
    const left = await kubectl.run(['get', 'events.events.k8s.io', '-n', 'team-d']);
    expect(left.stderr.trim()).toBe('No resources found in team-d namespace.');
  });
});
