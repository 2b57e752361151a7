/** The semi-space size kevents' binaries run with unless told otherwise, in MiB. */
export const defaultSemiSpaceMiB = 32;

/**
 * Where the young generation's size comes from: the command line (kevents' restart puts its
 * default there), `NODE_OPTIONS`, or V8's own sizing.
 */
export type YoungGenerationSource = 'command-line' | 'node-options' | 'v8';

/** What {@link restartWithYoungGeneration} and {@link youngGenerationSummary} take. */
export interface YoungGenerationOptions {
  /** The binary's default semi-space size in MiB (default {@link defaultSemiSpaceMiB}). */
  readonly semiSpaceMiB?: number;
  /** The environment (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/** The young generation a process runs with, for its startup log. */
export interface YoungGeneration {
  /** The `--max-semi-space-size` in force, in MiB; undefined when V8 sizes it by itself. */
  readonly semiSpaceMiB: number | undefined;
  readonly source: YoungGenerationSource;
}

const flagPattern = /--max[-_]semi[-_]space[-_]size(?:=|\s+)(\d+)/;

/** The semi-space flag in a list of Node options, if any. */
const semiSpaceIn = (options: string): number | undefined => {
  const m = flagPattern.exec(options);
  return m === null ? undefined : Number(m[1]);
};

/**
 * Restarts the binary in place (`process.execve`: same PID, same arguments and environment) with
 * `--max-semi-space-size=<options.semiSpaceMiB>` (default {@link defaultSemiSpaceMiB}) when
 * neither its command line nor `NODE_OPTIONS` sets one. V8 otherwise grows the young generation with the host's memory, to two 64 MiB
 * semi-spaces on a 24 GiB host under a steady stream of requests: memory the process holds while
 * it keeps nothing there (docs/operations.md, "Memory"). The size is read when V8 starts, so a
 * process cannot change its own. Call it before the binary loads anything else; it returns when no
 * restart is needed (a setting given, `KEVENTS_YOUNG_GENERATION=v8` in the environment, or a
 * platform without `execve`).
 */
export function restartWithYoungGeneration(options: YoungGenerationOptions = {}): void {
  const env = options.env ?? process.env;
  const size = options.semiSpaceMiB ?? defaultSemiSpaceMiB;
  if (youngGeneration(env).source !== 'v8' || env.KEVENTS_YOUNG_GENERATION === 'v8') return;
  if (typeof process.execve !== 'function' || process.platform === 'win32') return;
  process.execve(
    process.execPath,
    [process.execPath, `--max-semi-space-size=${size}`, ...process.execArgv, ...process.argv.slice(1)],
    env,
  );
}

/** The young generation this process runs with: its command line first, then `NODE_OPTIONS`. */
export function youngGeneration(env: NodeJS.ProcessEnv = process.env): YoungGeneration {
  const own = semiSpaceIn(process.execArgv.join(' '));
  if (own !== undefined) return { semiSpaceMiB: own, source: 'command-line' };
  const fromEnv = semiSpaceIn(env.NODE_OPTIONS ?? '');
  if (fromEnv !== undefined) return { semiSpaceMiB: fromEnv, source: 'node-options' };
  return { semiSpaceMiB: undefined, source: 'v8' };
}

/** One startup-log line about the young generation (`options.semiSpaceMiB`: the binary's default, as given to the restart). */
export function youngGenerationSummary(options: YoungGenerationOptions = {}): string {
  const { semiSpaceMiB, source } = youngGeneration(options.env ?? process.env);
  if (source === 'v8') return 'young generation: sized by V8 (no --max-semi-space-size)';
  const from =
    source === 'node-options'
      ? 'from NODE_OPTIONS'
      : semiSpaceMiB === (options.semiSpaceMiB ?? defaultSemiSpaceMiB)
        ? "kevents' default (NODE_OPTIONS=--max-semi-space-size=N changes it)"
        : 'from the command line';
  return `young generation: --max-semi-space-size=${semiSpaceMiB} (MiB), ${from}`;
}
