import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStorage } from '@kevents/storage';
import type { Storage } from '@kevents/storage';
import { buildServer } from '../server/app.js';
import type { KeventsServer, ServerOptions } from '../server/app.js';

/** A kevents server listening on a free loopback port, for tests. */
export interface TestServer {
  readonly url: string;
  readonly server: KeventsServer;
  readonly storage: Storage;
  close(): Promise<void>;
}

/**
 * Starts an in-process server on 127.0.0.1 with an in-process store (unless one is given). With
 * `https`, it serves TLS (HTTP/2 and HTTP/1.1 on one port) and {@link TestServer.url} is `https://`.
 */
export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const storage = options.storage ?? new MemoryStorage();
  const server = buildServer({ ...options, storage });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.app.server.address() as { port: number };
  return {
    url: `${options.https ? 'https' : 'http'}://127.0.0.1:${port}`,
    server,
    storage,
    close: async () => {
      await server.watches.closeAll();
      await server.app.close();
      await storage.close();
    },
  };
}

/** An isolated kubectl: empty kubeconfig, its own discovery cache, talking to one server. */
export class Kubectl {
  readonly #server: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #cache: string;

  constructor(server: string) {
    this.#server = server;
    const dir = mkdtempSync(join(tmpdir(), 'kevents-kubectl-'));
    const kubeconfig = join(dir, 'config');
    writeFileSync(kubeconfig, '');
    this.#cache = join(dir, 'cache');
    this.#env = { ...process.env, KUBECONFIG: kubeconfig, HOME: dir };
  }

  #args(args: readonly string[]): string[] {
    return [`--server=${this.#server}`, `--cache-dir=${this.#cache}`, ...args];
  }

  /** Runs kubectl to completion; resolves with its exit code and output (never rejects on exit code). */
  run(args: readonly string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = execFile(
        'kubectl',
        this.#args(args),
        { env: this.#env, timeout: 30_000 },
        (err, stdout, stderr) => {
          const code = err
            ? typeof (err as { code?: unknown }).code === 'number'
              ? (err as { code: number }).code
              : 1
            : 0;
          resolve({ code, stdout, stderr });
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  }

  /** Starts a long-running kubectl (for `-w`); the caller kills it. */
  spawn(args: readonly string[]): ChildProcess {
    return spawn('kubectl', this.#args(args), { env: this.#env, stdio: ['ignore', 'pipe', 'pipe'] });
  }
}

/** Resolves once `predicate(output)` holds for the complete lines of a child's stdout (or rejects after `ms`). */
export function waitForOutput(child: ChildProcess, predicate: (out: string) => boolean, ms = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for output; got:\n${out}\nstderr:\n${err}\nexit: ${child.exitCode}`)),
      ms,
    );
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      // A writer may flush a row in pieces (kubectl's tabwriter does): judge whole lines only.
      const complete = out.slice(0, out.lastIndexOf('\n') + 1);
      if (complete !== '' && predicate(complete)) {
        clearTimeout(timer);
        resolve(complete);
      }
    });
  });
}

/** A valid events.k8s.io/v1 Event as a user writes it. */
/**
 * {@link sampleEvent} as a YAML body: `metadata` holds the name, the namespace when given, and
 * `metadataLines` (indented by the caller under `metadata:`).
 */
export function sampleEventYaml(name: string, namespace: string | undefined, metadataLines: readonly string[]): string {
  return [
    'apiVersion: events.k8s.io/v1',
    'kind: Event',
    'metadata:',
    `  name: ${name}`,
    ...(namespace === undefined ? [] : [`  namespace: ${namespace}`]),
    ...metadataLines,
    'eventTime: "2026-01-02T03:04:05.123456Z"',
    'reportingController: example.com/tests',
    'reportingInstance: tests-1',
    'action: Tested',
    'reason: Testing',
    'type: Normal',
    `regarding: {kind: Pod, name: web-0${namespace === undefined ? '' : `, namespace: ${namespace}`}}`,
  ].join('\n');
}

export function sampleEvent(
  name: string,
  namespace: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace },
    eventTime: '2026-01-02T03:04:05.123456Z',
    reportingController: 'example.com/tests',
    reportingInstance: 'tests-1',
    action: 'Tested',
    reason: 'Testing',
    type: 'Normal',
    note: `event ${name}`,
    regarding: { kind: 'Pod', name: 'web-0', namespace },
    ...extra,
  };
}

/** JSON request helper: returns status, headers and parsed body (text when not JSON). */
export async function request(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
