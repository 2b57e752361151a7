import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * `npm start`, both binaries and @kevents/controller-runtime on a Node.js older than 22.19: one
 * line that names the version needed, never a stack from inside undici. Checked with the running
 * Node pretending to be older (always), and with a real older Node when the machine has one on
 * PATH (the Node 20 of a stock Debian, for example), which also proves that nothing crashes at
 * import before the check runs.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const apiserverMain = join(root, 'apps/apiserver/dist/main.js');
const controllerMain = join(root, 'apps/controller/dist/main.js');
/** Imported by its package name, as a user's program does (the children run in the repository root, whose
 * node_modules links the workspace). */
const runtimeIndex = '@kevents/controller-runtime';
const needed = (who: string, version: string): string =>
  `${who}: Node.js 22.19 or newer is needed (Node 24 LTS recommended); this is ${version}\n`;
const startLine = (version: string): string =>
  `kevents: Node.js 22.19 or newer is needed (Node 24 LTS recommended; \`source tools/node24.sh\` installs it); this is ${version}\n`;
const runtimeText = (version: string): string =>
  `@kevents/controller-runtime needs Node.js 22.19.0 or newer (undici 8); this is ${version}`;

/** Makes the process report another Node version before anything else loads. */
const pretend = (version: string): string[] => [
  '--import',
  `data:text/javascript,Object.defineProperty(process, "versions", { value: { ...process.versions, node: "${version}" } });`,
];

const run = (node: string, args: string[]) => spawnSync(node, args, { cwd: root, encoding: 'utf8', timeout: 30_000 });

/** A `node` on PATH older than 22.19 (other than this one), with its version. */
function olderNode(): { path: string; version: string } | undefined {
  const self = realpathSync(process.execPath);
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!dir || !existsSync(candidate) || realpathSync(candidate) === self) continue;
    const v = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    const [major = 0, minor = 0] = v.split('.').map(Number);
    if (v && (major < 22 || (major === 22 && minor < 19))) return { path: candidate, version: v };
  }
  return undefined;
}

describe('an older Node.js', () => {
  it('gets one line from kevents-controller, npm start and controller-runtime (pretending 22.18.1)', () => {
    for (const f of [apiserverMain, controllerMain])
      if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run build\` first (npm test does)`);
    const controller = run(process.execPath, [...pretend('22.18.1'), controllerMain, '--help']);
    expect({ status: controller.status, stdout: controller.stdout, stderr: controller.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: needed('kevents-controller', '22.18.1'),
    });
    const start = run(process.execPath, [...pretend('22.18.1'), join(root, 'tools/dev/start.js')]);
    expect({ status: start.status, stdout: start.stdout, stderr: start.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: startLine('22.18.1'),
    });
    const lib = run(process.execPath, [
      ...pretend('22.18.1'),
      '--input-type=module',
      '-e',
      `await import('${runtimeIndex}')`,
    ]);
    expect(lib.status).toBe(1);
    expect(lib.stderr).toContain(runtimeText('22.18.1'));
    expect(lib.stderr).not.toContain('node_modules/undici');
    // 22.19 itself passes.
    const ok = run(process.execPath, [...pretend('22.19.0'), controllerMain, '--help']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('--kubeconfig');
  });

  const old = olderNode();
  (old ? it : it.skip)(
    `gets the same lines from a real older Node on PATH (${old ? old.version : 'none found'})`,
    () => {
      const { path, version } = old!;
      expect(run(path, [apiserverMain, '--help']).stderr).toBe(needed('kevents-apiserver', version));
      expect(run(path, [controllerMain, '--help']).stderr).toBe(needed('kevents-controller', version));
      expect(run(path, [join(root, 'tools/dev/node-version.js')]).stderr).toBe(startLine(version));
      expect(run(path, [join(root, 'tools/dev/start.js')]).stderr).toBe(startLine(version));
      const lib = run(path, ['--input-type=module', '-e', `await import('${runtimeIndex}')`]);
      expect(lib.status).toBe(1);
      expect(lib.stderr).toContain(runtimeText(version));
      expect(lib.stderr).not.toContain('decompress');
    },
  );
});
