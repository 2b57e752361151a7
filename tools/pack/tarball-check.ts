import type { Manifest } from './public-packages.js';
import { exportTargets } from './public-packages.js';

/**
 * What is wrong with a public package's tarball, given its manifest and the paths of its entries
 * (without npm's `package/` prefix); empty when nothing is. `publicNames` are the workspace's
 * public packages: a public package may depend only on those, by a real semver range.
 */
export function tarballProblems(m: Manifest, entries: readonly string[], publicNames: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const has = new Set(entries);
  const need = (path: string, why: string): void => {
    if (!has.has(path)) problems.push(`${path} is missing (${why})`);
  };
  need('package.json', 'every tarball has one');
  need('README.md', 'what it is, install, an example, its API');
  need('LICENSE', 'the license text');
  for (const { subpath, condition, target } of exportTargets(m)) {
    need(target.replace(/^\.\//, ''), `exports["${subpath}"].${condition}`);
  }
  if (!(m.exports?.['.'] && typeof m.exports['.'] === 'object' && m.exports['.']['types'] && m.exports['.']['import']))
    problems.push('exports["."] needs "types" and "import"');
  for (const e of entries) {
    if (/\.test\.|\.spec\./.test(e)) problems.push(`${e}: a test in the tarball`);
    else if (e.startsWith('src/')) problems.push(`${e}: sources in the tarball (dist carries inline source maps)`);
    else if (/(^|\/)(tsconfig[^/]*\.json|project\.json)$|\.tsbuildinfo$/.test(e))
      problems.push(`${e}: build configuration in the tarball`);
    else if (e.endsWith('.js') && e.startsWith('dist/')) {
      if (!has.has(`${e}.map`)) problems.push(`${e} has no source map`);
      if (!has.has(e.replace(/\.js$/, '.d.ts'))) problems.push(`${e} has no type declarations`);
    }
  }
  if (m.private) problems.push('the manifest says private');
  if (m.license !== 'Apache-2.0') problems.push(`license is ${String(m.license)}, not Apache-2.0`);
  if (!m.description) problems.push('no description');
  if (!m.keywords?.length) problems.push('no keywords');
  if (!m.repository?.url || !m.repository.directory) problems.push('no repository url and directory');
  if (!/^>=\d+\.\d+/.test(m.engines?.node ?? '')) problems.push('no engines.node lower bound');
  if (!m.files?.includes('dist')) problems.push('files does not list dist');
  for (const [name, range] of Object.entries(m.dependencies ?? {})) {
    if (!name.startsWith('@kevents/')) continue;
    if (!publicNames.has(name)) problems.push(`depends on ${name}, which is private`);
    if (!/^[~^]?\d+\.\d+\.\d+/.test(range)) problems.push(`depends on ${name} by "${range}", not a semver range`);
  }
  for (const name of Object.keys(m.peerDependencies ?? {})) {
    if (m.peerDependenciesMeta?.[name]?.optional !== true) problems.push(`peer ${name} is not marked optional`);
  }
  return problems;
}
