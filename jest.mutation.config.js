import base from './jest.config.js';

/**
 * The Jest configuration Stryker runs (`stryker.config.mjs` points at it): the repository's
 * `jest.config.js`, limited to the tests that can kill a mutant in the apiserver code.
 *
 * - roots: apps/apiserver and packages/apiserver only (the code that is mutated); the storage,
 *   Redis and other packages' suites cannot see a mutant in these folders.
 * - skipped: tests that only drive a *built* binary in a child process (`dist/`, never the
 *   instrumented sources, so they cannot kill a mutant and only cost time), see
 *   `mutationSkippedTests` below. Redis suites live in packages/storage-redis (not a root here).
 * - reporters: Stryker replaces them anyway.
 */

/** Test files left out of mutation runs, with the reason (docs/testing.md lists them too). */
export const mutationSkippedTests = {
  // Spawns apps/apiserver/dist/validate-config/cli.js and dist/main.js: built code, not the mutants (10 s).
  '/apps/apiserver/src/validate-config/cli\\.test\\.ts$': 'child processes of the built CLI',
};

// Read by tests that drive the built binary (server.test.ts: "kevents-apiserver binary"; it also
// listens on fixed ports), which skip themselves in mutation runs. Jest runs in-band in Stryker's
// worker, so the tests see this variable.
process.env.KEVENTS_MUTATION_RUN = '1';

// Which test files Stryker runs (Jest testMatch globs, comma-separated):
//   - default: the unit tests of packages/apiserver (`packages/apiserver/src/**/*.test.ts` but the
//     in-process server suites below); docs/testing.md has what a run costs;
//   - KEVENTS_MUTATION_TESTS=<glob>,<glob>: only these files, e.g. '**/selectors/*.test.ts';
//   - KEVENTS_MUTATION_TESTS=all: every test under the roots (the HTTP-level suites too: server,
//     kubectl, watch). They kill more mutants in handlers but cost seconds per mutant on 2 cores.
export const defaultMutationTests = ['**/packages/apiserver/src/**/*.test.ts'];

/**
 * The in-process server suites of packages/apiserver, left out of the default run: they build a
 * whole server (`buildApiServer`) and serve it over HTTP, so they reach nearly every mutant and
 * each mutant then loads the whole server in a fresh ESM module graph (7 s a mutant on 2 cores,
 * about 10 hours for the scope). `KEVENTS_MUTATION_TESTS=all` runs them.
 */
export const inProcessServerSuites = {
  '/packages/apiserver/src/server/custom-kind\\.test\\.ts$': 'a Gadget server over HTTP',
  '/packages/apiserver/src/reviews/reviews\\.test\\.ts$': 'self-subject reviews over HTTP',
  '/packages/apiserver/src/openapi/protobuf\\.test\\.ts$': 'OpenAPI documents over HTTP',
};
const fromEnv = process.env.KEVENTS_MUTATION_TESTS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const onlyTests = fromEnv?.length
  ? fromEnv.includes('all')
    ? ['**/src/**/*.test.ts']
    : fromEnv
  : defaultMutationTests;
const skipped = [...Object.keys(mutationSkippedTests), ...(fromEnv?.length ? [] : Object.keys(inProcessServerSuites))];

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>/apps/apiserver', '<rootDir>/packages/apiserver'],
  testMatch: onlyTests,
  testPathIgnorePatterns: [...(base.testPathIgnorePatterns ?? []), ...skipped],
  // fast-check properties stop after a time budget in mutation runs (see the file).
  setupFilesAfterEnv: [...(base.setupFilesAfterEnv ?? []), '<rootDir>/tools/jest/mutation-setup.js'],
  reporters: ['default'],
  maxWorkers: 1,
};
