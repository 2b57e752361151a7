import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/*
 * managedFields after a fixed sequence of writes, against what kube-apiserver keeps for the same
 * sequence. The expected entries follow kube's rules, cited at each step:
 * - structured-merge-diff typed/tofieldset.go and typed/compare.go: an Update owns the leaves it
 *   added or changed; a struct (`spec`) owns nothing itself, a map the write created owns
 *   itself (`.`) and its keys; an Apply owns what its configuration sets (`f:labels` without `.`).
 * - merge/update.go `Updater.update`: fields an Update changes are taken from every other
 *   manager; `Updater.Apply`: a field another manager owns is a conflict only when the
 *   configuration changes its value, an unchanged value is shared; force takes conflicting
 *   fields from their managers.
 * - managedfields/internal/stripmeta.go: name, namespace, uid, resourceVersion,
 *   creationTimestamp, managedFields... are owned by nobody.
 * - managedfields/internal/manager.go `prefixFromUserAgent` (the manager without fieldManager)
 *   and internal/fieldmanager_test.go / conflict.go `printManager` (conflict texts).
 * - managedfields/internal/managedfieldsupdater.go: an Apply that changes nothing records no
 *   time (structuredmerge.go's Updater does not return the input on a no-op).
 * - managedfields/internal/managedfields.go `sortEncodedManagedFields`: entries sorted by
 *   operation (Apply first), time (none counts as 0), manager.
 */

let srv: TestServer;

const leaseURL = (name = ''): string =>
  `${srv.url}/apis/coordination.k8s.io/v1/namespaces/seq/leases${name ? `/${name}` : ''}`;

const ua = (tool: string): Record<string, string> => ({
  'user-agent': `${tool}/v1.35.0 (linux/amd64) kubernetes/66452049`,
});

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: unknown;
}

const gv = 'coordination.k8s.io/v1';
const entry = (manager: string, operation: 'Apply' | 'Update', fieldsV1: unknown): Omit<Entry, 'time'> => ({
  manager,
  operation,
  apiVersion: gv,
  fieldsType: 'FieldsV1',
  fieldsV1,
});

/**
 * The entries without their times, after checking they are sorted as kube sorts them, carry
 * whole seconds and keep Go's field order. `untimed` names the entries written without a time.
 */
function entriesOf(obj: { metadata: { managedFields?: Entry[] } }, untimed: string[] = []): Omit<Entry, 'time'>[] {
  const mf = obj.metadata.managedFields ?? [];
  for (const e of mf) {
    if (untimed.includes(e.manager)) expect(e.time).toBeUndefined();
    else expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  }
  const key = (e: Entry): [string, number, string] => [e.operation, e.time ? Date.parse(e.time) : 0, e.manager];
  const sorted = [...mf].sort((a, b) => {
    const [ao, at, am] = key(a);
    const [bo, bt, bm] = key(b);
    return ao !== bo ? (ao < bo ? -1 : 1) : at !== bt ? at - bt : am < bm ? -1 : am > bm ? 1 : 0;
  });
  expect(mf).toEqual(sorted);
  // Key order in every entry is Go's field order.
  for (const e of mf) {
    const order = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1'];
    expect(Object.keys(e)).toEqual(e.time === undefined ? order.filter((k) => k !== 'time') : order);
  }
  return mf.map(({ time: _t, ...rest }) => rest);
}

/** Entries in any order (their order is checked by {@link entriesOf}). */
const sameEntries = (got: Omit<Entry, 'time'>[], want: Omit<Entry, 'time'>[]): void =>
  expect(new Set(got.map((e) => JSON.stringify(e)))).toEqual(new Set(want.map((e) => JSON.stringify(e))));

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv?.close());

describe('managedFields through create, update, merge patch, apply and forced apply (Lease)', () => {
  it('matches what kube-apiserver keeps at every step', async () => {
    // 1. create (kubectl create): one Update entry named after the User-Agent.
    const created = await request(leaseURL(), {
      method: 'POST',
      headers: ua('kubectl-create'),
      body: {
        apiVersion: gv,
        kind: 'Lease',
        metadata: { name: 'l', labels: { app: 'x' } },
        spec: { holderIdentity: 'a', leaseDurationSeconds: 15 },
      },
    });
    expect(created.status).toBe(201);
    const createSet = {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} },
    };
    expect(entriesOf(created.body)).toEqual([entry('kubectl-create', 'Update', createSet)]);

    // 2. update (PUT, kubectl edit): the changed holder and the new annotations map move to kubectl-edit.
    const edited = structuredClone(created.body);
    edited.spec.holderIdentity = 'b';
    edited.metadata.annotations = { note: 'y' };
    const updated = await request(leaseURL('l'), { method: 'PUT', headers: ua('kubectl-edit'), body: edited });
    expect(updated.status).toBe(200);
    sameEntries(entriesOf(updated.body), [
      entry('kubectl-create', 'Update', {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': { 'f:leaseDurationSeconds': {} },
      }),
      entry('kubectl-edit', 'Update', {
        'f:metadata': { 'f:annotations': { '.': {}, 'f:note': {} } },
        'f:spec': { 'f:holderIdentity': {} },
      }),
    ]);

    // 3. merge patch with fieldManager: the duration moves to "patcher"; User-Agent ignored.
    const patched = await request(`${leaseURL('l')}?fieldManager=patcher`, {
      method: 'PATCH',
      headers: { ...ua('kubectl-patch'), 'content-type': 'application/merge-patch+json' },
      body: { spec: { leaseDurationSeconds: 30 } },
    });
    expect(patched.status).toBe(200);
    sameEntries(entriesOf(patched.body), [
      entry('kubectl-create', 'Update', { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }),
      entry('kubectl-edit', 'Update', {
        'f:metadata': { 'f:annotations': { '.': {}, 'f:note': {} } },
        'f:spec': { 'f:holderIdentity': {} },
      }),
      entry('patcher', 'Update', { 'f:spec': { 'f:leaseDurationSeconds': {} } }),
    ]);

    // 4. apply of unchanged values: no conflict; the applier shares the fields (Apply entry
    // first); nothing changed, so no write and the Apply entry has no time.
    const config = (holder: string): string =>
      `apiVersion: ${gv}\nkind: Lease\nmetadata:\n  name: l\n  labels:\n    app: x\nspec:\n  holderIdentity: ${holder}\n`;
    const applied = await request(`${leaseURL('l')}?fieldManager=applier`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: config('b'),
    });
    expect(applied.status).toBe(200);
    const afterApply = [
      entry('applier', 'Apply', {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': { 'f:holderIdentity': {} },
      }),
      entry('kubectl-create', 'Update', { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }),
      entry('kubectl-edit', 'Update', {
        'f:metadata': { 'f:annotations': { '.': {}, 'f:note': {} } },
        'f:spec': { 'f:holderIdentity': {} },
      }),
      entry('patcher', 'Update', { 'f:spec': { 'f:leaseDurationSeconds': {} } }),
    ];
    sameEntries(entriesOf(applied.body, ['applier']), afterApply);
    expect(entriesOf(applied.body, ['applier'])[0]!.manager).toBe('applier');
    expect(applied.body.metadata.resourceVersion).not.toBe(patched.body.metadata.resourceVersion);

    // 5. a second applier changing the holder: a conflict with both owners, nothing written.
    const conflict = await request(`${leaseURL('l')}?fieldManager=applier2`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: config('c'),
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Apply failed with 2 conflicts: conflicts with "applier":\n- .spec.holderIdentity\nconflicts with "kubectl-edit" using coordination.k8s.io/v1:\n- .spec.holderIdentity',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "applier"', field: '.spec.holderIdentity' },
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "kubectl-edit" using coordination.k8s.io/v1',
            field: '.spec.holderIdentity',
          },
        ],
      },
      code: 409,
    });
    const unchanged = await request(leaseURL('l'));
    expect(unchanged.body.metadata.resourceVersion).toBe(applied.body.metadata.resourceVersion);

    // 6. forced: applier2 takes the holder from both; the labels applier2 also applies are shared.
    const forced = await request(`${leaseURL('l')}?fieldManager=applier2&force=true`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: config('c'),
    });
    expect(forced.status).toBe(200);
    expect(forced.body.spec.holderIdentity).toBe('c');
    sameEntries(entriesOf(forced.body, ['applier']), [
      entry('applier', 'Apply', { 'f:metadata': { 'f:labels': { 'f:app': {} } } }),
      entry('applier2', 'Apply', {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': { 'f:holderIdentity': {} },
      }),
      entry('kubectl-create', 'Update', { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }),
      entry('kubectl-edit', 'Update', { 'f:metadata': { 'f:annotations': { '.': {}, 'f:note': {} } } }),
      entry('patcher', 'Update', { 'f:spec': { 'f:leaseDurationSeconds': {} } }),
    ]);

    // 7. applier drops the labels from its configuration: others still own app, so it stays.
    const dropped = await request(`${leaseURL('l')}?fieldManager=applier`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: `apiVersion: ${gv}\nkind: Lease\nmetadata:\n  name: l\n`,
    });
    expect(dropped.status).toBe(200);
    expect(dropped.body.metadata.labels).toEqual({ app: 'x' });
    expect(entriesOf(dropped.body, ['applier']).map((e) => e.manager)).not.toContain('applier');
  });
});

describe('managedFields of an Event written at both versions', () => {
  it('keeps entries written through events.k8s.io/v1 when core v1 updates it, in the version each was written at', async () => {
    const ev = `${srv.url}/apis/events.k8s.io/v1/namespaces/seq/events`;
    const created = await request(ev, { method: 'POST', headers: ua('recorder'), body: sampleEvent('e1', 'seq') });
    expect(created.status).toBe(201);
    expect(entriesOf(created.body)).toEqual([
      {
        manager: 'recorder',
        operation: 'Update',
        apiVersion: 'events.k8s.io/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:action': {},
          'f:eventTime': {},
          'f:note': {},
          'f:reason': {},
          'f:regarding': {},
          'f:reportingController': {},
          'f:reportingInstance': {},
          'f:type': {},
        },
      },
    ]);
    // core/v1 merge patch of the count (deprecatedCount at events.k8s.io/v1): the recorder keeps
    // its fields (the converter compares them at events.k8s.io/v1), the patcher owns count at v1.
    const patched = await request(`${srv.url}/api/v1/namespaces/seq/events/e1`, {
      method: 'PATCH',
      headers: { ...ua('kubectl-patch'), 'content-type': 'application/merge-patch+json' },
      body: { count: 2 },
    });
    expect(patched.status).toBe(200);
    const entries = entriesOf(patched.body);
    expect(entries).toHaveLength(2);
    expect(entries).toContainEqual(created.body.metadata.managedFields.map(({ time: _t, ...e }: Entry) => e)[0]);
    expect(entries).toContainEqual({
      manager: 'kubectl-patch',
      operation: 'Update',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:count': {} },
    });
  });
});

describe('managedFields a client sends that name fields below an atomic one', () => {
  it('are owned as the atomic field, as structured-merge-diff reconciles them with the schema', async () => {
    // regarding is an ObjectReference, atomic in kube's schema (x-kubernetes-map-type: atomic);
    // a manager that names its members owns regarding itself after the next write
    // (merge/update.go reconcileManagedFieldsWithSchemaChanges, typed/reconcile_schema.go).
    const ev = `${srv.url}/apis/events.k8s.io/v1/namespaces/seq/events`;
    const created = await request(ev, { method: 'POST', headers: ua('recorder'), body: sampleEvent('e2', 'seq') });
    expect(created.status).toBe(201);
    const migrated = {
      manager: 'migrated',
      operation: 'Update',
      apiVersion: 'events.k8s.io/v1',
      time: '2026-01-02T03:04:05Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:regarding': { 'f:kind': {}, 'f:name': {} } },
    };
    const body = created.body;
    body.metadata.managedFields = [...body.metadata.managedFields, migrated];
    const replaced = await request(`${ev}/e2`, { method: 'PUT', headers: ua('recorder'), body });
    expect(replaced.status).toBe(200);
    expect(entriesOf(replaced.body)).toContainEqual({
      manager: 'migrated',
      operation: 'Update',
      apiVersion: 'events.k8s.io/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:regarding': {} },
    });
    // So an apply that changes regarding conflicts with it there.
    const applied = await request(`${ev}/e2?fieldManager=applier`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'e2', namespace: 'seq' },
        regarding: { kind: 'Pod', name: 'web-1', namespace: 'seq' },
      },
    });
    expect(applied.status).toBe(409);
    expect(applied.body.details.causes).toContainEqual({
      reason: 'FieldManagerConflict',
      message: 'conflict with "migrated" using events.k8s.io/v1',
      field: '.regarding',
    });
  });
});
