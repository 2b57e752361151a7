/**
 * The browser tests' harness: a real kevents-apiserver (the build, `apps/apiserver/dist/main.js`, serving the built
 * web view) and Debian's Chromium driven by playwright-core. Also used by the benchmarks (tools/bench/ui.test.ts
 * style runs) through {@link startApiserver} and {@link launchChromium}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { freePort, waitFor } from '@kevents/api/testing';

export const chromiumPath = process.env['KEVENTS_CHROMIUM'] || '/usr/bin/chromium';
const main = fileURLToPath(new URL('../../../apiserver/dist/main.js', import.meta.url));
const builtPage = fileURLToPath(new URL('../../../apiserver/dist/ui/index.html', import.meta.url));

/**
 * Why the browser tests cannot run here (null when they can). Chromium missing skips them with this reason,
 * unless KEVENTS_BROWSER_TESTS=required (CI), where it fails them.
 */
export function browserSkipReason(): string | null {
  if (existsSync(chromiumPath)) return null;
  const reason = `${chromiumPath} is missing (apt-get install chromium, or bash .ci/install-chromium.sh)`;
  if (process.env['KEVENTS_BROWSER_TESTS'] === 'required') throw new Error(`KEVENTS_BROWSER_TESTS=required: ${reason}`);
  return reason;
}

/** A kevents-apiserver child process on plain HTTP, loopback. */
export interface Apiserver {
  readonly url: string;
  readonly port: number;
  /** `https://127.0.0.1:<port>` (a self-signed certificate) when started with `secure`. */
  readonly secureUrl: string;
  log(): string;
  stop(): Promise<void>;
}

/** Starts the built apiserver on plain HTTP (and HTTPS too with `secure`: kubectl sends no token over HTTP). */
export async function startApiserver(args: readonly string[] = [], secure = false): Promise<Apiserver> {
  for (const f of [main, builtPage])
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run build\` first (npm test does)`);
  const port = await freePort();
  const securePort = secure ? await freePort() : 0;
  const proc: ChildProcess = spawn(
    process.execPath,
    [main, `--insecure-port=${port}`, `--secure-port=${securePort}`, '--storage=memory', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-8000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  };
  try {
    await waitFor(
      () => {
        if (proc.exitCode !== null) throw new Error(`apiserver exited (${proc.exitCode}): ${out}`);
        return fetch(`${url}/livez`).then(
          (r) => r.status === 200,
          () => false,
        );
      },
      20_000,
      () => `apiserver did not start: ${out}`,
      { intervalMs: 100 },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, secureUrl: `https://127.0.0.1:${securePort}`, log: () => out, stop };
}

/**
 * Debian's Chromium, headless. playwright-core gives each launch a new, empty --user-data-dir (a temporary
 * directory it removes on close; it refuses the flag in `args`); its HOME-side files go to a throwaway HOME.
 */
export async function launchChromium(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'kevents-ui-chromium-'));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env: { ...process.env, HOME: profile },
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** MicroTime (RFC 3339 with microseconds) of `ms`. */
export const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** An events.k8s.io/v1 Event body. */
export function eventBody(o: {
  name: string;
  namespace: string;
  reason?: string;
  type?: string;
  kind?: string;
  object?: string;
  note?: string;
  at?: number;
  controller?: string;
  cluster?: string;
  related?: { kind: string; name: string; namespace: string };
  series?: { count: number; last: number };
}): Record<string, unknown> {
  const at = o.at ?? Date.now();
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: {
      name: o.name,
      namespace: o.namespace,
      ...(o.cluster ? { labels: { 'kevents.io/cluster': o.cluster } } : {}),
    },
    eventTime: microTime(at),
    reportingController: o.controller ?? 'kubelet',
    reportingInstance: 'node-1',
    action: 'Testing',
    reason: o.reason ?? 'Started',
    type: o.type ?? 'Normal',
    note: o.note ?? `note of ${o.name}`,
    regarding: { kind: o.kind ?? 'Pod', name: o.object ?? 'web-0', namespace: o.namespace, apiVersion: 'v1' },
    ...(o.related ? { related: { ...o.related, apiVersion: 'v1' } } : {}),
    ...(o.series ? { series: { count: o.series.count, lastObservedTime: microTime(o.series.last) } } : {}),
  };
}

/** POSTs an event; throws on any status but 201. */
export async function createEvent(
  server: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<void> {
  const ns = (body['metadata'] as { namespace: string }).namespace;
  const res = await fetch(`${server}/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`create ${res.status}: ${await res.text()}`);
}
