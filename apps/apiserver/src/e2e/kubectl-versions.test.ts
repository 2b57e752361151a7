/**
 * One fixed kubectl scenario, run with every kubectl from 1.20 to 1.35 that
 * tools/kubectl-versions/install.mjs has cached (~/.cache/kevents-kubectl, or
 * $KEVENTS_KUBECTL_CACHE): create with kubectl's default (client-side) validation, explain, diff,
 * get, patch, apply, a watch, `auth can-i` (yes under AlwaysAllow, no under a denying webhook,
 * `--list`), `auth whoami` and `events`. kubectl 1.20–1.28 validate and explain from the
 * protobuf `/openapi/v2`, 1.29+ from `/openapi/v3`; 1.34+ send their reviews as protobuf.
 * Commands a version does not have are not run (`auth whoami` before 1.26, `events` before
 * 1.23). Without cached binaries the suite skips with the reason printed, unless
 * KEVENTS_KUBECTL_VERSIONS=required (CI), when it fails.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ServerMetrics } from '@kevents/apiserver';
import { WebhookServer } from '@kevents/authz/testing';
import type { ReceivedReview } from '@kevents/authz/testing';
import { startAuthorization } from '../server/authorization.js';
import type { AuthorizationSetup } from '../server/authorization.js';
import { request, sampleEvent, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiserverOptions } from '../cli/flags.js';

const cacheDir = process.env['KEVENTS_KUBECTL_CACHE'] || join(homedir(), '.cache', 'kevents-kubectl');
const allMinors = Array.from({ length: 16 }, (_, i) => 20 + i);
const binary = (minor: number): string => join(cacheDir, `v1.${minor}`, 'kubectl');
const cached = allMinors.filter((m) => existsSync(binary(m)));
const required = process.env['KEVENTS_KUBECTL_VERSIONS'] === 'required';
const missing = allMinors.filter((m) => !cached.includes(m));

if (cached.length === 0 && !required) {
  console.log(
    `kubectl-versions: skipped: no kubectl binaries in ${cacheDir}; run \`node tools/kubectl-versions/install.mjs\` (or .ci/install-kubectl-versions.sh) to cache kubectl 1.20–1.35`,
  );
} else if (missing.length && !required) {
  console.log(
    `kubectl-versions: kubectl ${missing.map((m) => `1.${m}`).join(', ')} not cached in ${cacheDir}; not run`,
  );
}

/** Runs one kubectl binary in an empty kubeconfig with its own cache, against one server. */
class VersionedKubectl {
  readonly #bin: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #cache: string;

  constructor(minor: number) {
    this.#bin = binary(minor);
    const dir = mkdtempSync(join(tmpdir(), `kevents-kubectl-1.${minor}-`));
    writeFileSync(join(dir, 'config'), '');
    this.#cache = join(dir, 'cache');
    this.#env = { ...process.env, KUBECONFIG: join(dir, 'config'), HOME: dir };
  }

  #args(server: string, args: readonly string[]): string[] {
    return [`--server=${server}`, `--cache-dir=${this.#cache}`, ...args];
  }

  run(server: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(this.#bin, this.#args(server, args), { env: this.#env, timeout: 30_000 }, (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  spawn(server: string, args: readonly string[]) {
    return spawn(this.#bin, this.#args(server, args), { env: this.#env, stdio: ['ignore', 'pipe', 'pipe'] });
  }
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
let open: TestServer;
let guarded: TestServer;
let webhook: WebhookServer;
let authz: AuthorizationSetup;
const dir = mkdtempSync(join(tmpdir(), 'kevents-kubectl-versions-'));

/** The webhook's policy: every request is allowed, but no one may delete events. */
function policy(r: ReceivedReview) {
  const ra = (r.review.spec as { resourceAttributes?: { verb?: string; resource?: string } }).resourceAttributes;
  if (ra?.verb === 'delete' && ra.resource === 'events')
    return { status: { allowed: false, denied: true, reason: 'events are kept' } };
  return { status: { allowed: true } };
}

const eventYAML = (ns: string, name: string, labels: Record<string, string> = {}): string =>
  stringify({ ...sampleEvent(name, ns), metadata: { name, namespace: ns, labels } });

/** The versions to run: every one under KEVENTS_KUBECTL_VERSIONS=required (a missing one fails), else the cached ones. */
const versions = required ? allMinors : cached;
(versions.length ? describe.each(versions) : describe.skip.each(allMinors))('kubectl 1.%i', (minor) => {
  const ns = `v1-${minor}`;
  const present = cached.includes(minor);
  let k: VersionedKubectl;
  let file: string;
  let changed: string;
  let second: string;

  beforeAll(() => {
    if (!present) return;
    k = new VersionedKubectl(minor);
    file = join(dir, `${ns}-event.yaml`);
    changed = join(dir, `${ns}-changed.yaml`);
    second = join(dir, `${ns}-second.yaml`);
    writeFileSync(file, eventYAML(ns, 'web-0.started', { app: 'web' }));
    writeFileSync(changed, eventYAML(ns, 'web-0.started', { app: 'web', tier: 'front' }));
    writeFileSync(second, eventYAML(ns, 'web-1.started', { app: 'web' }));
  });

  const step = (name: string, fn: () => Promise<void>) =>
    it(name, async () => {
      if (!present)
        throw new Error(`kubectl 1.${minor} is not cached in ${cacheDir} (KEVENTS_KUBECTL_VERSIONS=required)`);
      await fn();
    });

  step('create -f with default validation (OpenAPI v2 protobuf before 1.29, v3 after)', async () => {
    const r = await k.run(open.url, ['create', '-f', file]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('event.events.k8s.io/web-0.started created\n');
  });

  step('explain', async () => {
    const r = await k.run(open.url, ['explain', 'events.regarding', '--api-version=events.k8s.io/v1']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/KIND:\s+Event/);
    expect(r.stdout).toMatch(/regarding/);
    expect(r.stdout).toMatch(/ObjectReference|kind\s+<string>/);
  });

  step('diff (a server-side dry run)', async () => {
    const r = await k.run(open.url, ['diff', '-f', changed]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1); // 1: differences found
    expect(r.stdout).toMatch(/^\+\s+tier: front$/m);
  });

  step('get -o json, patch, apply', async () => {
    const got = await k.run(open.url, ['get', 'events.events.k8s.io', '-n', ns, 'web-0.started', '-o', 'json']);
    expect(got.stderr).toBe('');
    expect(JSON.parse(got.stdout)).toMatchObject({ kind: 'Event', metadata: { name: 'web-0.started', namespace: ns } });
    const patched = await k.run(open.url, [
      'patch',
      'events.events.k8s.io',
      '-n',
      ns,
      'web-0.started',
      '--type=merge',
      '-p',
      '{"metadata":{"labels":{"patched":"yes"}}}',
    ]);
    expect(patched.stderr).toBe('');
    expect(patched.stdout).toBe('event.events.k8s.io/web-0.started patched\n');
    const applied = await k.run(open.url, ['apply', '-f', second]);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toBe('event.events.k8s.io/web-1.started created\n');
  });

  step('get -w sees a new event', async () => {
    const child = k.spawn(open.url, ['get', 'events.events.k8s.io', '-n', ns, '-w']);
    try {
      await waitForOutput(child, (out) => out.includes('web-1.started'));
      // Listen before writing: kubectl may print the new row before the write's response arrives.
      const seen = waitForOutput(child, (out) => out.includes('web-2.started'));
      await request(`${open.url}/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
        method: 'POST',
        body: sampleEvent('web-2.started', ns),
      });
      await seen;
    } finally {
      child.kill();
    }
  });

  step('auth can-i: yes under AlwaysAllow, no under a denying webhook, --list', async () => {
    const yes = await k.run(open.url, ['auth', 'can-i', 'delete', 'events.events.k8s.io', '-n', ns]);
    expect(yes).toMatchObject({ code: 0, stdout: 'yes\n' });
    const no = await k.run(guarded.url, ['auth', 'can-i', 'delete', 'events.events.k8s.io', '-n', ns]);
    expect(no.code).toBe(1);
    expect(no.stdout).toBe('no - events are kept\n');
    const list = await k.run(open.url, ['auth', 'can-i', '--list', '-n', ns]);
    expect(list.stderr).toBe('');
    expect(list.stdout).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
  });

  if (minor >= 26) {
    step(`${minor === 26 ? 'alpha auth whoami' : 'auth whoami'}`, async () => {
      const r = await k.run(open.url, minor === 26 ? ['alpha', 'auth', 'whoami'] : ['auth', 'whoami']);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Username\s+system:anonymous$/m);
      expect(r.stdout).toMatch(/^Groups\s+\[system:unauthenticated\]$/m);
    });
  }

  if (minor >= 23) {
    step(`${minor < 26 ? 'alpha events' : 'events'}`, async () => {
      const r = await k.run(open.url, minor < 26 ? ['alpha', 'events', '-n', ns] : ['events', '-n', ns]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/Testing\s+.*Pod\/web-0/);
    });
  }
});

beforeAll(async () => {
  if (cached.length === 0 && !required) return;
  webhook = await WebhookServer.start({ token: 'apiserver-secret' });
  webhook.answer = policy;
  writeFileSync(join(dir, 'webhook.kubeconfig'), webhook.kubeconfig({ token: 'apiserver-secret' }));
  const authzFile = join(dir, 'authz.yaml');
  writeFileSync(
    authzFile,
    stringify({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthorizationConfiguration',
      authorizers: [
        {
          type: 'Webhook',
          name: 'keeper',
          webhook: {
            timeout: '3s',
            subjectAccessReviewVersion: 'v1',
            failurePolicy: 'Deny',
            matchConditionSubjectAccessReviewVersion: 'v1',
            connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: join(dir, 'webhook.kubeconfig') },
          },
        },
      ],
    }),
  );
  const metrics = new ServerMetrics();
  authz = await startAuthorization({ options: apiserverOptions(), file: authzFile, metrics, log: silent });
  [open, guarded] = await Promise.all([startTestServer(), startTestServer({ authorizer: authz.authorizer, metrics })]);
});

afterAll(async () => {
  authz?.close();
  await Promise.all([open?.close(), guarded?.close(), webhook?.close()]);
});

it('skips with the reason printed when no kubectl is cached (or fails under KEVENTS_KUBECTL_VERSIONS=required)', () => {
  if (required) expect(missing).toEqual([]);
  else expect(cached.length).toBeGreaterThanOrEqual(0);
});
