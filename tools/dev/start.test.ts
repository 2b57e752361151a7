import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const start = join(fileURLToPath(new URL('../../', import.meta.url)), 'tools/dev/start.js');

/** Runs `npm start`'s script with `args` (and `env` added to the environment); its exit code and output. */
function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [start, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm start did not exit: ${stdout}${stderr}`));
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm start (tools/dev/start.js)', () => {
  it('prints its usage and the apiserver flags for --help, and starts nothing', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: npm start \[-- <kevents-apiserver flags>\]/);
    expect(r.stdout).toContain('KEVENTS_CONTROLLER_ARGS');
    expect(r.stdout).toContain('--bind-address=string');
    expect(r.stdout).not.toContain('kevents: starting');
    expect((await run(['-h'])).stdout).toMatch(/^Usage: npm start/);
  });

  it('refuses a port that something already listens on, in one line, instead of starting a controller against it', async () => {
    const busy = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      for (const args of [[`--insecure-port=${port}`], ['--insecure-port', String(port)]]) {
        const r = await run(args);
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(
          `kevents: 127.0.0.1:${port} is in use already (another npm start?); stop it, or pick other ports: KEVENTS_CONTROLLER_PROBE_ADDRESS=127.0.0.1:0 npm start -- --insecure-port=9090\n`,
        );
      }
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('refuses a probe address that something already listens on (a second npm start on another port), in one line, before starting anything', async () => {
    const busy = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const probePort = (busy.address() as { port: number }).port;
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    try {
      const r = await run([`--insecure-port=${port}`], { KEVENTS_CONTROLLER_PROBE_ADDRESS: `127.0.0.1:${probePort}` });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `kevents: the controller's probe address 127.0.0.1:${probePort} is in use already (another npm start?); stop it, or move it: KEVENTS_CONTROLLER_PROBE_ADDRESS=127.0.0.1:0 npm start -- --insecure-port=${port}\n`,
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
