import { describe, it } from '@jest/globals';

/** `.ci/run` sets KEVENTS_CONTAINER_TESTS=required: missing tools fail instead of skipping. */
export const toolsRequired = process.env.KEVENTS_CONTAINER_TESTS === 'required';

/**
 * The `describe` to use for tests that need tools this machine may lack: `describe` when
 * `missing` is undefined; otherwise, when tools are required, a suite whose one test fails
 * with the reason, else `describe.skip` after printing the reason.
 */
export function describeIfTools(missing: string | undefined, suite: string): typeof describe | typeof describe.skip {
  if (missing === undefined) return describe;
  if (toolsRequired) {
    describe(suite, () => {
      it('has the tools it needs (KEVENTS_CONTAINER_TESTS=required)', () => {
        throw new Error(missing);
      });
    });
    return describe.skip;
  }
  console.warn(`skipping "${suite}": ${missing} (KEVENTS_CONTAINER_TESTS=required makes this a failure)`);
  return describe.skip;
}
