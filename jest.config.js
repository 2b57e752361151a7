/**
 * One Jest run over every project, in ESM mode (run through `npm test`, which passes
 * --experimental-vm-modules). TypeScript is stripped by SWC; `tsc -b` type-checks.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/tools'],
  testMatch: ['**/src/**/*.test.ts', '**/tools/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        module: { type: 'es6' },
      },
    ],
  },
  moduleNameMapper: {
    '^@kevents/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@kevents/([a-z-]+)/testing$': '<rootDir>/packages/$1/src/testing/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
  testSequencer: '<rootDir>/tools/jest/sequencer.js',
  maxWorkers: 2,
};
