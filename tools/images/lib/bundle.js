import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { run, withLock } from './podman.js';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Where the production bundle of `app` is prepared (a pruned workspace the Dockerfile copies). */
export const bundleDir = (app) => join(repoRoot, 'dist/images', app);

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/**
 * What a bundle keeps of a workspace's build output: the JavaScript, without test helpers or type declarations,
 * and the web view's built files the apiserver serves at /ui/ (apps/apiserver/dist/ui, copied by apps/ui/build.js).
 */
const webView = (rel) => rel.startsWith('ui/');
const shipped = (rel) =>
  webView(rel) ||
  (rel.endsWith('.js') && !rel.startsWith('testing/') && !rel.includes('/testing/') && !rel.endsWith('.test.js'));

/**
 * The bare package names the JavaScript files import (static, dynamic and re-exports), read by
 * TypeScript's own import scanner, which knows strings and comments from imports (a pattern over
 * the text took `from '...'` inside a string for an import).
 */
function importedPackages(files) {
  const names = new Set();
  for (const f of files)
    for (const { fileName: spec } of ts.preProcessFile(readFileSync(f, 'utf8'), true, true).importedFiles) {
      if (spec.startsWith('node:') || spec.startsWith('.') || spec.startsWith('/')) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  return names;
}

/**
 * The workspaces a production bundle of `app` needs: the app and every `@kevents/*` package it reaches through
 * declared dependencies or imports in its built JavaScript. Each with its shipped files and third-party imports.
 */
export function workspaceClosure(app) {
  const lock = readJson(join(repoRoot, 'package-lock.json'));
  const byName = new Map();
  for (const [path, entry] of Object.entries(lock.packages))
    if (path && !path.includes('node_modules') && entry.name) byName.set(entry.name, path);
  const todo = [`apps/${app}`];
  const result = new Map();
  while (todo.length) {
    const ws = todo.pop();
    if (result.has(ws)) continue;
    const dist = join(repoRoot, ws, 'dist');
    if (!existsSync(dist)) throw new Error(`${ws}/dist is missing: run \`npm run build\` first`);
    const files = walk(dist).filter((f) => shipped(relative(dist, f)));
    const { devDependencies: _devDeps, ...pkg } = readJson(join(repoRoot, ws, 'package.json'));
    const imports = importedPackages(files.filter((f) => !webView(relative(dist, f))));
    const deps = new Set([...Object.keys(pkg.dependencies ?? {}), ...imports]);
    result.set(ws, { pkg, files, imports });
    for (const d of deps) if (byName.has(d)) todo.push(byName.get(d));
  }
  return { lock, workspaces: result, byName };
}

/**
 * The package.json and package-lock.json of the pruned workspace: only the app's workspaces, the third-party
 * packages they import that their own package.json leaves to the repository root (versions from the root's
 * package.json, as Nx's generatePackageJson does), and the lockfile entries production reaches from them.
 */
export function prunedManifests(app) {
  const { lock, workspaces, byName } = workspaceClosure(app);
  const rootPkg = readJson(join(repoRoot, 'package.json'));
  const rootDeps = {};
  for (const { pkg, imports } of workspaces.values())
    for (const name of imports) {
      if (byName.has(name) || pkg.dependencies?.[name]) continue;
      const range = rootPkg.dependencies?.[name];
      if (!range) throw new Error(`${pkg.name} imports ${name}, which neither it nor the root package.json declares`);
      rootDeps[name] = range;
    }
  const wsPaths = [...workspaces.keys()].sort();
  const manifest = {
    name: `kevents-${app}-bundle`,
    version: rootPkg.version,
    private: true,
    type: 'module',
    license: rootPkg.license,
    workspaces: wsPaths,
    dependencies: Object.fromEntries(Object.entries(rootDeps).sort()),
  };
  const packages = { '': { name: manifest.name, version: manifest.version, license: manifest.license } };
  packages[''].workspaces = wsPaths;
  packages[''].dependencies = manifest.dependencies;
  const wsByLinkPath = new Map();
  for (const ws of wsPaths) {
    const { devDependencies: _devDeps, ...entry } = lock.packages[ws];
    packages[ws] = entry;
    const link = `node_modules/${workspaces.get(ws).pkg.name}`;
    packages[link] = lock.packages[link];
    wsByLinkPath.set(link, ws);
  }
  const resolve = (from, name) => {
    for (let dir = from; ; dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '') {
      const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!dir) return null;
    }
  };
  const edges = (entry) => {
    const optionalPeers = new Set(
      Object.entries(entry.peerDependenciesMeta ?? {})
        .filter(([, m]) => m.optional)
        .map(([n]) => n),
    );
    return [
      ...Object.keys(entry.dependencies ?? {}).map((n) => [n, false]),
      ...Object.keys(entry.optionalDependencies ?? {}).map((n) => [n, true]),
      ...Object.keys(entry.peerDependencies ?? {})
        .filter((n) => !optionalPeers.has(n))
        .map((n) => [n, false]),
    ];
  };
  const todo = [['', packages['']], ...wsPaths.map((ws) => [ws, packages[ws]])];
  while (todo.length) {
    const [from, entry] = todo.pop();
    for (const [name, optional] of edges(entry)) {
      const at = resolve(from, name);
      if (!at) {
        if (optional) continue;
        throw new Error(`${from || 'root'}: ${name} is not in package-lock.json`);
      }
      if (packages[at] || wsByLinkPath.has(at)) continue;
      const { dev: _dev, devOptional, ...kept } = lock.packages[at];
      if (devOptional) kept.optional = true;
      packages[at] = kept;
      todo.push([at, kept]);
    }
  }
  const sorted = Object.fromEntries(
    Object.keys(packages)
      .sort()
      .map((k) => [k, packages[k]]),
  );
  return {
    manifest,
    lockfile: { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: sorted },
    workspaces,
  };
}

/**
 * Prepares the production bundle of `app` (apiserver or controller) in {@link bundleDir}: the pruned workspace
 * with each workspace's package.json and shipped build output, then `npm ci --omit=dev` there (from npm's cache
 * when it has the packages). Skipped when its inputs are unchanged since the last run. Returns the directory.
 */
export function prepareBundle(app, log = () => {}) {
  return withLock(`bundle-${app}`, () => prepareBundleNow(app, log), log);
}

async function prepareBundleNow(app, log) {
  const dir = bundleDir(app);
  const { manifest, lockfile, workspaces } = prunedManifests(app);
  const hash = createHash('sha256');
  hash.update(JSON.stringify(lockfile));
  for (const [ws, { pkg, files }] of [...workspaces].sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${ws}\0${JSON.stringify(pkg)}\0`);
    for (const f of files.sort()) hash.update(`${relative(repoRoot, f)}\0`).update(readFileSync(f));
  }
  const digest = hash.digest('hex');
  const stamp = join(dir, '.bundle-inputs');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
    log(`bundle ${app}: unchanged (${relative(repoRoot, dir)})`);
    return dir;
  }
  const t0 = Date.now();
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(tmp, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);
  for (const [ws, { pkg, files }] of workspaces) {
    mkdirSync(join(tmp, ws), { recursive: true });
    writeFileSync(join(tmp, ws, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    for (const f of files) {
      const to = join(tmp, relative(repoRoot, f));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(f, to);
    }
  }
  log(
    `bundle ${app}: npm ci --omit=dev (${workspaces.size} workspaces, ${Object.keys(lockfile.packages).length - 1} lockfile entries)`,
  );
  await run(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd: tmp,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    },
  );
  writeFileSync(join(tmp, '.bundle-inputs'), digest);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`bundle ${app}: prepared in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return dir;
}
