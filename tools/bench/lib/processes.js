import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A free loopback TCP port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers 200 (bounded). */
export async function waitReady(url, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`${url} did not become ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const children = new Set();
let hooked = false;

/**
 * Kills `child` when this benchmark exits for any reason (done, an error, Ctrl-C, SIGTERM, or its
 * output pipe closed, as with `| head`), so no server outlives the run. Returns `child`.
 */
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const c of children) c.kill('SIGKILL');
    });
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ])
      process.once(signal, () => process.exit(code));
    process.stdout.on('error', () => process.exit(1));
  }
  return child;
}

/**
 * Starts a node script as a child process; returns a stop function. Its stdout is dropped unless
 * `stdout` is 'inherit' (V8's `--trace-gc` prints there).
 */
export function startNode(args, env = {}, { stdout = 'ignore' } = {}) {
  const child = track(
    spawn(process.execPath, args, {
      stdio: ['ignore', stdout, 'inherit'],
      env: { ...process.env, ...env },
    }),
  );
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Pins every thread of a process to one CPU (Linux `taskset`); says so on stderr when it cannot.
 * The benchmarks' `--pin` puts the load generator on CPU 0 and the servers on CPU 1: unpinned, on a
 * 2-core machine the scheduler can leave one server beside the load generator for its whole life.
 */
export function pinToCpu(cpu, pid) {
  const r = spawnSync('taskset', ['-apc', String(cpu), String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) process.stderr.write(`--pin: taskset failed for pid ${pid}: ${r.stderr || r.error?.message}\n`);
}
