// Mutation testing with StrykerJS and its Jest runner (ESM Jest, see jest.mutation.config.js).
// Not part of CI: it is slow. Run it with `npm run mutation` (or `npx stryker run`);
// docs/testing.md explains how to read the results.
//
// WHAT IS MUTATED is decided in one place, `mutate` below:
//   - default: the generic apiserver library, packages/apiserver/src (no tests, no testing/ helpers);
//   - STRYKER_MUTATE=<glob>,<glob>,...  overrides it (comma-separated; a leading `!` excludes), e.g.
//       STRYKER_MUTATE='packages/apiserver/src/selectors/*.ts,!packages/apiserver/src/**/*.test.ts' npx stryker run
//   - `npx stryker run --mutate <globs>` overrides both.
// The pre-move baseline, at a commit before the move to packages/apiserver:
//   STRYKER_MUTATE="$(node stryker.config.mjs --app-modules)" npx stryker run
/**
 * @type {string[]} the library's behaviour modules: what decides an answer and what their unit
 * tests pin down (docs/testing.md has the score per folder and this list in words): request info,
 * list and write options, the generic store and its rules (dry run, generation, field managers,
 * create shapes), the encoding of objects and lists, API errors, warnings, body decoding,
 * selectors and predicates, patch and server-side apply, the filters. Left out: testing/ helpers,
 * index.ts, types-only modules (scope/), and the HTTP glue that only the in-process server suites
 * reach (the verb handlers, respond, framework errors, watch/, install/, server/, openapi/,
 * discovery/, table/, reviews/, resources/), which the REST conformance suite covers over HTTP.
 */
const libraryModules = [
  'packages/apiserver/src/request/**/*.ts',
  'packages/apiserver/src/registry/**/*.ts',
  'packages/apiserver/src/encoding/**/*.ts',
  'packages/apiserver/src/errors/api-error.ts',
  'packages/apiserver/src/warning/**/*.ts',
  'packages/apiserver/src/handlers/**/*.ts',
  'packages/apiserver/src/selectors/**/*.ts',
  'packages/apiserver/src/filters/**/*.ts',
  '!packages/apiserver/src/handlers/{create,decode,delete,get,list,patch,update,watch}.ts',
  '!packages/apiserver/src/encoding/respond.ts',
  '!packages/apiserver/src/**/*.test.ts',
];

/**
 * The same modules as they were in apps/apiserver/src before the move to packages/apiserver (the
 * pre-move baseline in docs/testing.md): only a checkout of a commit before the move has them.
 */
export const appModules = [
  'apps/apiserver/src/handlers/query.ts',
  'apps/apiserver/src/handlers/prepare.ts',
  'apps/apiserver/src/handlers/create.ts',
  'apps/apiserver/src/handlers/update.ts',
  'apps/apiserver/src/handlers/delete.ts',
  'apps/apiserver/src/handlers/patch/*.ts',
  'apps/apiserver/src/selectors/*.ts',
  '!apps/apiserver/src/**/*.test.ts',
];

/** `STRYKER_MUTATE` split at the commas outside braces (`{a,b}.ts` is one glob). */
const fromEnv = process.env.STRYKER_MUTATE?.split(/,(?![^{]*\})/)
  .map((s) => s.trim())
  .filter(Boolean);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  packageManager: 'npm',
  testRunner: 'jest',
  plugins: ['@stryker-mutator/jest-runner'],
  // Jest in ESM mode needs vm modules in the test-runner child processes.
  testRunnerNodeArgs: ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'],
  jest: {
    projectType: 'custom',
    configFile: 'jest.mutation.config.js',
    // Only test files that import the mutated file (transitively) are loaded for a mutant.
    enableFindRelatedTests: true,
  },
  // Per-test coverage works with ESM Jest: each mutant runs only the tests that reach it.
  coverageAnalysis: 'perTest',
  // Two cores: one Jest process per core.
  concurrency: 2,
  // Static mutants (module-level constants) are covered by no single test, so each one runs every
  // related test file: 7% of the mutants took 45% of the time. Skipped (reported as "Ignored").
  ignoreStatic: true,
  // A mutant whose tests take 1.5x + 10 s longer than in the initial run is a timeout (counted as
  // detected). The initial run does not count loading test files, but each mutant run loads every
  // test file related to the mutated module (findRelatedTests), in a fresh ESM module graph: 28
  // files and 10-16 s for errors/api-error.ts on the shared 2-core machine. With 3 s those loads
  // themselves timed out, so mutants were counted as detected without their tests having run.
  timeoutMS: 10000,
  timeoutFactor: 1.5,
  // The initial run (every test once, with per-test coverage) takes 4-5 minutes on the shared
  // 2-core machine, past Stryker's 5-minute default when other jobs load it.
  dryRunTimeoutMinutes: 20,
  // Re-runs only mutants whose code or tests changed since the last run.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // node_modules is symlinked into the sandbox (symlinkNodeModules, the default); leave out the rest
  // that no test reads. apps/apiserver/dist stays: server.test.ts checks the built binary.
  ignorePatterns: ['docs', 'reports', 'coverage', '.nx', 'tools/bench', 'packages/*/bench', '*.tsbuildinfo', '.git'],
  // TypeScript: type errors are not checked (SWC strips types); Stryker marks files // @ts-nocheck.
  mutate: fromEnv?.length ? fromEnv : libraryModules,
  thresholds: { high: 80, low: 60, break: null },
};

// `node stryker.config.mjs --app-modules` prints the pre-move list for STRYKER_MUTATE.
if (process.argv[1]?.endsWith('stryker.config.mjs') && process.argv.includes('--app-modules')) {
  console.log(appModules.join(','));
}

export default config;
