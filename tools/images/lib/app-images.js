import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseRefs } from './base-images.js';
import { repoRoot } from './bundle.js';
import { podman, run } from './podman.js';

/** The apps that have an image, each built from apps/<app>/Dockerfile. */
export const apps = ['apiserver', 'controller'];

/** The version an app's image is tagged with: its package.json version. */
export const appVersion = (app) =>
  JSON.parse(readFileSync(join(repoRoot, 'apps', app, 'package.json'), 'utf8')).version;

/** The image references of an app: `localhost/kevents-<app>:<version>` and `:dev`. */
export const appRefs = (app) => [`localhost/kevents-${app}:${appVersion(app)}`, `localhost/kevents-${app}:dev`];

async function gitRevision() {
  const r = await run('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, allowFail: true });
  if (r.code !== 0) return 'unknown';
  const dirty = await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, allowFail: true });
  return `${r.stdout.trim()}${dirty.stdout.trim() ? '-dirty' : ''}`;
}

/**
 * Builds an app image with `podman build --pull=never` from its Dockerfile, the repository root as context
 * (.dockerignore lets only the prepared bundles in), on the local Node base. Podman's layer cache makes a
 * rebuild of an unchanged bundle quick. Returns the version reference.
 */
export async function buildAppImage(app, log = () => {}) {
  const refs = appRefs(app);
  const t0 = Date.now();
  const args = [
    'build',
    '--pull=never',
    '--layers',
    '-f',
    join(repoRoot, 'apps', app, 'Dockerfile'),
    '--build-arg',
    `NODE_IMAGE=${baseRefs.node}`,
    '--build-arg',
    `VERSION=${appVersion(app)}`,
    '--build-arg',
    `REVISION=${await gitRevision()}`,
    ...refs.flatMap((r) => ['-t', r]),
    repoRoot,
  ];
  log(`podman build ${refs[0]}`);
  await podman(args, { onLine: (l) => /STEP \d|^COMMIT/.test(l) && log(`  ${l}`) });
  log(`${refs[0]}: built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return refs[0];
}
