import { describe, expect, it } from '@jest/globals';
import LongestFirstSequencer from './sequencer.js';

/** A test as Jest hands it to a sequencer: a path in a project with no timing cache. */
const test = (path: string, bytes: number) => ({
  path: `/repo/${path}`,
  context: {
    config: { rootDir: '/repo', cache: false, id: 'x', cacheDirectory: '/tmp' },
    hasteFS: { getSize: () => bytes },
  },
});

describe('LongestFirstSequencer', () => {
  it('runs the suites listed as the longest first, longest before shorter, then the rest by size', () => {
    const tests = [
      test('packages/small.test.ts', 100),
      test('tools/pack/pack-install.test.ts', 10),
      test('packages/big.test.ts', 9000),
      test('apps/controller/src/series/series.test.ts', 20),
    ];
    const sorted = new LongestFirstSequencer({} as never).sort(tests as never) as unknown as typeof tests;
    expect(sorted.map((t) => t.path.slice('/repo/'.length))).toEqual([
      'apps/controller/src/series/series.test.ts',
      'tools/pack/pack-install.test.ts',
      'packages/big.test.ts',
      'packages/small.test.ts',
    ]);
  });
});
