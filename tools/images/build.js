#!/usr/bin/env node
/**
 * Builds the kevents container images with podman, offline: the local stand-ins for the official
 * `node:24-bookworm-slim` and `redis:7.0.15-bookworm` images (debootstrap + podman import, skipped when
 * present), the production bundle of each app (dist/images/<app>), and the apiserver and controller images
 * from the one tools/images/Dockerfile (build argument APP). Usage: node tools/images/build.js [--help].
 * See docs/operations.md "Container images".
 */
import { fileURLToPath } from 'node:url';
import { apps, appRefs, buildAppImage } from './lib/app-images.js';
import { baseRefs, ensureNodeBase, ensureRedis } from './lib/base-images.js';
import { prepareBundle } from './lib/bundle.js';
import { containersConf, podman, podmanEnv, run, withLock } from './lib/podman.js';

export { containersConf, podman, podmanEnv };

/**
 * Builds (or finds up to date) every image, holding a machine-wide lock so parallel callers do not build twice.
 * Runs `npm run build` first unless `build: false`. Resolves with the image references and the containers.conf
 * podman must be run with (`CONTAINERS_CONF`, also in {@link podmanEnv}).
 *
 * @param {{ log?: (line: string) => void, build?: boolean }} [options]
 * @returns {Promise<{ apiserver: string, controller: string, redis: string, node: string, containersConf: string, seconds: number }>}
 */
export async function ensureImages({ log = () => {}, build = true } = {}) {
  const t0 = Date.now();
  return withLock(
    'build',
    async () => {
      if (build) {
        log('npm run build (tsc -b)');
        await run('npm', ['run', 'build', '--silent'], { cwd: fileURLToPath(new URL('../../', import.meta.url)) });
      }
      // Redis does not block the apps, and the bundles do not need the Node base: run them side by side.
      const redisImage = ensureRedis(log);
      const bundles = Promise.all(apps.map((app) => prepareBundle(app, log)));
      for (const p of [redisImage, bundles]) p.catch(() => {}); // awaited below; no unhandled rejection meanwhile
      try {
        const node = await ensureNodeBase(log);
        await bundles;
        const refs = {};
        for (const app of apps) refs[app] = await buildAppImage(app, log);
        const redis = await redisImage;
        const seconds = (Date.now() - t0) / 1000;
        log(`images ready in ${seconds.toFixed(1)} s`);
        return {
          apiserver: refs.apiserver,
          controller: refs.controller,
          redis,
          node,
          containersConf: containersConf(),
          seconds,
        };
      } finally {
        await Promise.allSettled([redisImage, bundles]);
      }
    },
    log,
  );
}

const usage = `Usage: node tools/images/build.js [--no-build] [--help]

Builds the kevents container images with podman (no registry needed):
  ${baseRefs.nodeMajor}   local stand-in: Debian bookworm minbase + Node (debootstrap, podman import)
  ${baseRefs.redis}   local stand-in: Debian bookworm's redis-server, user redis 999
  ${appRefs('apiserver').join(', ')}
  ${appRefs('controller').join(', ')}
The two stand-ins are built once and kept (podman rmi them to rebuild). Before the app images it runs
\`npm run build\` (skip with --no-build) and prepares each production bundle in dist/images/<app>.
Podman runs with the containers.conf from tools/images/lib/podman.js (runc, host-sized ulimits), or
$CONTAINERS_CONF when set. Needs root (debootstrap, chroot) for the two stand-ins.
`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(usage);
  } else {
    const start = Date.now();
    const log = (line) =>
      process.stdout.write(`[images ${((Date.now() - start) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);
    ensureImages({ log, build: !process.argv.includes('--no-build') }).then(
      async (r) => {
        const ls = await podman(['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}\t{{.Size}}']);
        const wanted = new Set([r.apiserver, r.controller, r.redis, r.node]);
        for (const line of ls.stdout.split('\n')) if (wanted.has(line.split('\t')[0])) log(line.replace('\t', '  '));
      },
      (err) => {
        process.stderr.write(`tools/images/build.js: ${err.message}\n`);
        process.exitCode = 1;
      },
    );
  }
}
