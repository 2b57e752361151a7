import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@kevents/controller-runtime/testing';
import { prepareBundle, prunedManifests } from './lib/bundle.js';

/** A process started from a bundle copy, with its output collected. */
class Proc {
  output = '';
  readonly exited: Promise<number | null>;
  readonly child: ChildProcess;
  constructor(child: ChildProcess) {
    this.child = child;
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    this.exited = new Promise((r) => child.on('exit', (code) => r(code)));
  }
}

const started: Proc[] = [];
/** Runs `node <main> ...args` with the clean directory as working directory and no NODE_PATH. */
const start = (cwd: string, main: string, args: string[]): Proc => {
  const env = { ...process.env };
  delete env.NODE_PATH;
  delete env.NODE_OPTIONS;
  const p = new Proc(spawn(process.execPath, [main, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  started.push(p);
  return p;
};

async function waitOk(url: string, proc: Proc, ms = 30_000): Promise<Response> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status === 200) return r;
    } catch {
      /* not listening yet */
    }
    if (proc.child.exitCode !== null) throw new Error(`exited ${proc.child.exitCode}: ${proc.output}`);
    if (Date.now() > until) throw new Error(`${url} never answered 200: ${proc.output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const devOnly = [
  'typescript',
  'jest',
  '@swc',
  'nx',
  'eslint',
  'prettier',
  'fast-check',
  '@stryker-mutator',
  'autocannon',
];
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'kevents-bundle-'));
  for (const app of ['apiserver', 'controller']) cpSync(await prepareBundle(app), join(root, app), { recursive: true });
}, 300_000);

afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('production bundles (dist/images/<app>: build output + npm ci --omit=dev of a pruned workspace)', () => {
  it('holds only the app, the workspaces it reaches and production dependencies', () => {
    const api = prunedManifests('apiserver');
    const ctl = prunedManifests('controller');
    expect([...ctl.workspaces.keys()].sort()).toEqual([
      'apps/controller',
      'packages/api',
      'packages/cli',
      'packages/controller-runtime',
    ]);
    expect([...api.workspaces.keys()]).not.toContain('packages/controller-runtime');
    expect([...api.workspaces.keys()]).toContain('packages/storage-redis');
    for (const app of ['apiserver', 'controller']) {
      const modules = readdirSync(join(root, app, 'node_modules'));
      expect(modules.filter((m) => devOnly.includes(m))).toEqual([]);
      expect(modules).toContain('@kevents');
      expect(existsSync(join(root, app, 'apps', app, 'src'))).toBe(false);
      const lock = JSON.parse(readFileSync(join(root, app, 'package-lock.json'), 'utf8'));
      expect(Object.values(lock.packages).filter((p) => (p as { dev?: boolean }).dev)).toEqual([]);
    }
    expect(readdirSync(join(root, 'controller', 'node_modules'))).not.toContain('fastify');
    expect(readdirSync(join(root, 'controller', 'node_modules', '@kevents')).sort()).toEqual([
      'api',
      'cli',
      'controller-runtime',
    ]);
  });

  it('the apiserver bundle starts from a clean directory and serves /livez and /readyz; the controller bundle prints --help and runs against it', async () => {
    const apiDir = join(root, 'apiserver');
    const port = await freePort();
    const api = start(apiDir, 'apps/apiserver/dist/main.js', ['--secure-port=0', `--insecure-port=${port}`]);
    const base = `http://127.0.0.1:${port}`;
    expect(await (await waitOk(`${base}/livez`, api)).text()).toBe('ok');
    expect(await (await waitOk(`${base}/readyz`, api)).text()).toBe('ok');
    // The web view ships in the apiserver's bundle (apps/apiserver/dist/ui), so the image serves it.
    expect(await (await waitOk(`${base}/ui/app.js`, api)).text()).toContain('kevents.token');

    const ctlDir = join(root, 'controller');
    const help = start(ctlDir, 'apps/controller/dist/main.js', ['--help']);
    expect(await help.exited).toBe(0);
    expect(help.output).toContain('Usage:\n  kevents-controller [flags]');

    const probe = await freePort();
    const ctl = start(ctlDir, 'apps/controller/dist/main.js', [
      `--server=${base}`,
      '--leader-elect=false',
      `--health-probe-bind-address=127.0.0.1:${probe}`,
    ]);
    await waitOk(`http://127.0.0.1:${probe}/readyz`, ctl);
    expect(ctl.output).toContain('"msg":"controllers started"');

    ctl.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    expect(await ctl.exited).toBe(0);
    expect(await api.exited).toBe(0);
  }, 120_000);
});
