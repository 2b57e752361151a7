import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const cli = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
const dir = mkdtempSync(join(tmpdir(), 'kevents-young-'));
const script = join(dir, 'binary.mjs');
writeFileSync(
  script,
  `import v8 from 'node:v8';
import { heapGrowingPercent, restartWithYoungGeneration, youngGeneration, youngGenerationSummary } from '${cli}';
const before = process.pid;
const size = process.env.TEST_DEFAULT_MIB === undefined ? undefined : Number(process.env.TEST_DEFAULT_MIB);
const growing = process.env.TEST_GROWING === undefined ? undefined : Number(process.env.TEST_GROWING);
restartWithYoungGeneration({ semiSpaceMiB: size, heapGrowingPercent: growing });
const fill = [];
for (let i = 0; i < 2e6; i++) fill.push({ i });
const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
console.log(JSON.stringify({ pid: before, execArgv: process.execArgv, args: process.argv.slice(2), young: youngGeneration(), summary: youngGenerationSummary({ semiSpaceMiB: size }), growing: heapGrowingPercent() ?? null, newSpaceMiB: newSpace / 2 ** 20 }));
`,
);

/** Runs the stand-in binary; what it printed (from the process it was started as: execve keeps the PID). */
function run(nodeArgs: string[], env: Record<string, string> = {}) {
  const { KEVENTS_YOUNG_GENERATION: _, NODE_OPTIONS: __, ...base } = process.env;
  const r = spawnSync(process.execPath, [...nodeArgs, script, 'serve', '--flag=x'], {
    encoding: 'utf8',
    env: { ...base, ...env },
  });
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as {
    pid: number;
    execArgv: string[];
    args: string[];
    young: { semiSpaceMiB?: number; source: string };
    summary: string;
    growing: number | null;
    newSpaceMiB: number;
  };
  expect(out.pid).toBe(r.pid);
  return out;
}

/**
 * The largest new space two semi-spaces of `semiSpaceMiB` may report: V8 can hold a page or two
 * beyond them for a while (pinned by a scavenge under load: 17.25 MiB was seen for 8 MiB semi-spaces).
 */
function newSpaceLimit(semiSpaceMiB: number): number {
  return 2 * semiSpaceMiB * 1.5;
}

describe('restartWithYoungGeneration', () => {
  it('restarts a binary started with no setting in place with 32 MiB semi-spaces, keeping its arguments and flags', () => {
    const out = run(['--no-warnings']);
    expect(out.execArgv).toEqual(['--max-semi-space-size=32', '--no-warnings']);
    expect(out.args).toEqual(['serve', '--flag=x']);
    expect(out.young).toEqual({ semiSpaceMiB: 32, source: 'command-line' });
    expect(out.summary).toBe(
      "young generation: --max-semi-space-size=32 (MiB), kevents' default (NODE_OPTIONS=--max-semi-space-size=N changes it)",
    );
    expect(out.newSpaceMiB).toBeLessThan(newSpaceLimit(32));
  });

  it("restarts with the binary's own default when it gives one, and says it is the default", () => {
    const out = run([], { TEST_DEFAULT_MIB: '16' });
    expect(out.execArgv).toEqual(['--max-semi-space-size=16']);
    expect(out.summary).toBe(
      "young generation: --max-semi-space-size=16 (MiB), kevents' default (NODE_OPTIONS=--max-semi-space-size=N changes it)",
    );
    expect(out.newSpaceMiB).toBeLessThan(newSpaceLimit(16));
  });

  it('leaves a setting from the command line or NODE_OPTIONS alone, and V8 its own sizing when asked', () => {
    const own = run(['--max-semi-space-size=8']);
    expect(own.execArgv).toEqual(['--max-semi-space-size=8']);
    expect(own.summary).toBe('young generation: --max-semi-space-size=8 (MiB), from the command line');
    expect(own.newSpaceMiB).toBeLessThan(newSpaceLimit(8));
    const env = run([], { NODE_OPTIONS: '--max-semi-space-size=16' });
    expect(env.execArgv).toEqual([]);
    expect(env.young).toEqual({ semiSpaceMiB: 16, source: 'node-options' });
    expect(env.summary).toBe('young generation: --max-semi-space-size=16 (MiB), from NODE_OPTIONS');
    const v8 = run([], { KEVENTS_YOUNG_GENERATION: 'v8' });
    expect(v8.execArgv).toEqual([]);
    expect(v8.young).toEqual({ source: 'v8', semiSpaceMiB: undefined });
    expect(v8.summary).toBe('young generation: sized by V8 (no --max-semi-space-size)');
  });

  it('adds a heap growing percent when the binary gives one and its command line has none, whatever sets the semi-spaces', () => {
    const both = run([], { TEST_GROWING: '50' });
    expect(both.execArgv).toEqual(['--max-semi-space-size=32', '--heap-growing-percent=50']);
    expect(both.growing).toBe(50);
    expect(both.summary).toBe(
      "young generation: --max-semi-space-size=32 (MiB), kevents' default (NODE_OPTIONS=--max-semi-space-size=N changes it); old generation: --heap-growing-percent=50",
    );
    const fromEnv = run([], { TEST_GROWING: '50', NODE_OPTIONS: '--max-semi-space-size=16' });
    expect(fromEnv.execArgv).toEqual(['--heap-growing-percent=50']);
    expect(fromEnv.young).toEqual({ semiSpaceMiB: 16, source: 'node-options' });
    const v8 = run([], { TEST_GROWING: '50', KEVENTS_YOUNG_GENERATION: 'v8' });
    expect(v8.execArgv).toEqual(['--heap-growing-percent=50']);
    expect(v8.summary).toBe(
      'young generation: sized by V8 (no --max-semi-space-size); old generation: --heap-growing-percent=50',
    );
    const own = run(['--heap-growing-percent=80', '--max-semi-space-size=8'], { TEST_GROWING: '50' });
    expect(own.execArgv).toEqual(['--heap-growing-percent=80', '--max-semi-space-size=8']);
    expect(own.growing).toBe(80);
    expect(run([]).growing).toBeNull();
  });
});
