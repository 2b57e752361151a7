import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, generateCA, generateClientCert, generateLeaf, waitFor } from '@kevents/api/testing';
import { ensureImages } from './build.js';
import { havePodman, imageExists, podman } from './lib/podman.js';
import { baseRefs } from './lib/base-images.js';

/**
 * The images, run for real: two apiserver containers and a controller container on one Redis container on a
 * podman network, every container non-root with a read-only root filesystem (no tmpfs either) and no
 * capabilities. Skipped with a printed reason where podman cannot run, unless KEVENTS_CONTAINER_TESTS=required
 * (as .ci/run sets it), where that is a failure.
 */
const required = process.env.KEVENTS_CONTAINER_TESTS === 'required';

async function missing(): Promise<string | null> {
  if (process.env.KEVENTS_CONTAINER_TESTS === 'skip') return 'KEVENTS_CONTAINER_TESTS=skip';
  if (!(await havePodman())) return 'podman is not installed or does not run (.ci/install-podman.sh installs it)';
  const haveBases = (await imageExists(baseRefs.node)) && (await imageExists(baseRefs.redis));
  if (!haveBases && process.getuid?.() !== 0) return 'building the base images needs root (debootstrap, chroot)';
  const debootstrap = await new Promise<boolean>((r) => execFile('debootstrap', ['--version'], (err) => r(!err)));
  if (!haveBases && !debootstrap) return 'debootstrap is not installed (.ci/install-podman.sh installs it)';
  const kubectl = await new Promise<boolean>((r) => execFile('kubectl', ['version', '--client'], (err) => r(!err)));
  if (!kubectl) return 'kubectl is not on PATH';
  return null;
}
const reason = await missing();
if (reason && !required) process.stderr.write(`tools/images/containers.test.ts: skipped: ${reason}\n`);

const run = `kevents-e2e-${process.pid}-${randomBytes(3).toString('hex')}`;
const name = (s: string): string => `${run}-${s}`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A CA, a serving certificate for both apiserver containers' names and 127.0.0.1, and a client certificate
 * (system:masters) for kubectl and the controller, as files uid 1000 can read.
 */
async function writeCerts(dir: string): Promise<void> {
  const ca = await generateCA('kevents e2e CA');
  const leaf = await generateLeaf(ca, 'server', [name('api-a'), name('api-b'), 'localhost']);
  const client = await generateClientCert(ca, 'e2e-admin', ['system:masters']);
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'client.crt'), client.cert, { mode: 0o644 });
  writeFileSync(join(dir, 'client.key'), client.key, { mode: 0o644 });
  writeFileSync(join(dir, 'ca.crt'), ca.cert, { mode: 0o644 });
  writeFileSync(join(dir, 'tls.crt'), leaf.cert, { mode: 0o644 });
  writeFileSync(join(dir, 'tls.key'), leaf.key, { mode: 0o644 });
}

/** GET over HTTPS verified by the test CA, with the client certificate; resolves with status and body. */
const httpsGet = (url: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const [ca, cert, key] = ['ca.crt', 'client.crt', 'client.key'].map((f) => readFileSync(join(tls, f), 'utf8'));
    const req = request(url, { ca, cert, key, timeout: 5_000 }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });

/** Polls `check` every 500 ms; after `ms`, fails with `what`, the last error and `detail()` (a container's log). */
const waitForOr = (what: string, check: () => Promise<boolean>, ms: number, detail = async () => ''): Promise<void> =>
  waitFor(
    check,
    ms,
    async (err) => `${what} (${ms} ms): ${(err as Error | undefined)?.message ?? ''}\n${await detail()}`,
    {
      intervalMs: 500,
      retryErrors: true,
    },
  );

const logs = async (c: string): Promise<string> => {
  const r = await podman(['logs', c], { allowFail: true });
  return `${r.stdout}${r.stderr}`;
};
const inspect = async (c: string, format: string): Promise<string> =>
  (await podman(['inspect', '--format', format, c])).stdout.trim();

/** Common `podman run` flags: detached, on the network, non-root, read-only root without tmpfs, no capabilities. */
const runFlags = (c: string): string[] => [
  'run',
  '-d',
  '--name',
  name(c),
  '--label',
  `io.kevents.test-run=${run}`,
  '--network',
  run,
  '--read-only',
  '--read-only-tmpfs=false',
  '--cap-drop=ALL',
  '--security-opt=no-new-privileges',
];

let tls: string;
let kubeHome: string;
const ports: Record<string, number> = {};
let images: Awaited<ReturnType<typeof ensureImages>>;
const watchers: ChildProcess[] = [];

/** A kubeconfig per server (kubectl prompts for a username on https servers given only by flags). */
function kubectlFlags(server: string): string[] {
  const file = join(kubeHome, `config-${new URL(server).port}`);
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kevents', cluster: { server, 'certificate-authority': join(tls, 'ca.crt') } }],
      users: [
        {
          name: 'e2e-admin',
          user: { 'client-certificate': join(tls, 'client.crt'), 'client-key': join(tls, 'client.key') },
        },
      ],
      contexts: [{ name: 'kevents', context: { cluster: 'kevents', user: 'e2e-admin' } }],
      'current-context': 'kevents',
    }),
  );
  return [`--kubeconfig=${file}`, `--cache-dir=${join(kubeHome, 'cache')}`];
}

/**
 * Runs kubectl against `server` with the test CA and the client certificate; `input` goes in through a file.
 */
let inputs = 0;
function kubectl(
  server: string,
  args: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (input !== undefined) {
    const file = join(kubeHome, `input-${++inputs}.yaml`);
    writeFileSync(file, input);
    args = [...args, '-f', file];
  }
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      [...kubectlFlags(server), ...args],
      { env: { ...process.env, HOME: kubeHome }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

/** An events.k8s.io/v1 Event about Pod `pod`: events about the same pod are isomorphic, so the controller folds them. */
const eventYaml = (n: string, ns: string, note: string, pod = n): string =>
  [
    'apiVersion: events.k8s.io/v1',
    'kind: Event',
    `metadata: {name: ${n}, namespace: ${ns}}`,
    `eventTime: "${new Date().toISOString().replace('Z', '000Z')}"`,
    'reportingController: example.com/e2e',
    'reportingInstance: e2e-1',
    'action: Tested',
    'reason: Testing',
    'type: Normal',
    `note: ${note}`,
    `regarding: {kind: Pod, name: ${pod}, namespace: ${ns}}`,
    '',
  ].join('\n');

async function cleanUp(): Promise<void> {
  for (const w of watchers) if (w.exitCode === null) w.kill('SIGKILL');
  const ids = (await podman(['ps', '-aq', '--filter', `label=io.kevents.test-run=${run}`], { allowFail: true })).stdout
    .split('\n')
    .filter(Boolean);
  if (ids.length) await podman(['rm', '-f', '-t', '0', ...ids], { allowFail: true });
  await podman(['volume', 'rm', '-f', name('redis-data')], { allowFail: true });
  await podman(['network', 'rm', '-f', run], { allowFail: true });
}

const suite = reason ? describe.skip : describe;

if (reason && required)
  it('container prerequisites (KEVENTS_CONTAINER_TESTS=required)', () => {
    throw new Error(`the container tests are required here, but ${reason}`);
  });

suite(`kevents images in podman (${reason ? `skipped: ${reason}` : 'podman'})`, () => {
  beforeAll(async () => {
    const t0 = Date.now();
    images = await ensureImages({ log: (l: string) => process.stdout.write(`[images] ${l}\n`) });
    process.stdout.write(`images ready after ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    tls = mkdtempSync(join(tmpdir(), 'kevents-e2e-tls-'));
    kubeHome = mkdtempSync(join(tmpdir(), 'kevents-e2e-kube-'));
    await writeCerts(tls);
  }, 900_000);

  afterAll(async () => {
    await cleanUp();
    for (const d of [tls, kubeHome]) if (d) rmSync(d, { recursive: true, force: true });
  }, 120_000);

  it('two apiservers and a controller on one Redis: kubectl through one replica while the other is killed, a series folds, podman stop drains', async () => {
    const t0 = Date.now();
    await podman(['network', 'create', '--label', `io.kevents.test-run=${run}`, run]);
    await podman([
      ...runFlags('redis'),
      '-v',
      `${name('redis-data')}:/data`,
      images.redis,
      'redis-server',
      '--appendonly',
      'yes',
    ]);
    for (const r of ['a', 'b']) {
      ports[r] = await freePort();
      await podman([
        ...runFlags(`api-${r}`),
        '-v',
        `${tls}:/etc/kevents/tls:ro`,
        '-p',
        `127.0.0.1:${ports[r]}:6443`,
        images.apiserver,
        '--bind-address=0.0.0.0',
        '--secure-port=6443',
        `--storage=redis://${name('redis')}:6379`,
        '--tls-cert-file=/etc/kevents/tls/tls.crt',
        '--tls-private-key-file=/etc/kevents/tls/tls.key',
        '--client-ca-file=/etc/kevents/tls/ca.crt',
      ]);
    }
    const url = (r: string): string => `https://127.0.0.1:${ports[r]}`;
    for (const r of ['a', 'b'])
      await waitForOr(
        `api-${r} /readyz`,
        async () => (await httpsGet(`${url(r)}/readyz`)).status === 200,
        60_000,
        () => logs(name(`api-${r}`)),
      );
    await podman([
      ...runFlags('controller'),
      '-v',
      `${tls}:/etc/kevents/tls:ro`,
      images.controller,
      `--server=https://${name('api-a')}:6443`,
      '--certificate-authority=/etc/kevents/tls/ca.crt',
      '--client-certificate=/etc/kevents/tls/client.crt',
      '--client-key=/etc/kevents/tls/client.key',
      '--health-probe-bind-address=:8081',
    ]);
    await waitForOr(
      'controller started',
      async () => (await logs(name('controller'))).includes('"msg":"controllers started"'),
      60_000,
      () => logs(name('controller')),
    );
    process.stdout.write(`containers up after ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);

    // Every container: non-root, read-only root filesystem, nothing writable but Redis's /data volume.
    for (const [c, uid] of [
      ['redis', '999'],
      ['api-a', '1000'],
      ['api-b', '1000'],
      ['controller', '1000'],
    ] as const) {
      expect((await podman(['exec', name(c), 'id', '-u'])).stdout.trim()).toBe(uid);
      expect(await inspect(name(c), '{{.HostConfig.ReadonlyRootfs}}')).toBe('true');
      const touch = await podman(['exec', name(c), 'sh', '-c', 'touch /app/x || touch /tmp/x || touch /x'], {
        allowFail: true,
      });
      expect(touch.stderr).toMatch(/Read-only file system/);
      expect(touch.code).not.toBe(0);
    }

    // The app code belongs to root (the runtime user cannot change it); the images carry OCI labels.
    for (const app of ['apiserver', 'controller'] as const) {
      const c = name(app === 'apiserver' ? 'api-a' : 'controller');
      const owner = await podman(['exec', c, 'stat', '-c', '%u:%g', `/app/apps/${app}/dist/main.js`]);
      expect(owner.stdout.trim()).toBe('0:0');
      const labels = JSON.parse(
        (await podman(['image', 'inspect', '--format', '{{json .Labels}}', images[app]])).stdout,
      ) as Record<string, string>;
      expect(labels).toMatchObject({
        'org.opencontainers.image.title': `kevents-${app}`,
        'org.opencontainers.image.version': images[app].split(':').pop(),
        'org.opencontainers.image.licenses': 'Apache-2.0',
      });
      expect(labels['org.opencontainers.image.revision']).toMatch(/^[0-9a-f]{40}(-dirty)?$/);
    }

    // A watch through replica a, writes through b, then b is killed and a keeps serving.
    const a = url('a');
    const watch = spawn(
      'kubectl',
      [...kubectlFlags(a), 'get', 'events.events.k8s.io', '-n', 'e2e', '-w', '-o', 'name'],
      {
        env: { ...process.env, HOME: kubeHome },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    watchers.push(watch);
    let watched = '';
    watch.stdout!.on('data', (d) => (watched += d));
    watch.stderr!.on('data', (d) => (watched += d));
    await sleep(1_500);
    const viaB = await kubectl(url('b'), ['create'], eventYaml('via-b', 'e2e', 'written through b'));
    expect(viaB).toMatchObject({ code: 0, stdout: 'event.events.k8s.io/via-b created\n' });
    await podman(['kill', '--signal', 'KILL', name('api-b')]);
    expect(await inspect(name('api-b'), '{{.State.Status}}')).not.toBe('running');
    for (const n of ['via-a-1', 'via-a-2']) {
      const r = await kubectl(a, ['create'], eventYaml(n, 'e2e', `written through a (${n})`));
      expect(r).toMatchObject({ code: 0, stdout: `event.events.k8s.io/${n} created\n` });
    }
    await waitForOr(
      'the watch through a sees every write',
      async () => ['via-b', 'via-a-1', 'via-a-2'].every((n) => watched.includes(`event.events.k8s.io/${n}`)),
      30_000,
      async () => watched,
    );
    const list = await kubectl(a, ['get', 'events.events.k8s.io', '-n', 'e2e', '-o', 'json']);
    expect(list.code).toBe(0);
    const listed = (JSON.parse(list.stdout) as { items: { metadata: { name: string }; note: string }[] }).items;
    expect(listed.map((e) => `${e.metadata.name}=${e.note}`).sort()).toEqual([
      'via-a-1=written through a (via-a-1)',
      'via-a-2=written through a (via-a-2)',
      'via-b=written through b',
    ]);
    const table = await kubectl(a, ['get', 'events', '-n', 'e2e']);
    expect(table.stdout).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n/);
    expect(table.stdout).toContain('written through b');

    // The controller (through a) folds 20 isomorphic events written through kubectl into one with series.count 20.
    const docs = Array.from({ length: 20 }, (_, i) =>
      eventYaml(`s-${i}`, 'series', 'back-off restarting', 'web-0'),
    ).join('---\n');
    const created = await kubectl(a, ['create'], docs);
    expect(created.code).toBe(0);
    let seen = '';
    await waitForOr(
      'one Event with series.count 20',
      async () => {
        const r = await kubectl(a, ['get', 'events.events.k8s.io', '-n', 'series', '-o', 'json']);
        const items = (JSON.parse(r.stdout) as { items: { metadata: { name: string }; series?: { count: number } }[] })
          .items;
        seen = items.map((i) => `${i.metadata.name}:${i.series?.count ?? '-'}`).join(' ');
        if (items.some((i) => (i.series?.count ?? 0) > 20)) throw new Error(`over-counted: ${seen}`);
        return items.length === 1 && items[0]!.series?.count === 20;
      },
      120_000,
      async () => `${seen}\n${await logs(name('controller'))}`,
    );

    // podman stop sends SIGTERM (the images' STOPSIGNAL): each exits 0, well within the grace period.
    for (const c of ['controller', 'api-a', 'redis']) {
      const s = Date.now();
      await podman(['stop', '-t', '30', name(c)]);
      const seconds = (Date.now() - s) / 1000;
      expect(await inspect(name(c), '{{.State.ExitCode}}')).toBe('0');
      expect(seconds).toBeLessThan(30);
      process.stdout.write(`podman stop ${c}: exit 0 after ${seconds.toFixed(1)} s\n`);
    }
    // The drain follows the signal by the server's own clock: `podman logs` may print lines
    // written within a millisecond of each other out of order.
    const lines = (await logs(name('api-a')))
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { time: number; signal?: string; drained?: boolean });
    const signalled = lines.find((l) => l.signal === 'SIGTERM');
    const drained = lines.find((l) => l.drained === true);
    expect(signalled).toBeDefined();
    expect(drained).toBeDefined();
    expect(drained!.time).toBeGreaterThanOrEqual(signalled!.time);
    expect(await inspect(name('api-b'), '{{.State.ExitCode}}')).toBe('137');
    process.stdout.write(`containers e2e: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }, 400_000);
});
