import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '@kevents/api/testing';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The first ```sh block after the "## Walkthrough" heading of the README. */
function walkthrough(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Walkthrough'));
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('README has no walkthrough block');
  return m[1]!;
}

let server: ChildProcess;
let port: number;
let output = '';

// `npm start` itself (tools/dev/start.js): the apiserver with kevents-controller beside it, so the
// walkthrough also shows that the controller's retention (counted from an event's last write)
// leaves the example event, whose eventTime is weeks old, alone.
beforeAll(async () => {
  port = await freePort();
  server = spawn(process.execPath, [join(root, 'tools/dev/start.js'), `--insecure-port=${port}`, '--log-level=warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KEVENTS_CONTROLLER_PROBE_ADDRESS: '127.0.0.1:0' },
    detached: true,
  });
  const keep = (d: Buffer): void => {
    output = (output + d.toString()).slice(-65_536);
  };
  server.stdout!.on('data', keep);
  server.stderr!.on('data', keep);
  await waitFor(
    () => {
      if (server.exitCode !== null) throw new Error(`npm start exited (${server.exitCode}): ${output}`);
      return / controllers started /.test(output);
    },
    60_000,
    () => `npm start did not start its controller: ${output}`,
    { intervalMs: 50 },
  );
}, 70_000);
afterAll(async () => {
  if (server.exitCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  const t = setTimeout(() => process.kill(-server.pid!, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
});

describe('README', () => {
  it('walkthrough runs as written against a fresh server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kevents-readme-'));
    writeFileSync(join(dir, 'config'), '');
    const script = `set -euo pipefail\n${walkthrough().replaceAll('http://127.0.0.1:8080', `http://127.0.0.1:${port}`)}`;
    const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        'bash',
        ['-c', script],
        { env: { ...process.env, KUBECONFIG: join(dir, 'config'), HOME: dir }, timeout: 60_000 },
        (e, stdout, stderr) => resolve({ code: e ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('event.events.k8s.io/web-0.started created');
    expect(out.stdout).toMatch(/demo\s+\S+\s+Normal\s+Started\s+pod\/web-0\s+Started container web/);
    expect(out.stdout).toMatch(
      /LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+SUBOBJECT\s+SOURCE\s+MESSAGE\s+FIRST SEEN\s+COUNT\s+NAME/,
    );
    expect(out.stdout).toMatch(
      /^apiVersion: meta\.k8s\.io\/v1\nkind: PartialObjectMetadata\nmetadata:\n {2}creationTimestamp: "/m,
    );
    expect(out.stdout).toContain('event.events.k8s.io/web-0.started patched');
    // The controller ran throughout and deleted nothing by itself (its retention counts from the
    // last write, not from the weeks-old eventTime).
    expect(output).toMatch(/ controllers started /);
    expect(output).not.toMatch(/kevents: the controller exited/);
    expect(out.stdout).toContain('event.events.k8s.io "web-0.started" deleted');
  });
});
