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
  /**
   * V8's `--heap-growing-percent` for the binary, unless its command line sets one: the old
   * generation may then grow to its live size × (1 + p/100) before the next full collection,
   * instead of V8's own factor (up to 4× on a host with more than ~2 GiB for the heap). Unset:
   * V8's factor.
   */
  readonly heapGrowingPercent?: number;
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
const growingPattern = /--heap[-_]growing[-_]percent(?:=|\s+)(\d+)/;

/** The semi-space flag in a list of Node options, if any. */
const semiSpaceIn = (options: string): number | undefined => {
  const m = flagPattern.exec(options);
  return m === null ? undefined : Number(m[1]);
};

/**
 * Restarts the binary in place (`process.execve`: same PID, same arguments and environment) with
 * `--max-semi-space-size=<options.semiSpaceMiB>` (default {@link defaultSemiSpaceMiB}) when
 * neither its command line nor `NODE_OPTIONS` sets one, and with
 * `--heap-growing-percent=<options.heapGrowingPercent>` when that is given and the command line
 * sets none. V8 otherwise grows the young generation with the host's memory, to two 64 MiB
 * semi-spaces on a 24 GiB host under a steady stream of requests, and lets the old generation
 * fill with garbage to up to 4× its live size: memory the process holds while it keeps nothing
 * there (docs/operations.md, "Memory"). V8 reads both when it starts, so a process cannot change
 * its own. Call it before the binary loads anything else; it returns when no restart is needed
 * (the settings given, `KEVENTS_YOUNG_GENERATION=v8` in the environment for the semi-spaces, or
 * a platform without `execve`).
 */
export function restartWithYoungGeneration(options: YoungGenerationOptions = {}): void {
  const env = options.env ?? process.env;
  const size = options.semiSpaceMiB ?? defaultSemiSpaceMiB;
  const flags: string[] = [];
  if (youngGeneration(env).source === 'v8' && env.KEVENTS_YOUNG_GENERATION !== 'v8')
    flags.push(`--max-semi-space-size=${size}`);
  if (options.heapGrowingPercent !== undefined && heapGrowingPercent() === undefined)
    flags.push(`--heap-growing-percent=${options.heapGrowingPercent}`);
  if (flags.length === 0) return;
  if (typeof process.execve !== 'function' || process.platform === 'win32') return;
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], env);
}

/** The `--heap-growing-percent` on this process's command line, if any. */
export function heapGrowingPercent(): number | undefined {
  const m = growingPattern.exec(process.execArgv.join(' '));
  return m === null ? undefined : Number(m[1]);
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
  const growing = heapGrowingPercent();
  const old = growing === undefined ? '' : `; old generation: --heap-growing-percent=${growing}`;
  if (source === 'v8') return `young generation: sized by V8 (no --max-semi-space-size)${old}`;
  const from =
    source === 'node-options'
      ? 'from NODE_OPTIONS'
      : semiSpaceMiB === (options.semiSpaceMiB ?? defaultSemiSpaceMiB)
        ? "kevents' default (NODE_OPTIONS=--max-semi-space-size=N changes it)"
        : 'from the command line';
  return `young generation: --max-semi-space-size=${semiSpaceMiB} (MiB), ${from}${old}`;
}
