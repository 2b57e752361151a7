import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Runs kevents-controller with `args` to its exit: the code and what it wrote to stderr. */
const run = (args: string[]): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) =>
    execFile(
      process.execPath,
      [main, ...args],
      { timeout: 30_000, env: { ...process.env, KUBECONFIG: '' } },
      (e, _o, stderr) => resolve({ code: e ? Number((e as { code?: number }).code) : 0, stderr }),
    ),
  );

describe('kevents-controller at start', () => {
  it('answers a kubeconfig it cannot read as a usage error naming the flag (exit 2), not as a JSON log line', async () => {
    const r = await run(['--kubeconfig=/nonexistent/kubeconfig']);
    expect(r).toEqual({
      code: 2,
      stderr:
        "Error: --kubeconfig=/nonexistent/kubeconfig: ENOENT: no such file or directory, open '/nonexistent/kubeconfig'\n" +
        "Run 'kevents-controller --help' for usage.\n",
    });
  });

  it('answers a kubeconfig without a cluster the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kevents-controller-'));
    try {
      const file = join(dir, 'config');
      writeFileSync(file, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
      const r = await run([`--kubeconfig=${file}`]);
      expect(r).toEqual({
        code: 2,
        stderr: "Error: no cluster: give --server or --kubeconfig\nRun 'kevents-controller --help' for usage.\n",
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
