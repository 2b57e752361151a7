import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { defaultSemiSpaceMiB } from '@kevents/cli';
import {
  diskStoreHeapGrowingPercent,
  diskStoreSemiSpaceMiB,
  heapSettingsForArgs,
  heapSettingsForStorage,
} from './young-generation.js';

const semiSpaceOf = (storage: string) => heapSettingsForStorage(storage).semiSpaceMiB;
const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kevents-young-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the apiserver young generation by store', () => {
  it('gives the stores that keep events on disk 16 MiB semi-spaces and a 50% heap growth, the others the general default', () => {
    expect(heapSettingsForStorage('sqlite:///x.db')).toEqual({ semiSpaceMiB: 16, heapGrowingPercent: 50 });
    expect(diskStoreHeapGrowingPercent).toBe(50);
    expect(heapSettingsForStorage('memory')).toEqual({ semiSpaceMiB: defaultSemiSpaceMiB });
    expect(semiSpaceOf('sqlite:///var/lib/kevents/events.db')).toBe(diskStoreSemiSpaceMiB);
    expect(semiSpaceOf('postgres://u:p@db:5432/kevents')).toBe(diskStoreSemiSpaceMiB);
    expect(semiSpaceOf('postgresql://db/kevents')).toBe(diskStoreSemiSpaceMiB);
    for (const s of ['memory', 'redis://127.0.0.1:6379', 'rediss://r:6380', 'sqlite-not-a-url', ''])
      expect(semiSpaceOf(s)).toBe(defaultSemiSpaceMiB);
  });

  it('reads --storage with the apiserver parser in either form, and falls back on a command line it refuses', () => {
    const disk = { semiSpaceMiB: 16, heapGrowingPercent: 50 };
    expect(heapSettingsForArgs(['--storage=sqlite:///x.db'])).toEqual(disk);
    expect(heapSettingsForArgs(['--storage', 'postgres://db/k', '--insecure-port=0'])).toEqual(disk);
    expect(heapSettingsForArgs([])).toEqual({ semiSpaceMiB: 32 });
    expect(heapSettingsForArgs(['--storage=sqlite:///x.db', '--no-such-flag'])).toEqual({ semiSpaceMiB: 32 });
  });

  it('restarts a SQLite apiserver with 16 MiB semi-spaces and a 50% heap growth, and logs them', async () => {
    const { NODE_OPTIONS: _, KEVENTS_YOUNG_GENERATION: __, ...env } = process.env;
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    const p = spawn(
      process.execPath,
      [
        main,
        `--storage=sqlite://${join(dir, 'events.db')}`,
        `--insecure-port=${port}`,
        '--secure-port=0',
        '--log-format=text',
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!/young generation:.*\n/.test(out) && Date.now() < deadline && p.exitCode === null)
        await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain(
        "young generation: --max-semi-space-size=16 (MiB), kevents' default (NODE_OPTIONS=--max-semi-space-size=N changes it); old generation: --heap-growing-percent=50",
      );
      const cmdline = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline.slice(1, 3)).toEqual(['--max-semi-space-size=16', '--heap-growing-percent=50']);
    } finally {
      if (p.exitCode === null && p.signalCode === null) {
        const exited = new Promise((r) => p.once('exit', r));
        p.kill('SIGTERM');
        await exited;
      }
    }
  }, 40_000);
});
