import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { WorkspacePackage } from './public-packages.js';
import { docFiles } from './doc-files.js';
import { exportTargets } from './public-packages.js';

/** What goes into a scratch project: the tarballs, the guide's files and the versions of the extra tools. */
export interface ScratchPlan {
  readonly dir: string;
  /** Every public package with the absolute path of its tarball. */
  readonly packages: readonly (WorkspacePackage & { readonly tarball: string })[];
  /** The guide's files by path (src/widget.ts, tsconfig.json ...). */
  readonly files: ReadonlyMap<string, string>;
  /** Registry dependencies the guide's program imports itself (`@kubernetes/client-node`). */
  readonly dependencies: Readonly<Record<string, string>>;
  /** Registry dev dependencies besides the packages' optional peers (`@types/node`). */
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** The test the pack check adds to the guide's files: every entry point of every public package loads. */
export const entryPointsTest = 'src/entry-points.test.ts';

/** Every import specifier the public packages export (`@kevents/apiserver/testing` ...), package.json aside. */
export function entrySpecifiers(packages: readonly WorkspacePackage[]): string[] {
  return packages.flatMap((p) =>
    [...new Set(exportTargets(p.manifest).map((t) => t.subpath))]
      .filter((s) => s !== './package.json')
      .map((s) => (s === '.' ? p.manifest.name : `${p.manifest.name}/${s.slice(2)}`)),
  );
}

function entryPointsSource(specifiers: readonly string[]): string {
  const imports = specifiers.map((s, i) => `import * as m${i} from '${s}';`).join('\n');
  const table = specifiers.map((s, i) => `  ['${s}', m${i}],`).join('\n');
  return `import { expect, it } from '@jest/globals';
${imports}

const entries: [string, object][] = [
${table}
];

it.each(entries)('%s loads and exports something', (_name, mod) => {
  expect(Object.keys(mod).length).toBeGreaterThan(0);
});
`;
}

/**
 * Writes the scratch project: a package.json that depends on every tarball by path and on each
 * package's optional peers (what a user who runs the testing entry points installs), the guide's
 * files, and {@link entryPointsTest}. The type check runs without skipLibCheck so the packages'
 * declarations are checked too.
 */
export function writeScratchProject(plan: ScratchPlan): void {
  const peers: Record<string, string> = {};
  for (const p of plan.packages) Object.assign(peers, p.manifest.peerDependencies ?? {});
  const manifest = {
    name: 'widget-server',
    version: '0.0.0',
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(plan.packages.map((p) => [p.manifest.name, `file:${p.tarball}`])),
      ...plan.dependencies,
    },
    devDependencies: { ...peers, ...plan.devDependencies },
  };
  writeFileSync(join(plan.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [path, text] of plan.files) {
    mkdirSync(dirname(join(plan.dir, path)), { recursive: true });
    writeFileSync(join(plan.dir, path), text);
  }
  writeFileSync(join(plan.dir, entryPointsTest), entryPointsSource(entrySpecifiers(plan.packages)));
  const tsconfigPath = join(plan.dir, 'tsconfig.json');
  const tsconfig = JSON.parse(readFileSync(tsconfigPath, 'utf8')) as { compilerOptions: Record<string, unknown> };
  tsconfig.compilerOptions['skipLibCheck'] = false;
  writeFileSync(tsconfigPath, `${JSON.stringify(tsconfig, null, 2)}\n`);
}

/** A README example copied into the scratch project. */
export interface ReadmeExample {
  readonly packageName: string;
  /** Where it was written (`src/readme/apiserver.ts`). */
  readonly path: string;
  /** False for an example that needs a server outside the test (a block marked `no-run`). */
  readonly runnable: boolean;
}

/**
 * Copies the `example.ts` block of each installed public package's README (as the tarball
 * shipped it, from the scratch project's node_modules) to `src/readme/<package>.ts`, so the type
 * check covers it and the test can run it. A README without one is an error.
 */
export function addReadmeExamples(dir: string, packages: readonly WorkspacePackage[]): ReadmeExample[] {
  mkdirSync(join(dir, 'src/readme'), { recursive: true });
  return packages.map((p) => {
    const readme = readFileSync(join(dir, 'node_modules', p.manifest.name, 'README.md'), 'utf8');
    const example = docFiles(readme).find((f) => f.path === 'example.ts');
    if (!example) throw new Error(`${p.manifest.name}: the README has no \`\`\`ts example.ts block`);
    const path = `src/readme/${p.manifest.name.split('/')[1]}.ts`;
    writeFileSync(join(dir, path), example.text);
    return { packageName: p.manifest.name, path, runnable: !example.words.includes('no-run') };
  });
}
