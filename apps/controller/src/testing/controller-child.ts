/**
 * Test helpers for apps/controller: run the built kevents-controller (`dist/main.js`) as a child
 * process, write many events fast, and read a series. Used by the tests only (not built).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Event } from '@kevents/api';
import { ChildRun, nodeChildEnv, testClients, testEvent, waitFor } from '@kevents/controller-runtime/testing';

const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Starts kevents-controller against `server`; resolves once it logs that its controllers started. */
export async function startController(
  server: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
  waitStarted = true,
): Promise<ChildRun> {
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const proc = spawn(
    process.execPath,
    [main, `--server=${server}`, '--health-probe-bind-address=127.0.0.1:0', '--log-format=json', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: nodeChildEnv({ ...process.env, ...env }) },
  );
  const c = new ChildRun(proc);
  if (waitStarted)
    await waitFor(
      () => {
        if (c.exited) throw new Error(`controller exited: ${c.output}`);
        return c.output.includes('"msg":"controllers started"');
      },
      30_000,
      () => `controller did not start: ${c.output}`,
    );
  return c;
}

/** Creates `n` isomorphic events (same series key, distinct names) with `concurrency` writers. */
export async function writeSeries(
  server: string,
  namespace: string,
  n: number,
  opts: { concurrency?: number; prefix?: string; onProgress?: (done: number) => Promise<void> | void } = {},
): Promise<void> {
  const { events } = testClients(server);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      await events.create(testEvent(`${opts.prefix ?? 'e'}-${i}`, namespace));
      done++;
      await opts.onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 32 }, worker));
}

/** Every event in a namespace. */
export async function listAll(server: string, namespace: string): Promise<Event[]> {
  return (await testClients(server).events.list({ namespace })).items;
}

/** Waits until the namespace holds exactly one event, with `series.count === count`. */
export async function waitForOneSeries(server: string, namespace: string, count: number, ms = 120_000): Promise<Event> {
  const { events } = testClients(server);
  let seen = '';
  let result: Event | undefined;
  await waitFor(
    async () => {
      const l = await events.list({ namespace, limit: 2 });
      seen = `${l.items.length} items${l.metadata.continue ? '+' : ''}, first count ${l.items[0]?.series?.count}`;
      // More occurrences than were written can never come right again: fail at once.
      if ((l.items[0]?.series?.count ?? 0) > count) throw new Error(`over-counted: ${seen}`);
      if (l.items.length === 1 && !l.metadata.continue && l.items[0]!.series?.count === count) result = l.items[0];
      return result !== undefined;
    },
    ms,
    () => `no single series of ${count} in ${namespace}: ${seen}`,
  );
  return result!;
}
