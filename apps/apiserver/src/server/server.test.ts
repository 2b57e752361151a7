import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort } from '@kevents/api/testing';
import { Kubectl, request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv.close());

describe('discovery', () => {
  it('serves /api, /api/v1, /apis, the events group and version', async () => {
    const api = await request(`${srv.url}/api`);
    expect(api.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = await request(`${srv.url}/api/v1`);
    expect(v1.body.groupVersion).toBe('v1');
    const served = v1.body.resources.filter((r: { verbs: string[] }) => r.verbs.length > 0);
    expect(served.map((r: { name: string }) => r.name)).toEqual(['events', 'namespaces']);
    expect(v1.body.resources.find((r: { name: string }) => r.name === 'pods')).toEqual({
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: [],
      shortNames: ['po'],
    });
    const apis = await request(`${srv.url}/apis`);
    expect(apis.body.kind).toBe('APIGroupList');
    expect(apis.body.groups[0]).toEqual({
      name: 'events.k8s.io',
      versions: [{ groupVersion: 'events.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'events.k8s.io/v1', version: 'v1' },
    });
    expect(apis.body.groups.map((g: { name: string }) => g.name)).toEqual([
      'events.k8s.io',
      'coordination.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'apps',
      'batch',
    ]);
    expect((await request(`${srv.url}/apis/apps/v1`)).body.resources.map((r: { name: string }) => r.name)).toEqual([
      'daemonsets',
      'deployments',
      'replicasets',
      'statefulsets',
    ]);
    expect((await request(`${srv.url}/api/v1/namespaces/a/pods`)).status).toBe(404);
    const group = await request(`${srv.url}/apis/events.k8s.io`);
    expect(group.body.kind).toBe('APIGroup');
    const gv = await request(`${srv.url}/apis/events.k8s.io/v1`);
    expect(gv.body.resources).toEqual([
      {
        name: 'events',
        singularName: 'event',
        namespaced: true,
        kind: 'Event',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['ev'],
        storageVersionHash: 'r2yiGXH7wu8=',
      },
    ]);
    expect(gv.headers.get('content-type')).toBe('application/json');
    expect((await request(`${srv.url}/apis/events.k8s.io/v1/`)).body.kind).toBe('APIResourceList');
    expect((await request(`${srv.url}/api/v1/`)).body.kind).toBe('APIResourceList');
  });

  it('follows --group-domain', async () => {
    const other = await startTestServer({ groupDomain: 'example.com' });
    try {
      expect((await request(`${other.url}/apis`)).body.groups[0].name).toBe('events.example.com');
      const created = await request(`${other.url}/apis/events.example.com/v1/namespaces/a/events`, {
        method: 'POST',
        body: { ...sampleEvent('x', 'a'), apiVersion: 'events.example.com/v1' },
      });
      expect(created.status).toBe(201);
      expect(created.body.apiVersion).toBe('events.example.com/v1');
    } finally {
      await other.close();
    }
  });
});

describe('health, version, metrics, namespaces', () => {
  it('answers /healthz, /livez, /readyz (verbose too)', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) expect((await request(`${srv.url}${p}`)).text).toBe('ok');
    expect((await request(`${srv.url}/readyz?verbose`)).text).toBe(
      '[+]ping ok\n[+]storage ok\n[+]shutdown ok\nreadyz check passed\n',
    );
  });

  it('reports /readyz failed when the store is closed', async () => {
    const other = await startTestServer();
    await other.storage.close();
    const r = await request(`${other.url}/readyz?verbose`);
    expect(r.status).toBe(500);
    expect(r.text).toContain('[-]storage failed: reason withheld');
    await other.server.app.close();
  });

  it('serves /version', async () => {
    const v = await request(`${srv.url}/version`);
    expect(v.body.major).toBe('1');
    expect(v.body.gitVersion).toMatch(/^v1\.\d+\.\d+-kevents\./);
  });

  it('counts requests in Prometheus format with Kubernetes labels', async () => {
    await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/m/events`, {
      method: 'POST',
      body: sampleEvent('m1', 'm'),
    });
    await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/m/events/m1`);
    await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/m/events/none`);
    const m = await request(`${srv.url}/metrics`);
    expect(m.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(m.text).toContain(
      'apiserver_request_total{code="201",component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="resource",subresource="",verb="POST",version="v1"} 1',
    );
    expect(m.text).toContain(
      'apiserver_request_total{code="404",component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="resource",subresource="",verb="GET",version="v1"} 1',
    );
    expect(m.text).toMatch(
      /apiserver_request_duration_seconds_bucket\{le="0.005",component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="resource",subresource="",verb="POST",version="v1"\} \d/,
    );
    const ctrl = new AbortController();
    await fetch(`${srv.url}/apis/events.k8s.io/v1/events?watch=true`, { signal: ctrl.signal });
    await new Promise((r) => setTimeout(r, 50));
    expect((await request(`${srv.url}/metrics`)).text).toContain(
      'apiserver_longrunning_requests{component="apiserver",group="events.k8s.io",resource="events",scope="cluster",subresource="",verb="WATCH",version="v1"} 1',
    );
    ctrl.abort();
    await (await fetch(`${srv.url}/apis/events.k8s.io/v1/events?watch=true&timeoutSeconds=1`)).text();
    expect((await request(`${srv.url}/metrics`)).text).toMatch(
      /apiserver_request_total\{code="200",component="apiserver",dry_run="",group="events.k8s.io",resource="events",scope="cluster",subresource="",verb="WATCH",version="v1"\} 2/,
    );
  });

  it('synthesizes Active namespaces', async () => {
    const ns = await request(`${srv.url}/api/v1/namespaces/anything`);
    expect(ns.body).toMatchObject({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'anything' },
      status: { phase: 'Active' },
    });
    const bad = await request(`${srv.url}/api/v1/namespaces/Not_Valid`);
    expect(bad.status).toBe(404);
    expect(bad.body.message).toBe('namespaces "Not_Valid" not found');
    const list = await request(`${srv.url}/api/v1/namespaces`);
    expect(list.body.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(
      expect.arrayContaining(['default', 'kube-system', 'm']),
    );
  });

  it('writes /version indented, as kube-apiserver’s WriteRawJSON does', async () => {
    const r = await request(`${srv.url}/version`);
    expect(r.text).toMatch(/^\{\n {2}"major": "1",[^]*\n\}$/);
    expect(r.headers.get('content-type')).toBe('application/json');
  });

  it('pretty-prints as kube’s isPrettyPrint: ?pretty as strconv.ParseBool reads it, else for curl, Wget and browsers', async () => {
    const path = `${srv.url}/api/v1/namespaces/default`;
    const indented = (r: { text: string }): boolean => r.text.startsWith('{\n  "');
    expect(indented(await request(path))).toBe(false);
    expect(indented(await request(`${path}?pretty=true`))).toBe(true);
    expect(indented(await request(`${path}?pretty=T`))).toBe(true);
    expect(indented(await request(`${path}?pretty=yes`))).toBe(false);
    // kube reads the parameter only when the raw query holds `pretty`.
    expect(indented(await request(`${path}?%70retty=1`))).toBe(false);
    for (const ua of ['curl/8.5.0', 'Wget/1.21', 'Mozilla/5.0 (X11; Linux x86_64)']) {
      expect(indented(await request(path, { headers: { 'user-agent': ua } }))).toBe(true);
      expect(indented(await request(`${path}?pretty=`, { headers: { 'user-agent': ua } }))).toBe(true);
      expect(indented(await request(`${path}?pretty=false`, { headers: { 'user-agent': ua } }))).toBe(false);
    }
    expect(indented(await request(path, { headers: { 'user-agent': 'kubectl/v1.35.0 (linux/amd64)' } }))).toBe(false);
    expect(indented(await request(path, { headers: { accept: 'application/json;pretty=1' } }))).toBe(true);
  });
});

const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

// The binary runs built code (dist/) in child processes, out of reach of mutants: mutation runs
// (jest.mutation.config.js sets KEVENTS_MUTATION_RUN) leave it out.
(process.env['KEVENTS_MUTATION_RUN'] ? describe.skip : describe)('kevents-apiserver binary', () => {
  it('is built (npm test builds first)', () => {
    expect(existsSync(main)).toBe(true);
  });

  it('prints --help', async () => {
    const out = await new Promise<string>((resolve) =>
      execFile(process.execPath, [main, '--help'], (_e, stdout) => resolve(stdout)),
    );
    expect(out).toContain('Usage:');
    expect(out).toContain('--storage=string');
    expect(out).toContain('validate-config');
  });

  it('refuses an unknown flag with exit code 2', async () => {
    const code = await new Promise<number>((resolve) =>
      execFile(process.execPath, [main, '--nope'], (e) => resolve(e ? Number((e as { code?: number }).code) : 0)),
    );
    expect(code).toBe(2);
  });

  it('refuses --insecure-port on a non-loopback address', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [main, '--bind-address=0.0.0.0', '--insecure-port=18999', '--secure-port=0'],
        (e, _o, stderr) => resolve({ code: e ? Number((e as { code?: number }).code) : 0, stderr }),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--insecure-port is refused on the non-loopback address 0.0.0.0');
  });

  it('exits 1 with one line naming the flag when a port is in use, even after the other port listened', async () => {
    const busy = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const securePort = await freePort();
    try {
      const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [main, `--secure-port=${securePort}`, `--insecure-port=${port}`],
          { timeout: 30_000 },
          (e, _o, stderr) => resolve({ code: e ? Number((e as { code?: number }).code) : 0, stderr }),
        ),
      );
      expect(r).toEqual({
        code: 1,
        stderr: `kevents-apiserver: --insecure-port=${port}: 127.0.0.1:${port} is in use already; stop what listens there or pick another port\n`,
      });
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('serves HTTPS with a generated certificate and exits 0 on SIGTERM, ending watches', async () => {
    const child = spawn(process.execPath, [main, '--secure-port=0', '--insecure-port=0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const err = await new Promise<string>((resolve) => {
      let s = '';
      child.stderr.on('data', (d: Buffer) => (s += d.toString()));
      child.on('exit', () => resolve(s));
    });
    expect(err).toContain('nothing to serve');

    const [securePort, insecurePort] = [await freePort(), await freePort()];
    const proc = spawn(process.execPath, [main, `--secure-port=${securePort}`, `--insecure-port=${insecurePort}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no start: ${log}`)), 15_000);
      proc.stdout.on('data', (d: Buffer) => {
        log += d.toString();
        if (log.includes('web view:')) {
          clearTimeout(t);
          resolve();
        }
      });
    });
    expect(log).toContain(`on https://127.0.0.1:${securePort}`);
    expect(log).toContain(`try: kubectl --server http://127.0.0.1:${insecurePort} get events.events.k8s.io -A`);
    expect(log).toContain('storage: memory');
    expect(log).toContain(`web view: http://127.0.0.1:${insecurePort}/ui/`);
    const https = await new Promise<number>((resolve, reject) => {
      import('node:https').then(
        ({ get }) =>
          get(`https://127.0.0.1:${securePort}/readyz`, { rejectUnauthorized: false }, (res) =>
            resolve(res.statusCode ?? 0),
          ).on('error', reject),
        reject,
      );
    });
    expect(https).toBe(200);
    const res = await fetch(`http://127.0.0.1:${insecurePort}/apis/events.k8s.io/v1/events?watch=true`);
    const reader = res.body!.getReader();
    const streamEnded = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await streamEnded).toBe(true);
  });

  it('prints a kubectl command for its HTTPS port that works as printed, with no kubeconfig user', async () => {
    const securePort = await freePort();
    const proc = spawn(process.execPath, [main, `--secure-port=${securePort}`, '--insecure-port=0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let log = '';
      const hint = await new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no hint: ${log}`)), 15_000);
        proc.stdout.on('data', (d: Buffer) => {
          log += d.toString();
          const m = /try: kubectl (.*?)(?:"|\n)/.exec(log);
          if (m) {
            clearTimeout(t);
            resolve(m[1]!);
          }
        });
      });
      const args = hint.split(' ');
      expect(args.slice(0, 2)).toEqual(['--server', `https://127.0.0.1:${securePort}`]);
      const out = await new Kubectl(args[1]!).run(args.slice(2));
      expect(out).toMatchObject({ code: 0, stderr: 'No resources found\n' });
    } finally {
      proc.kill('SIGTERM');
    }
  });
});
