// A built copy of the project at another git ref, for side-by-side benchmarks (tools/bench/compare.js).
// The copy is a detached git worktree under node_modules/.cache/kevents-bench/<sha>, built once and
// reused while its marker file says it is complete.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const MARKER = '.kevents-bench-ready.json';

function run(cmd, args, cwd, { quiet = false } = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed with ${r.status ?? r.signal}:\n${out}`);
  }
  if (!quiet && r.stderr) process.stderr.write(r.stderr);
  return r.stdout.trim();
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** `node_modules/a/node_modules/b` -> `a`; `node_modules/@s/a/...` -> `@s/a`. */
function topLevelName(key) {
  const parts = key.slice('node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The lockfile's third-party entries, grouped by top-level package; `undefined` if it has entries npm ci would put inside a workspace. */
function thirdParty(packages) {
  const groups = new Map();
  for (const [key, entry] of Object.entries(packages)) {
    if (key === '' || entry.link) continue;
    if (!key.startsWith('node_modules/')) {
      if (key.includes('node_modules/')) return undefined; // nested inside a workspace
      continue; // a workspace itself
    }
    const top = topLevelName(key);
    if (!groups.has(top)) groups.set(top, new Map());
    groups.get(top).set(key, entry);
  }
  return groups;
}

/**
 * Why the root's installed dependencies cannot serve the baseline's lockfile, or `undefined` if they can:
 * every third-party package the baseline locks must be installed at the root under the same path, version
 * and integrity, with nothing else nested under it (optional packages for other platforms aside).
 */
function whyNotReusable(root, tree) {
  const installedPath = join(root, 'node_modules/.package-lock.json');
  if (!existsSync(installedPath)) return 'the root has no node_modules/.package-lock.json';
  const installed = thirdParty(readJson(installedPath).packages ?? {});
  const rootLock = readJson(join(root, 'package-lock.json')).packages ?? {};
  const wanted = thirdParty(readJson(join(tree, 'package-lock.json')).packages ?? {});
  if (!wanted || !installed) return 'a lockfile installs packages inside a workspace';
  for (const [top, entries] of wanted) {
    const have = installed.get(top);
    for (const [key, entry] of entries) {
      const got = have?.get(key);
      if (!got) {
        // An optional package npm ci skipped at the root (another platform) is skipped here too.
        if (entry.optional && rootLock[key]?.version === entry.version) continue;
        return `${key}@${entry.version} is not installed at the root`;
      }
      if (got.version !== entry.version || (got.integrity && entry.integrity && got.integrity !== entry.integrity)) {
        return `${key} is ${got.version} at the root, ${entry.version} in the baseline`;
      }
    }
    for (const key of have?.keys() ?? []) {
      if (!entries.has(key)) return `${key} is installed at the root but not locked by the baseline`;
    }
  }
  return undefined;
}

/** The workspace folders a package.json names (npm's `dir/*` globs and plain paths). */
function workspaceDirs(tree) {
  const dirs = [];
  for (const pattern of readJson(join(tree, 'package.json')).workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = join(tree, pattern.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const d of readdirSync(parent, { withFileTypes: true })) {
        if (d.isDirectory() && existsSync(join(parent, d.name, 'package.json'))) dirs.push(join(parent, d.name));
      }
    } else if (existsSync(join(tree, pattern, 'package.json'))) {
      dirs.push(join(tree, pattern));
    }
  }
  return dirs;
}

/**
 * node_modules for the baseline without installing: a real folder in which each third-party package
 * is a symlink to the root's copy, and each workspace package a relative link into the baseline's own
 * tree (names come from the baseline's package.json files, so a package that moved or was renamed
 * between the two refs resolves to the baseline's code, never to the current tree's).
 */
function linkDependencies(root, tree) {
  const nm = join(tree, 'node_modules');
  rmSync(nm, { recursive: true, force: true });
  mkdirSync(nm);
  const link = (target, path, type) => {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path, type);
  };
  const wanted = thirdParty(readJson(join(tree, 'package-lock.json')).packages ?? {});
  for (const top of wanted.keys()) {
    if (existsSync(join(root, 'node_modules', top))) link(join(root, 'node_modules', top), join(nm, top), 'dir');
  }
  if (existsSync(join(root, 'node_modules/.bin'))) link(join(root, 'node_modules/.bin'), join(nm, '.bin'), 'dir');
  for (const dir of workspaceDirs(tree)) {
    const { name } = readJson(join(dir, 'package.json'));
    const path = join(nm, name);
    link(relative(dirname(path), dir), path, 'dir');
  }
}

/**
 * Resolves `ref`, and returns a built tree of it, preparing it if needed (a detached git worktree,
 * dependencies linked from the root when its lockfile allows, else `npm ci`; then `npm run build`).
 * @param {string} ref a git ref of the repository at `root`
 * @param {{ root: string, forceInstall?: boolean }} o
 * @returns {{ sha: string, tree: string, main: string, prepared: boolean, deps: string }}
 */
export function prepareBaseline(ref, o) {
  const { root } = o;
  const sha = run('git', ['rev-parse', '--verify', `${ref}^{commit}`], root);
  const tree = join(root, 'node_modules/.cache/kevents-bench', sha);
  const main = join(tree, 'apps/apiserver/dist/main.js');
  const marker = join(tree, MARKER);
  if (existsSync(marker) && existsSync(main) && !o.forceInstall) {
    const { deps } = readJson(marker);
    process.stderr.write(`baseline ${ref} (${sha.slice(0, 12)}): reusing the build in ${relative(root, tree)}\n`);
    return { sha, tree, main, prepared: false, deps };
  }
  const t0 = Date.now();
  if (!existsSync(join(tree, '.git'))) {
    mkdirSync(dirname(tree), { recursive: true });
    // A worktree whose folder was deleted (e.g. by an `npm ci` at the root) is still registered: -f reuses its path.
    const registered = run('git', ['worktree', 'list', '--porcelain'], root).split('\n').includes(`worktree ${tree}`);
    process.stderr.write(`baseline ${ref} (${sha.slice(0, 12)}): git worktree add ${relative(root, tree)}\n`);
    run('git', ['worktree', 'add', ...(registered ? ['-f'] : []), '--detach', tree, sha], root, { quiet: true });
  } else {
    run('git', ['checkout', '--quiet', '--detach', sha], tree);
  }
  rmSync(marker, { force: true });
  const why = o.forceInstall ? '--install was given' : whyNotReusable(root, tree);
  let deps;
  if (why === undefined) {
    process.stderr.write("baseline: linking the root's installed dependencies (the lockfiles agree)\n");
    linkDependencies(root, tree);
    deps = 'linked from the root';
  } else {
    process.stderr.write(`baseline: npm ci (${why}) ...\n`);
    rmSync(join(tree, 'node_modules'), { recursive: true, force: true });
    run('npm', ['ci', '--no-audit', '--no-fund'], tree, { quiet: true });
    deps = 'npm ci';
  }
  process.stderr.write('baseline: npm run build ...\n');
  run('npm', ['run', 'build'], tree, { quiet: true });
  if (!existsSync(main)) throw new Error(`the baseline build has no ${relative(tree, main)}`);
  writeFileSync(marker, `${JSON.stringify({ ref, sha, deps, node: process.version, at: new Date().toISOString() })}\n`);
  process.stderr.write(`baseline: ready in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  return { sha, tree, main, prepared: true, deps };
}
