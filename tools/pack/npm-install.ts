import { execFile } from 'node:child_process';
import { delimiter, dirname, resolve, sep } from 'node:path';

/** npm settings a scratch project keeps from the environment: where the cache and the registry are. */
const keptNpmSettings = new Set([
  'npm_config_cache',
  'npm_config_registry',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'npm_config_noproxy',
  'npm_config_strict_ssl',
  'npm_config_cafile',
  'npm_config_userconfig',
]);

/**
 * The environment of a process that must not see the monorepo: no npm script settings
 * (`npm test` exports the workspace's prefix and package fields), no NODE_PATH or NODE_OPTIONS,
 * and no PATH entry inside `repoRoot` (npm puts `node_modules/.bin` there); this Node first on PATH.
 */
export function isolatedEnvironment(repoRoot: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    const lower = k.toLowerCase();
    if (lower.startsWith('npm_') && !keptNpmSettings.has(lower)) continue;
    if (k === 'NODE_PATH' || k === 'NODE_OPTIONS' || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  const inRepo = (p: string): boolean =>
    resolve(p) === resolve(repoRoot) || resolve(p).startsWith(resolve(repoRoot) + sep);
  const path = (base['PATH'] ?? '').split(delimiter).filter((p) => p && !inRepo(p));
  env['PATH'] = [dirname(process.execPath), ...path].join(delimiter);
  return env;
}

/** Error codes npm prints when the registry cannot be reached (DNS, refused, reset, timeouts, a 5xx). */
const unreachable =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT|E5\d\d)\b/;

/** Why npm's output says the registry is unreachable, or undefined when it failed for another reason. */
export function registryUnreachable(output: string): string | undefined {
  const m = unreachable.exec(output);
  if (!m) return undefined;
  const line = output.split('\n').find((l) => l.includes(m[1]!)) ?? m[1]!;
  return line.replace(/^npm (error|ERR!)\s*/, '').trim();
}

/** How an install went: from the cache alone, with the registry, or not at all because the registry is unreachable. */
export type InstallOutcome =
  | { readonly kind: 'installed'; readonly mode: 'offline' | 'prefer-offline'; readonly ms: number }
  | { readonly kind: 'unreachable'; readonly reason: string };

/** An npm run that takes longer is ended (and an install counts as unreachable). */
const npmTimeoutMs = 120_000;

function npm(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; output: string }> {
  return new Promise((done) => {
    execFile('npm', [...args], { cwd, env, timeout: npmTimeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      done({
        ok: !err,
        output: `${stdout}\n${stderr}${err?.killed ? `\nETIMEDOUT: npm did not finish in ${npmTimeoutMs / 1000} s` : ''}`,
      }),
    );
  });
}

/**
 * `npm install` in a scratch project: first from the npm cache alone (`--offline`), then, when the
 * cache lacks something, with the registry (`--prefer-offline`, no retries: an unreachable
 * registry is told in a second, not after minutes of back-off). Resolves `unreachable` only when
 * npm says the registry cannot be reached; any other failure throws with npm's output.
 */
export async function installScratch(dir: string, env: NodeJS.ProcessEnv): Promise<InstallOutcome> {
  const started = Date.now();
  const common = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  const offline = await npm([...common, '--offline'], dir, env);
  if (offline.ok) return { kind: 'installed', mode: 'offline', ms: Date.now() - started };
  if (!/ENOTCACHED/.test(offline.output)) throw new Error(`npm install --offline failed:\n${offline.output}`);
  const online = await npm([...common, '--prefer-offline', '--fetch-timeout=30000', '--fetch-retries=0'], dir, env);
  if (online.ok) return { kind: 'installed', mode: 'prefer-offline', ms: Date.now() - started };
  const reason = registryUnreachable(online.output);
  if (reason) return { kind: 'unreachable', reason };
  throw new Error(`npm install failed:\n${online.output}`);
}

/** Runs npm to completion in `cwd`; throws with its output when it fails. */
export async function runNpm(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await npm(args, cwd, env);
  if (!r.ok) throw new Error(`npm ${args.join(' ')} failed:\n${r.output}`);
  return r.output;
}
