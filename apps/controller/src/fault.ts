/**
 * Fault injection for the crash-safety tests: with `KEVENTS_CONTROLLER_CRASH_AT=<step>` (or
 * `<step>@<n>` for the n-th time), the process kills itself with SIGKILL when it reaches that
 * step, exactly as a crash or an OOM kill would stop it. Unset in production: a no-op.
 */
const spec = process.env['KEVENTS_CONTROLLER_CRASH_AT'] ?? '';
const [crashStep, nth] = spec.split('@');
const crashAfter = Number(nth ?? '1') || 1;
let hits = 0;

/** The named steps of the series fold, in order (see docs/operations.md, "Crash safety"). */
export const foldSteps = [
  'fold:before-write',
  'fold:after-write',
  'fold:after-first-delete',
  'fold:after-deletes',
] as const;
export type FoldStep = (typeof foldSteps)[number];

/** Marks that the controller has reached `step`; dies there when told to. */
export function reached(step: FoldStep): void {
  if (crashStep !== step) return;
  if (++hits < crashAfter) return;
  process.stderr.write(`fault injection: SIGKILL at ${step} (${hits})\n`);
  process.kill(process.pid, 'SIGKILL');
}
