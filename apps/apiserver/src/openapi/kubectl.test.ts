import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { Kubectl, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/**
 * Real kubectl against kevents with default client validation: kubectl reads /openapi/v3 to
 * learn that PATCH supports fieldValidation, then sends fieldValidation=Strict; apply computes
 * a strategic merge patch from the v3 schema; explain renders the v3 schema.
 */
const dir = mkdtempSync(join(tmpdir(), 'kevents-openapi-e2e-'));
const file = (name: string, obj: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, stringify(obj));
  return p;
};

const coreEvent = (name: string, namespace: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace },
  involvedObject: { kind: 'Pod', name: 'web-0', namespace },
  reason: 'Started',
  message: `core ${name}`,
  type: 'Normal',
  source: { component: 'kubelet' },
  ...extra,
});

let srv: TestServer;
let kubectl: Kubectl;
beforeAll(async () => {
  srv = await startTestServer();
  kubectl = new Kubectl(srv.url);
});
afterAll(async () => srv.close());

describe('kubectl create -f with default validation', () => {
  it('creates an events.k8s.io/v1 Event, sending fieldValidation=Strict', async () => {
    const r = await kubectl.run(['create', '-f', file('create.yaml', sampleEvent('created', 'oa')), '-v=6']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('event.events.k8s.io/created created');
    expect(r.stderr).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/openapi\/v3\/apis\/events\.k8s\.io\/v1\?hash=[0-9A-F]+\S* 200 OK/,
    );
    expect(r.stderr).toMatch(
      /POST \S+\/apis\/events\.k8s\.io\/v1\/namespaces\/oa\/events\?fieldManager=kubectl-create&fieldValidation=Strict 201 Created/,
    );
    expect(r.stderr).not.toContain('/openapi/v2');
  });

  it('creates a core/v1 Event', async () => {
    const r = await kubectl.run(['create', '-f', file('core.yaml', coreEvent('core-created', 'oa'))]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('event/core-created created');
  });

  it('refuses a document with an unknown field, in both groups', async () => {
    const a = await kubectl.run(['create', '-f', file('bad.yaml', sampleEvent('bad', 'oa', { bogusField: 1 }))]);
    expect(a.code).toBe(1);
    expect(a.stderr.trim()).toBe(
      `Error from server (BadRequest): error when creating "${join(dir, 'bad.yaml')}": strict decoding error: unknown field "bogusField"`,
    );
    const b = await kubectl.run(['create', '-f', file('bad-core.yaml', coreEvent('bad-core', 'oa', { spec: {} }))]);
    expect(b.code).toBe(1);
    expect(b.stderr.trim()).toBe(
      `Error from server (BadRequest): error when creating "${join(dir, 'bad-core.yaml')}": strict decoding error: unknown field "spec"`,
    );
    const got = await kubectl.run(['get', 'events.events.k8s.io', '-n', 'oa', 'bad']);
    expect(got.stderr.trim()).toBe('Error from server (NotFound): events.events.k8s.io "bad" not found');
  });
});

describe('kubectl apply -f (client-side)', () => {
  it('creates, then patches a change with a strategic merge patch, then reports unchanged', async () => {
    const first = sampleEvent('applied', 'oa', {
      metadata: { name: 'applied', namespace: 'oa', labels: { stage: 'one' } },
    });
    const a = await kubectl.run(['apply', '-f', file('apply.yaml', first)]);
    expect(a.stderr).toBe('');
    expect(a.stdout.trim()).toBe('event.events.k8s.io/applied created');

    // series and labels are mutable on events.k8s.io/v1 (note, reason, action... are not)
    const second = {
      ...first,
      metadata: { name: 'applied', namespace: 'oa', labels: { stage: 'two' } },
      series: { count: 2, lastObservedTime: '2026-01-02T03:06:07.000000Z' },
    };
    const b = await kubectl.run(['apply', '-f', file('apply.yaml', second), '-v=8']);
    expect(b.code).toBe(0);
    expect(b.stdout.trim()).toBe('event.events.k8s.io/applied configured');
    expect(b.stderr).toContain('Content-Type: application/strategic-merge-patch+json');
    expect(b.stderr).not.toContain('warning: error calculating patch');
    expect(b.stderr).toMatch(/"labels\\":\{\\"stage\\":\\"two\\"\}/);

    const y = await kubectl.run(['get', 'events.events.k8s.io', '-n', 'oa', 'applied', '-o', 'json']);
    const obj = JSON.parse(y.stdout) as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      series: unknown;
    };
    expect(obj.metadata.labels).toEqual({ stage: 'two' });
    expect(obj.series).toEqual({ count: 2, lastObservedTime: '2026-01-02T03:06:07.000000Z' });
    const last = JSON.parse(obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']!) as {
      metadata: { labels: unknown };
      series: unknown;
    };
    expect(last.metadata.labels).toEqual({ stage: 'two' });
    expect(last.series).toEqual(second.series);

    const c = await kubectl.run(['apply', '-f', file('apply.yaml', second)]);
    expect(c.stderr).toBe('');
    expect(c.stdout.trim()).toBe('event.events.k8s.io/applied unchanged');
  });

  it('applies core/v1 Events twice', async () => {
    const a = await kubectl.run(['apply', '-f', file('apply-core.yaml', coreEvent('applied-core', 'oa'))]);
    expect(a.stdout.trim()).toBe('event/applied-core created');
    const b = await kubectl.run([
      'apply',
      '-f',
      file(
        'apply-core.yaml',
        coreEvent('applied-core', 'oa', {
          metadata: { name: 'applied-core', namespace: 'oa', annotations: { team: 'x' } },
        }),
      ),
    ]);
    expect(b.stderr).toBe('');
    expect(b.stdout.trim()).toBe('event/applied-core configured');
  });
});

describe('kubectl explain', () => {
  it('explains core events (what plain `events` resolves to)', async () => {
    const r = await kubectl.run(['explain', 'events']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^KIND:\s+Event\nVERSION:\s+v1\n\nDESCRIPTION:\n\s+Event is a report of an event somewhere in the cluster\./,
    );
    expect(r.stdout).toMatch(/^ {2}involvedObject\t<ObjectReference> -required-$/m);
    expect(r.stdout).toMatch(/^ {2}metadata\t<ObjectMeta> -required-$/m);
    expect(r.stdout).toMatch(/^ {2}series\t<EventSeries>$/m);
  });

  it('explains events.k8s.io/v1 series', async () => {
    const r = await kubectl.run(['explain', 'events.series', '--api-version=events.k8s.io/v1']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^GROUP:\s+events\.k8s\.io\nKIND:\s+Event\nVERSION:\s+v1\n\nFIELD: series <EventSeries>/);
    expect(r.stdout).toMatch(
      /^ {2}count\t<integer> -required-\n {4}count is the number of occurrences in this series/m,
    );
    expect(r.stdout).toMatch(/^ {2}lastObservedTime\t<string> -required-$/m);
  });

  it('explains events.events.k8s.io.series when the group is the only one serving events', async () => {
    // With core events served too, kubectl itself resolves `events.events.k8s.io...` to core/v1
    // (the core group comes first and "events" is a prefix of the argument); that is client logic.
    const only = await startTestServer({ coreView: false });
    try {
      const r = await new Kubectl(only.url).run(['explain', 'events.events.k8s.io.series']);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(
        /^GROUP:\s+events\.k8s\.io\nKIND:\s+Event\nVERSION:\s+v1\n\nFIELD: series <EventSeries>/,
      );
      expect(r.stdout).toContain('lastObservedTime is the time when last Event from the series was seen before');
    } finally {
      await only.close();
    }
  });

  it('explains recursively down to ObjectMeta', async () => {
    const r = await kubectl.run(['explain', 'events.metadata.ownerReferences', '--api-version=events.k8s.io/v1']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/FIELD: ownerReferences <\[\]OwnerReference>/);
    expect(r.stdout).toMatch(/^ {2}uid\t<string> -required-$/m);
  });
});
