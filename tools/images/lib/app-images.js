import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseRefs } from './base-images.js';
import { bundleDir, repoRoot } from './bundle.js';
import { podman, run } from './podman.js';

/** The apps that have an image, each built from {@link dockerfile} with the build argument `APP=<app>`. */
export const apps = ['apiserver', 'controller'];

/** The one Dockerfile of the app images; its build argument `APP` selects the app (and its final stage). */
export const dockerfile = join(repoRoot, 'tools/images/Dockerfile');

/** The version an app's image is tagged with: its package.json version. */
export const appVersion = (app) =>
  JSON.parse(readFileSync(join(repoRoot, 'apps', app, 'package.json'), 'utf8')).version;

/** The image references of an app: `localhost/kevents-<app>:<version>` and `:dev`. */
export const appRefs = (app) => [`localhost/kevents-${app}:${appVersion(app)}`, `localhost/kevents-${app}:dev`];

/** The git commit (with `-dirty` when tracked files changed) and its commit time, for the OCI labels. */
async function gitRevision() {
  const r = await run('git', ['log', '-1', '--format=%H %cI'], { cwd: repoRoot, allowFail: true });
  if (r.code !== 0 || !r.stdout.trim()) return { revision: 'unknown', created: new Date(0).toISOString() };
  const [hash, created] = r.stdout.trim().split(' ');
  const dirty = await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, allowFail: true });
  return { revision: `${hash}${dirty.stdout.trim() ? '-dirty' : ''}`, created };
}

/** The label that records what an app image was built from, so an unchanged one is not rebuilt. */
export const inputsLabel = 'io.kevents.build-inputs';

/**
 * Builds an app image with `podman build --pull=never --build-arg APP=<app>` from {@link dockerfile}, the
 * repository root as context (.dockerignore lets only the prepared bundles in), on the local Node base. Skipped
 * when the image exists and was built from the same bundle, Dockerfile, base image and revision (podman would
 * only hash the bundle again to find every layer cached). Returns the version reference.
 */
export async function buildAppImage(app, log = () => {}) {
  const refs = appRefs(app);
  const t0 = Date.now();
  const { revision, created } = await gitRevision();
  const baseId = (await podman(['image', 'inspect', '--format', '{{.Id}}', baseRefs.node])).stdout.trim();
  const inputs = createHash('sha256')
    .update(readFileSync(join(bundleDir(app), '.bundle-inputs')))
    .update(readFileSync(dockerfile))
    .update(`${baseId}\0${revision}\0${created}\0${refs.join(',')}`)
    .digest('hex');
  const existing = await Promise.all(
    refs.map(async (r) => {
      const out = await podman(['image', 'inspect', '--format', `{{index .Labels "${inputsLabel}"}}`, r], {
        allowFail: true,
      });
      return out.code === 0 ? out.stdout.trim() : '';
    }),
  );
  if (existing.every((v) => v === inputs)) {
    log(`${refs[0]}: up to date`);
    return refs[0];
  }
  const args = [
    'build',
    '--pull=never',
    '--layers',
    '-f',
    dockerfile,
    '--build-arg',
    `APP=${app}`,
    '--build-arg',
    `NODE_IMAGE=${baseRefs.node}`,
    '--build-arg',
    `VERSION=${appVersion(app)}`,
    '--build-arg',
    `REVISION=${revision}`,
    '--build-arg',
    `CREATED=${created}`,
    '--label',
    `${inputsLabel}=${inputs}`,
    ...refs.flatMap((r) => ['-t', r]),
    repoRoot,
  ];
  log(`podman build ${refs[0]}`);
  await podman(args, { onLine: (l) => /STEP \d|^COMMIT|Using cache/.test(l) && log(`  ${l}`) });
  log(`${refs[0]}: built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return refs[0];
}
