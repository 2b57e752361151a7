import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { filesFromMarkdown } from './doc-files.js';
import { installScratch, isolatedEnvironment, runNpm } from './npm-install.js';
import type { InstallOutcome } from './npm-install.js';
import { publicPackages, tarballName, workspacePackages } from './public-packages.js';
import type { Manifest } from './public-packages.js';
import { addReadmeExamples, entryPointsTest, entrySpecifiers, writeScratchProject } from './scratch-project.js';
import type { ReadmeExample } from './scratch-project.js';
import { tarballProblems } from './tarball-check.js';

/*
 * What a user of the published packages gets: `npm pack` of every public package, installed from
 * the tarballs into a project in the system's temp folder (no workspace links, no NODE_PATH, no
 * PATH entry into this repository), where the program of docs/library.md, "Add your own
 * resource", is type-checked against the packages' declarations, run as plain Node, and tested
 * with the REST conformance suite and a controller-runtime informer (Jest from this repository,
 * as a tool: the code under test resolves only from the scratch project's node_modules).
 * Skipped, saying why, only when npm cannot reach the registry for what its cache lacks.
 */

const exec = promisify(execFile);
const root = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));
const inRepo = (p: string): boolean => realpathSync(p) === root || realpathSync(p).startsWith(root + sep);
const guide = readFileSync(join(root, 'docs/library.md'), 'utf8');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const packages = publicPackages(root);
const publicNames = new Set(packages.map((p) => p.manifest.name));
const env = isolatedEnvironment(root);

const work = realpathSync(mkdtempSync(join(tmpdir(), 'kevents-pack-')));
if (inRepo(work)) throw new Error(`the temp folder ${work} is inside the repository: set TMPDIR elsewhere`);
const tarballs = join(work, 'tarballs');
const scratch = join(work, 'widget-server');
mkdirSync(tarballs);
mkdirSync(scratch);
afterAll(() => {
  if (process.env['KEVENTS_KEEP_PACK'] !== '1') rmSync(work, { recursive: true, force: true });
});

await runNpm(
  ['pack', '--pack-destination', tarballs, '--loglevel=error', ...packages.flatMap((p) => ['-w', p.dir])],
  root,
  env,
);
const planned = packages.map((p) => ({ ...p, tarball: join(tarballs, tarballName(p.manifest)) }));

/** The install, done once at load so that an unreachable registry can skip the suites below by name. */
let installed: InstallOutcome | Error;
let examples: ReadmeExample[] = [];
try {
  const controllerRuntime = packages.find((p) => p.manifest.name === '@kevents/controller-runtime')!;
  writeScratchProject({
    dir: scratch,
    packages: planned,
    files: filesFromMarkdown(guide),
    dependencies: { '@kubernetes/client-node': controllerRuntime.manifest.dependencies!['@kubernetes/client-node']! },
    devDependencies: { '@types/node': rootManifest.devDependencies!['@types/node']! },
  });
  installed = await installScratch(scratch, env);
  if (installed.kind === 'installed') examples = addReadmeExamples(scratch, packages);
} catch (err) {
  installed = err as Error;
}
const ready = (): void => {
  if (installed instanceof Error) throw installed;
};

/** The table in docs/library.md: `| \`@kevents/x\` | public | why |`. */
function decidedVisibility(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of guide.matchAll(/^\| `(@kevents\/[a-z-]+)` \| (public|private) \|/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

describe('the public packages', () => {
  it('are decided on purpose: the guide lists every package as public or private, as its manifest says', () => {
    const decided = decidedVisibility();
    const actual = new Map(
      workspacePackages(root).map((p) => [p.manifest.name, p.manifest.private === true ? 'private' : 'public']),
    );
    expect(decided).toEqual(actual);
    for (const name of ['api', 'apiserver', 'storage', 'storage-redis', 'storage-sql', 'controller-runtime'])
      expect(publicNames).toContain(`@kevents/${name}`);
  });

  it.each(planned.map((p) => [p.manifest.name, p] as const))(
    '%s packs dist with declarations and source maps, a README and the license, and no tests or sources',
    async (_name, p) => {
      const { stdout } = await exec('tar', ['-tzf', p.tarball], { maxBuffer: 16 << 20 });
      const entries = stdout
        .split('\n')
        .filter(Boolean)
        .map((e) => e.replace(/^package\//, ''));
      expect(tarballProblems(p.manifest, entries, publicNames)).toEqual([]);
      const { stdout: license } = await exec('tar', ['-xzOf', p.tarball, 'package/LICENSE']);
      expect(license).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
    },
  );
});

const skipReason = !(installed instanceof Error) && installed.kind === 'unreachable' ? installed.reason : undefined;
if (skipReason)
  console.warn(`pack-install: the installed-package checks are skipped: npm cannot reach the registry (${skipReason})`);
const installedSuite = skipReason ? describe.skip : describe;

installedSuite(
  `installed from the tarballs outside the monorepo${skipReason ? ` (skipped: registry unreachable: ${skipReason})` : ''}`,
  () => {
    it('resolves every entry point from the project, not from the workspace', async () => {
      ready();
      const specifiers = entrySpecifiers(packages);
      const { stdout } = await exec(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `for (const s of ${JSON.stringify(specifiers)}) console.log(import.meta.resolve(s));`,
        ],
        { cwd: scratch, env },
      );
      const files = stdout
        .trim()
        .split('\n')
        .map((u) => fileURLToPath(u));
      expect(files).toHaveLength(specifiers.length);
      for (const f of files) {
        expect(f.startsWith(join(scratch, 'node_modules', '@kevents') + sep)).toBe(true);
        expect(inRepo(f)).toBe(false);
      }
    });

    it("type-checks the guide's program and every entry point against the packages' declarations", async () => {
      ready();
      const tsc = join(root, 'node_modules/typescript/bin/tsc');
      const r = await exec(process.execPath, [tsc, '-p', scratch], { cwd: scratch, env }).then(
        (ok) => ok.stdout,
        (err: { stdout: string }) => err.stdout,
      );
      // Errors of third-party declarations (client-node's isomorphic-ws names untyped `ws`) are not ours.
      const ours = r
        .split('\n')
        .filter((l) => /^[^\s].*error TS/.test(l))
        .filter((l) => !l.startsWith('node_modules/') || l.startsWith('node_modules/@kevents/'));
      expect(ours).toEqual([]);
      expect(existsSync(join(scratch, 'dist/main.js'))).toBe(true);
    }, 60_000);

    it("runs every package's README example that needs no outside server, as plain Node", async () => {
      ready();
      expect(examples.map((e) => e.packageName)).toEqual(packages.map((p) => p.manifest.name));
      for (const e of examples.filter((x) => x.runnable)) {
        const js = e.path.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');
        const r = await exec(process.execPath, [js], { cwd: scratch, env, timeout: 30_000 }).then(
          () => '',
          (err: { stderr: string; message: string }) => `${e.packageName}: ${err.stderr || err.message}`,
        );
        expect(r).toBe('');
      }
    }, 60_000);

    it('runs the example server as plain Node: it serves example.com/v1 widgets', async () => {
      ready();
      const child = spawn(process.execPath, ['dist/main.js'], { cwd: scratch, env: { ...env, PORT: '0' } });
      try {
        let out = '';
        const url = await new Promise<string>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error(`no address line: ${out}`)), 20_000);
          const read = (d: Buffer): void => {
            out += d.toString();
            const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (m) {
              clearTimeout(t);
              resolve(m[1]!);
            }
          };
          child.stdout.on('data', read);
          child.stderr.on('data', read);
          child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
        });
        const r = await fetch(`${url}/apis/example.com/v1`);
        expect(r.status).toBe(200);
        const list = (await r.json()) as { resources: { name: string; kind: string; shortNames?: string[] }[] };
        expect(list.resources.find((x) => x.name === 'widgets')).toMatchObject({ kind: 'Widget', shortNames: ['wg'] });
      } finally {
        child.kill('SIGKILL');
      }
    }, 30_000);

    it('passes the REST conformance suite and a controller-runtime informer against the Widget server', async () => {
      ready();
      const jest = join(root, 'node_modules/jest/bin/jest.js');
      const results = join(work, 'jest-results.json');
      const args = [
        '--experimental-vm-modules',
        '--no-warnings=ExperimentalWarning',
        jest,
        '--config',
        'jest.config.json',
      ];
      args.push('--rootDir', scratch, '--ci', '--maxWorkers=1', '--cacheDirectory', join(work, 'jest-cache'));
      args.push('--json', '--outputFile', results);
      const run = await exec(process.execPath, args, { cwd: scratch, env, maxBuffer: 64 << 20 }).then(
        () => '',
        (err: { stderr: string }) => err.stderr,
      );
      expect(existsSync(results)).toBe(true);
      const report = JSON.parse(readFileSync(results, 'utf8')) as {
        numFailedTests: number;
        numPassedTests: number;
        testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
      };
      const failed = report.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status !== 'passed'));
      expect({ failed: failed.map((a) => a.fullName), run: failed.length ? run.slice(-4000) : '' }).toEqual({
        failed: [],
        run: '',
      });
      const passed = (file: string): string[] =>
        report.testResults
          .filter((f) => f.name.endsWith(file))
          .flatMap((f) => f.assertionResults.filter((a) => a.status === 'passed').map((a) => a.fullName));
      // The conformance suite is over a hundred cases; the informer test is the guide's own.
      expect(passed('dist/widget.test.js').length).toBeGreaterThan(100);
      expect(passed('dist/widget.test.js')).toContain(
        'a controller-runtime informer on the Widget server lists the widgets there are, then watches new ones and changes',
      );
      expect(passed(entryPointsTest.replace('src/', 'dist/').replace('.ts', '.js'))).toHaveLength(
        entrySpecifiers(packages).length,
      );
    }, 120_000);
  },
);
