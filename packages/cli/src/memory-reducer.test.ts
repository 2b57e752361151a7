import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from '@jest/globals';
import { keepMemoryReducerRunning } from './memory-reducer.js';

const cli = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
const dir = mkdtempSync(join(tmpdir(), 'kevents-reducer-'));
const script = join(dir, 'idle.mjs');
const idleMs = 25_000;
// A burst that leaves ~100 MB of heap committed and nothing alive, then idle: it prints the
// committed heap at its peak and when it fell below a third of it (or after idleMs), then ends.
writeFileSync(
  script,
  `import v8 from 'node:v8';
import { keepMemoryReducerRunning } from '${cli}';
if (process.argv[2] === 'nudge') keepMemoryReducerRunning({ quietMs: 2000, checkIntervalMs: 500 });
let keep = [];
for (let round = 0; round < 6; round++) {
  for (let i = 0; i < 150_000; i++) keep.push({ i, s: 'x'.repeat(i % 40) + i });
  if (round % 2 === 1) keep = [];
}
const peak = v8.getHeapStatistics().total_heap_size;
keep = undefined;
const t0 = Date.now();
const timer = setInterval(() => {
  const now = v8.getHeapStatistics().total_heap_size;
  if (now < peak / 3 || Date.now() - t0 > ${idleMs}) {
    clearInterval(timer);
    console.log(JSON.stringify({ peakMiB: peak / 2 ** 20, nowMiB: now / 2 ** 20, ms: Date.now() - t0 }));
  }
}, 250);
`,
);

interface Result {
  peakMiB: number;
  nowMiB: number;
  ms: number;
  /** V8's trace of the memory reducer. */
  trace: string;
}

/** Runs the script (with the nudge or without it). */
function run(mode: 'nudge' | 'plain'): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--trace-memory-reducer', script, mode], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      const last = out.trim().split('\n').pop() ?? '';
      try {
        resolve({ ...(JSON.parse(last) as Omit<Result, 'trace'>), trace: out });
      } catch {
        reject(new Error(`no result from the script:\n${out}`));
      }
    });
  });
}

describe('keepMemoryReducerRunning', () => {
  it("lets V8's memory reducer shrink a quiet heap, which it does not do on this Node without it", async () => {
    const [nudged, plain] = await Promise.all([run('nudge'), run('plain')]);
    expect(nudged.peakMiB).toBeGreaterThan(60);
    expect(nudged.trace).toContain('Memory reducer: low alloc');
    expect(nudged.trace).toContain('Memory reducer: started GC');
    expect(nudged.nowMiB).toBeLessThan(nudged.peakMiB / 3);
    expect(nudged.ms).toBeLessThan(idleMs);
    // Node 24's V8 (13.6): the embedder's allocation rate reads 0, the highest, so the reducer waits
    // for its 100 s watchdog. When a Node release fixes that, this fails: the nudge is then no longer needed.
    expect(plain.trace).not.toContain('Memory reducer: low alloc');
    expect(plain.nowMiB).toBeGreaterThan(plain.peakMiB / 3);
  }, 60_000);

  it('nudges only once the event loop has been quiet for quietMs, and again at each quiet check', async () => {
    const nudges: { at: number; quietFor: number }[] = [];
    const t0 = performance.now();
    const stop = keepMemoryReducerRunning({
      quietMs: 1000,
      checkIntervalMs: 200,
      onNudge: (quietFor) => nudges.push({ at: performance.now() - t0, quietFor }),
    });
    try {
      // 2 s of a busy loop (90% of each 50 ms), then quiet.
      await new Promise<void>((resolve) => {
        const spin = setInterval(() => {
          const end = performance.now() + 45;
          while (performance.now() < end);
          if (performance.now() - t0 > 2000) {
            clearInterval(spin);
            resolve();
          }
        }, 50);
      });
      expect(nudges).toEqual([]);
      // Quiet from here: three nudges come about 1.0, 1.2 and 1.4 s later on an idle machine; a
      // machine busy with other work delays the checks, so they are waited for up to 10 s.
      for (let waited = 0; nudges.length < 3 && waited < 10_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      stop();
    }
    expect(nudges.length).toBeGreaterThanOrEqual(3);
    expect(nudges[0]!.at).toBeGreaterThanOrEqual(2700);
    for (const n of nudges) expect(n.quietFor).toBeGreaterThanOrEqual(1000);
    const count = nudges.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(nudges.length).toBe(count);
  }, 30_000);
});
