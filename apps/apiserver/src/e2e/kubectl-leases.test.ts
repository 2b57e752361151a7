import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl, request, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
let kubectl: Kubectl;
let dir: string;

const lines = (s: string): string[] =>
  s
    .trimEnd()
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim());

const leaseYaml = (
  name: string,
  namespace: string,
  holder: string,
  duration = 15,
): string => `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  holderIdentity: ${holder}
  leaseDurationSeconds: ${duration}
  acquireTime: "2026-01-02T03:04:05.123456Z"
  renewTime: "2026-01-02T03:04:05.123456Z"
  leaseTransitions: 0
`;

const file = (name: string, content: string): string => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

const leases = (ns: string): string => `${srv.url}/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;

beforeAll(async () => {
  srv = await startTestServer();
  kubectl = new Kubectl(srv.url);
  dir = mkdtempSync(join(tmpdir(), 'kevents-leases-'));
  for (const [ns, name, holder] of [
    ['kube-system', 'kube-controller-manager', 'cp-1_8a3f'],
    ['kube-system', 'kube-scheduler', 'cp-2_77c1'],
    ['apps', 'operator-lock', ''],
  ] as const) {
    const body: Record<string, unknown> = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: ns },
      spec: holder ? { holderIdentity: holder, leaseDurationSeconds: 15 } : {},
    };
    const r = await request(leases(ns), { method: 'POST', body });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => srv?.close());

describe('kubectl get leases', () => {
  it('-A prints NAMESPACE, NAME, HOLDER, AGE (the server-side Table of kube-apiserver)', async () => {
    const r = await kubectl.run(['get', 'leases', '-A']);
    expect(r.stderr).toBe('');
    const out = lines(r.stdout);
    expect(out[0]).toBe('NAMESPACE NAME HOLDER AGE');
    // Sorted by namespace, then name; an empty holder is an empty cell.
    expect(out.slice(1)).toEqual([
      expect.stringMatching(/^apps operator-lock \d+s$/),
      expect.stringMatching(/^kube-system kube-controller-manager cp-1_8a3f \d+s$/),
      expect.stringMatching(/^kube-system kube-scheduler cp-2_77c1 \d+s$/),
    ]);
  });

  it('one namespace prints NAME, HOLDER, AGE; the short group-qualified names work', async () => {
    for (const what of ['leases', 'lease', 'leases.coordination.k8s.io', 'lease.coordination.k8s.io']) {
      const r = await kubectl.run(['get', what, '-n', 'kube-system']);
      expect({ what, stderr: r.stderr }).toEqual({ what, stderr: '' });
      const out = lines(r.stdout);
      expect(out[0]).toBe('NAME HOLDER AGE');
      expect(out.slice(1)).toEqual([
        expect.stringMatching(/^kube-controller-manager cp-1_8a3f \d+s$/),
        expect.stringMatching(/^kube-scheduler cp-2_77c1 \d+s$/),
      ]);
    }
  });

  it('an empty namespace says so', async () => {
    const r = await kubectl.run(['get', 'leases', '-n', 'nothing-here']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe('No resources found in nothing-here namespace.');
  });

  it('-o yaml prints the Lease with MicroTime kept to the microsecond', async () => {
    const p = file('yaml.yaml', leaseYaml('yaml', 'kl-yaml', 'me'));
    expect((await kubectl.run(['create', '-f', p])).code).toBe(0);
    const r = await kubectl.run(['get', 'lease', 'yaml', '-n', 'kl-yaml', '-o', 'yaml']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('apiVersion: coordination.k8s.io/v1\nkind: Lease\n');
    expect(r.stdout).toContain('  acquireTime: "2026-01-02T03:04:05.123456Z"\n');
    expect(r.stdout).toContain('  renewTime: "2026-01-02T03:04:05.123456Z"\n');
    expect(r.stdout).toContain('  holderIdentity: me\n');
    expect(r.stdout).toContain('  leaseDurationSeconds: 15\n');
    expect(r.stdout).toContain('  leaseTransitions: 0\n');
  });
});

describe('kubectl create, apply and delete on leases', () => {
  it('create -f: created, then AlreadyExists', async () => {
    const p = file('create.yaml', leaseYaml('created', 'kl-create', 'node-a'));
    const r = await kubectl.run(['create', '-f', p]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('lease.coordination.k8s.io/created created');
    const again = await kubectl.run(['create', '-f', p]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      'Error from server (AlreadyExists): error when creating "' +
        p +
        '": leases.coordination.k8s.io "created" already exists',
    );
  });

  it('create -f of an invalid lease: the Invalid error of ValidateLease', async () => {
    const p = file('invalid.yaml', leaseYaml('bad', 'kl-create', 'node-a', 0));
    const r = await kubectl.run(['create', '-f', p]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `The Lease "bad" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0`,
    );
  });

  it('client-side apply: created, configured, unchanged', async () => {
    const p = file('apply.yaml', leaseYaml('applied', 'kl-apply', 'node-a'));
    const first = await kubectl.run(['apply', '-f', p]);
    expect(first.stderr).toBe('');
    expect(first.stdout.trim()).toBe('lease.coordination.k8s.io/applied created');
    const created = await request(`${leases('kl-apply')}/applied`);
    expect(
      JSON.parse(created.body.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']),
    ).toMatchObject({ kind: 'Lease', spec: { holderIdentity: 'node-a' } });

    writeFileSync(p, leaseYaml('applied', 'kl-apply', 'node-b'));
    const second = await kubectl.run(['apply', '-f', p]);
    expect(second.stderr).toBe('');
    expect(second.stdout.trim()).toBe('lease.coordination.k8s.io/applied configured');
    const configured = await request(`${leases('kl-apply')}/applied`);
    expect(configured.body.spec.holderIdentity).toBe('node-b');
    expect(Number(configured.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.body.metadata.resourceVersion),
    );

    const third = await kubectl.run(['apply', '-f', p]);
    expect(third.stderr).toBe('');
    expect(third.stdout.trim()).toBe('lease.coordination.k8s.io/applied unchanged');
    const unchanged = await request(`${leases('kl-apply')}/applied`);
    expect(unchanged.body.metadata.resourceVersion).toBe(configured.body.metadata.resourceVersion);
  });

  it('delete: deleted, then NotFound', async () => {
    const p = file('delete.yaml', leaseYaml('doomed', 'kl-delete', 'node-a'));
    expect((await kubectl.run(['create', '-f', p])).code).toBe(0);
    const r = await kubectl.run(['delete', 'lease', 'doomed', '-n', 'kl-delete']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('lease.coordination.k8s.io "doomed" deleted');
    expect((await request(`${leases('kl-delete')}/doomed`)).status).toBe(404);
    const again = await kubectl.run(['delete', 'lease', 'doomed', '-n', 'kl-delete']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('Error from server (NotFound): leases.coordination.k8s.io "doomed" not found');
  });

  it('delete -f deletes what the file names', async () => {
    const p = file('delete-f.yaml', leaseYaml('by-file', 'kl-delete', 'node-a'));
    expect((await kubectl.run(['create', '-f', p])).code).toBe(0);
    const r = await kubectl.run(['delete', '-f', p]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('lease.coordination.k8s.io "by-file" deleted');
  });
});

describe('kubectl get lease -w', () => {
  it('prints the lease, then a row for each update', async () => {
    const p = file('watch.yaml', leaseYaml('watched', 'kl-watch', 'node-a'));
    expect((await kubectl.run(['create', '-f', p])).code).toBe(0);
    // -v=7 logs each request before it is sent: if kubectl stalls, the failure names the request it waits on.
    const w = kubectl.spawn(['get', 'lease', 'watched', '-n', 'kl-watch', '-w', '-v=7']);
    try {
      const initial = await waitForOutput(w, (o) => o.includes('node-a'), 30_000);
      expect(lines(initial)[0]).toBe('NAME HOLDER AGE');
      expect(lines(initial)[1]).toMatch(/^watched node-a \d+s$/);
      // 30 s as for the first row: under CI's load kubectl has printed nothing for 15 s.
      const seen = waitForOutput(w, (o) => o.includes('node-b'), 30_000);
      const current = await request(`${leases('kl-watch')}/watched`);
      const put = await request(`${leases('kl-watch')}/watched`, {
        method: 'PUT',
        body: { ...current.body, spec: { ...current.body.spec, holderIdentity: 'node-b', leaseTransitions: 1 } },
      });
      expect(put.status).toBe(200);
      expect(lines(await seen).pop()).toMatch(/^watched node-b \d+s$/);
    } finally {
      w.kill();
    }
  }, 90_000);
});

describe('kubectl explain and api-resources', () => {
  it('explain lease.spec prints the LeaseSpec fields with their descriptions', async () => {
    const r = await kubectl.run(['explain', 'lease.spec']);
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(out).toMatch(
      /^GROUP: {6}coordination\.k8s\.io\nKIND: {7}Lease\nVERSION: {4}v1\n\nFIELD: spec <LeaseSpec>\n/,
    );
    expect(out).toContain('LeaseSpec is a specification of a Lease.');
    expect(out).toContain('\nFIELDS:\n');
    const fields = [...out.matchAll(/^ {2}(\w+)\t<(\w+)>$/gm)].map((m) => `${m[1]} <${m[2]}>`);
    expect(fields).toEqual(
      expect.arrayContaining([
        'acquireTime <string>',
        'holderIdentity <string>',
        'leaseDurationSeconds <integer>',
        'leaseTransitions <integer>',
        'renewTime <string>',
      ]),
    );
    expect(out).toContain('acquireTime is a time when the current lease was acquired.');
  });

  it('explain lease.spec.leaseDurationSeconds prints one field', async () => {
    const r = await kubectl.run(['explain', 'lease.spec.leaseDurationSeconds']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^GROUP: {6}coordination\.k8s\.io\nKIND: {7}Lease\nVERSION: {4}v1\n\nFIELD: leaseDurationSeconds <integer>\n/,
    );
    expect(r.stdout).toContain('leaseDurationSeconds is a duration that candidates for a lease need to wait');
  });

  it('api-resources --api-group=coordination.k8s.io lists leases', async () => {
    const r = await kubectl.run(['api-resources', '--api-group=coordination.k8s.io']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'leases coordination.k8s.io/v1 true Lease',
    ]);
  });

  it('api-resources -o wide shows the verbs of leases', async () => {
    const r = await kubectl.run(['api-resources', '--api-group=coordination.k8s.io', '-o', 'wide']);
    expect(r.stderr).toBe('');
    const out = lines(r.stdout);
    expect(out[0]).toBe('NAME SHORTNAMES APIVERSION NAMESPACED KIND VERBS CATEGORIES');
    expect(out[1]).toBe(
      'leases coordination.k8s.io/v1 true Lease create,delete,deletecollection,get,list,patch,update,watch',
    );
  });
});
