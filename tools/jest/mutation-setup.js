// Loaded before each test file of a mutation run (`setupFilesAfterEnv` in jest.mutation.config.js):
// every fast-check property stops generating after KEVENTS_MUTATION_PROPERTY_MS (default 1,000 ms)
// and passes with the runs it made. Instrumented code runs several times slower, and the patch
// properties (3,000 runs of random documents) would otherwise take tens of seconds per mutant.
// A property that finds a counterexample in time still fails; fewer runs can only let more
// mutants survive, so the score is, if anything, understated.
import fc from 'fast-check';

fc.configureGlobal({ interruptAfterTimeLimit: Number(process.env.KEVENTS_MUTATION_PROPERTY_MS ?? 1000) });
