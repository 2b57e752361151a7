import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl, request, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/** `kubectl apply --server-side` against kevents: the checklist of issue 34, with real kubectl. */

let srv: TestServer;
let kubectl: Kubectl;
let dir: string;

const file = (name: string, content: string): string => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

const lease = (name: string, holder: string, extra = ''): string => `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: ${name}
  namespace: ssa
${extra}spec:
  holderIdentity: ${holder}
  leaseDurationSeconds: 15
`;

const event = (name: string, labels = ''): string => `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: ${name}
  namespace: ssa
${labels}eventTime: "2026-01-02T03:04:05.123456Z"
reportingController: example.com/sched
reportingInstance: sched-1
action: Scheduled
reason: Scheduled
type: Normal
note: assigned web-0 to node-1
regarding:
  kind: Pod
  namespace: ssa
  name: web-0
  apiVersion: v1
`;

const leaseURL = (name: string): string => `${srv.url}/apis/coordination.k8s.io/v1/namespaces/ssa/leases/${name}`;
const eventURL = (name: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/ssa/events/${name}`;

async function ok(args: string[]): Promise<string> {
  const r = await kubectl.run(args);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  return r.stdout;
}

beforeAll(async () => {
  srv = await startTestServer();
  kubectl = new Kubectl(srv.url);
  dir = mkdtempSync(join(tmpdir(), 'kevents-ssa-'));
});
afterAll(async () => srv?.close());

describe('kubectl apply --server-side', () => {
  it('creates, and a second identical apply writes nothing (same resourceVersion)', async () => {
    const f = file('l1.yaml', lease('l1', 'a'));
    expect(await ok(['apply', '--server-side', '-f', f])).toBe('lease.coordination.k8s.io/l1 serverside-applied\n');
    const first = await request(leaseURL('l1'));
    expect(first.body.spec).toEqual({ holderIdentity: 'a', leaseDurationSeconds: 15 });
    expect(await ok(['apply', '--server-side', '-f', f])).toBe('lease.coordination.k8s.io/l1 serverside-applied\n');
    const second = await request(leaseURL('l1'));
    expect(second.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
    expect(second.body.metadata.managedFields).toEqual(first.body.metadata.managedFields);
  });

  it('answers a second manager changing the same field with kube-apiserver 409; --force-conflicts takes it over', async () => {
    await ok(['apply', '--server-side', '-f', file('l2.yaml', lease('l2', 'a'))]);
    const other = file('l2-other.yaml', lease('l2', 'b'));
    const r = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', other]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Apply failed with 1 conflict: conflict with "kubectl": .spec.holderIdentity\n');
    expect(r.stderr).toContain('re-run the apply\n  command with the `--force-conflicts` flag.');
    expect((await request(leaseURL('l2'))).body.spec.holderIdentity).toBe('a');

    await ok(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other]);
    const after = await request(leaseURL('l2'));
    expect(after.body.spec.holderIdentity).toBe('b');
    const owners = Object.fromEntries(
      after.body.metadata.managedFields.map((e: { manager: string; fieldsV1: unknown }) => [e.manager, e.fieldsV1]),
    );
    expect(owners).toEqual({
      kubectl: { 'f:spec': { 'f:leaseDurationSeconds': {} } },
      other: { 'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} } },
    });
  });

  it('removes a field dropped from the manifest when no other manager owns it', async () => {
    await ok([
      'apply',
      '--server-side',
      '-f',
      file('l3.yaml', lease('l3', 'a', '  labels:\n    app: web\n    tier: db\n')),
    ]);
    await ok(['apply', '--server-side', '-f', file('l3b.yaml', lease('l3', 'a', '  labels:\n    app: web\n'))]);
    expect((await request(leaseURL('l3'))).body.metadata.labels).toEqual({ app: 'web' });
  });

  it('--dry-run=server stores nothing', async () => {
    const out = await ok(['apply', '--server-side', '--dry-run=server', '-f', file('l4.yaml', lease('l4', 'a'))]);
    expect(out).toBe('lease.coordination.k8s.io/l4 serverside-applied (server dry run)\n');
    expect((await request(leaseURL('l4'))).status).toBe(404);
    await ok(['apply', '--server-side', '-f', file('l4.yaml', lease('l4', 'a'))]);
    const before = await request(leaseURL('l4'));
    await ok(['apply', '--server-side', '--dry-run=server', '-f', file('l4b.yaml', lease('l4', 'z'))]);
    const after = await request(leaseURL('l4'));
    expect(after.body.spec.holderIdentity).toBe('a');
    expect(after.body.metadata.resourceVersion).toBe(before.body.metadata.resourceVersion);
  });

  it('after client-side apply, upgrades ownership from kubectl-client-side-apply to kubectl', async () => {
    const csa = file('e1.yaml', event('e1'));
    await ok(['apply', '-f', csa]);
    const before = await request(eventURL('e1'));
    expect(before.body.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual([
      'kubectl-client-side-apply',
    ]);
    // Adds a label: no conflict, and kubectl's migration hands every field over to the applier.
    await ok(['apply', '--server-side', '-f', file('e1b.yaml', event('e1', '  labels:\n    tier: web\n'))]);
    const after = await request(eventURL('e1'));
    const managers = after.body.metadata.managedFields.map((e: { manager: string; operation: string }) => [
      e.manager,
      e.operation,
    ]);
    expect(managers).toContainEqual(['kubectl', 'Apply']);
    expect(managers).not.toContainEqual(['kubectl-client-side-apply', 'Update']);
    const kubectlEntry = after.body.metadata.managedFields.find((e: { manager: string }) => e.manager === 'kubectl');
    expect(kubectlEntry.fieldsV1).toMatchObject({ 'f:note': {}, 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
    expect(after.body.metadata.labels).toEqual({ tier: 'web' });
  });

  it('get -o yaml hides managedFields unless --show-managed-fields, which prints entries as kube-apiserver does', async () => {
    await ok(['apply', '--server-side', '-f', file('e2.yaml', event('e2'))]);
    expect(await ok(['get', 'events.events.k8s.io', 'e2', '-n', 'ssa', '-o', 'yaml'])).not.toContain('managedFields');
    const shown = await ok(['get', 'events.events.k8s.io', 'e2', '-n', 'ssa', '-o', 'yaml', '--show-managed-fields']);
    expect(shown).toMatch(
      /\n {2}managedFields:\n {2}- apiVersion: events\.k8s\.io\/v1\n {4}fieldsType: FieldsV1\n {4}fieldsV1:\n {6}f:action: \{\}\n {6}f:eventTime: \{\}\n {6}f:note: \{\}\n {6}f:reason: \{\}\n {6}f:regarding: \{\}\n {6}f:reportingController: \{\}\n {6}f:reportingInstance: \{\}\n {6}f:type: \{\}\n {4}manager: kubectl\n {4}operation: Apply\n {4}time: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\n/,
    );
    // Tables (kubectl get) never show them.
    expect(await ok(['get', 'events.events.k8s.io', '-n', 'ssa'])).not.toContain('managedFields');
  });

  it('kubectl create records kubectl-create; kubectl label records kubectl-label', async () => {
    await ok(['create', '-f', file('l5.yaml', lease('l5', 'a'))]);
    await ok(['label', 'lease', 'l5', '-n', 'ssa', 'app=x']);
    const got = await request(leaseURL('l5'));
    expect(
      got.body.metadata.managedFields.map((e: { manager: string; operation: string; fieldsV1: unknown }) => [
        e.manager,
        e.operation,
        e.fieldsV1,
      ]),
    ).toEqual([
      ['kubectl-create', 'Update', { 'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} } }],
      ['kubectl-label', 'Update', { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }],
    ]);
  });
});
