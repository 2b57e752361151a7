import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));

/** The chart the tests render. */
export const chartDir = join(here, '..', '..', 'charts', 'kevents');

/** Where Debian's golang-* -dev packages install their Go sources (GOPATH mode). */
export const goPath = process.env.KEVENTS_GOPATH || '/usr/share/gocode';

const cacheDir =
  process.env.KEVENTS_CHART_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kevents-chart');

const goSources = [
  'github.com/Masterminds/sprig',
  'github.com/xeipuuv/gojsonschema',
  'sigs.k8s.io/yaml',
  'gopkg.in/yaml.v2',
];

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, cwd, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * Why the renderer cannot be built here (no `go`, or a Go source package missing), or
 * undefined when it can. The Debian packages are golang-go, golang-github-masterminds-sprig-dev,
 * golang-github-xeipuuv-gojsonschema-dev and golang-k8s-sigs-yaml-dev (.ci/install-chart-tools.sh).
 */
export async function rendererMissing(): Promise<string | undefined> {
  try {
    await run('go', ['version']);
  } catch {
    return 'go is not on PATH (apt-get install golang-go; see .ci/install-chart-tools.sh)';
  }
  const missing = goSources.filter((p) => !existsSync(join(goPath, 'src', p)));
  if (missing.length > 0)
    return `Go sources missing under ${goPath}/src: ${missing.join(', ')} (see .ci/install-chart-tools.sh)`;
  return undefined;
}

let built: Promise<string> | undefined;

/**
 * Builds tools/chart/renderer once (GOPATH mode against the Debian Go sources, no network)
 * into a cache directory keyed by its source and the Go version; returns the binary's path.
 */
export function ensureRenderer(): Promise<string> {
  built ??= (async () => {
    const source = readFileSync(join(here, 'renderer', 'main.go'));
    const goVersion = await run('go', ['version']);
    const key = createHash('sha256').update(source).update(goVersion).digest('hex').slice(0, 16);
    const binary = join(cacheDir, key, 'renderer');
    if (existsSync(binary)) return binary;
    mkdirSync(join(cacheDir, key), { recursive: true });
    const gopath = mkdtempSync(join(tmpdir(), 'kevents-renderer-gopath-'));
    try {
      const tmp = `${binary}.${process.pid}`;
      await run(
        'go',
        ['build', '-o', tmp, '.'],
        {
          ...process.env,
          GO111MODULE: 'off',
          GOPATH: `${gopath}:${goPath}`,
          GOCACHE: join(cacheDir, 'gocache'),
          GOFLAGS: '',
          CGO_ENABLED: '0',
        },
        join(here, 'renderer'),
      ).catch((err: Error) => {
        throw new Error(`building the chart renderer: ${err.message}`);
      });
      renameSync(tmp, binary);
    } finally {
      rmSync(gopath, { recursive: true, force: true });
    }
    return binary;
  })();
  return built;
}

/** Options of one render, as `helm template` takes them. */
export interface RenderOptions {
  /** Values files (paths), later ones win. */
  readonly valuesFiles?: readonly string[];
  /** Values given inline, applied after the files. */
  readonly values?: Record<string, unknown>;
  readonly releaseName?: string;
  readonly namespace?: string;
  /** Extra `.Capabilities.APIVersions` (e.g. monitoring.coreos.com/v1). */
  readonly apiVersions?: readonly string[];
  /** Objects `lookup` finds (default none, as `helm template`). */
  readonly lookup?: readonly Record<string, unknown>[];
  /** A missing key is an error (as `helm lint --strict`). Default true. */
  readonly strict?: boolean;
}

/** A rendered Kubernetes object with the template it came from. */
export interface RenderedDocument {
  readonly source: string;
  readonly object: { apiVersion?: string; kind?: string; metadata?: Record<string, unknown>; [k: string]: unknown };
}

/** What a render gives: the text per template, the parsed objects and NOTES.txt. */
export interface Rendered {
  readonly manifests: Record<string, string>;
  readonly documents: RenderedDocument[];
  readonly notes: string;
}

/** Renders the chart; rejects with the renderer's message (schema errors, `fail`, `required`). */
export async function renderChart(options: RenderOptions = {}): Promise<Rendered> {
  const binary = await ensureRenderer();
  const args = [
    '-chart',
    chartDir,
    '-name',
    options.releaseName ?? 'test',
    '-namespace',
    options.namespace ?? 'kevents',
  ];
  if (options.strict ?? true) args.push('-strict');
  for (const f of options.valuesFiles ?? []) args.push('-f', f);
  for (const v of options.apiVersions ?? []) args.push('-api-versions', v);
  const dir = mkdtempSync(join(tmpdir(), 'kevents-render-'));
  try {
    if (options.values) {
      writeFileSync(join(dir, 'values.json'), JSON.stringify(options.values));
      args.push('-f', join(dir, 'values.json'));
    }
    if (options.lookup) {
      writeFileSync(join(dir, 'lookup.json'), JSON.stringify(options.lookup));
      args.push('-lookup', join(dir, 'lookup.json'));
    }
    const out = JSON.parse(await run(binary, args)) as { manifests: Record<string, string>; notes: string };
    const documents: RenderedDocument[] = [];
    for (const source of Object.keys(out.manifests).sort()) {
      for (const doc of parseAllDocuments(out.manifests[source]!)) {
        if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
        const object = doc.toJS() as RenderedDocument['object'] | null;
        if (object !== null && object !== undefined) documents.push({ source, object });
      }
    }
    return { manifests: out.manifests, documents, notes: out.notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rendered objects of one kind, by name. */
export function byKind(r: Rendered, kind: string): Map<string, RenderedDocument['object']> {
  const m = new Map<string, RenderedDocument['object']>();
  for (const d of r.documents) if (d.object.kind === kind) m.set(String(d.object.metadata?.['name']), d.object);
  return m;
}
