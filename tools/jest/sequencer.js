/**
 * Jest's test order, but with the longest suites first on a run without Jest's timing cache (a
 * fresh clone in CI): Jest would order those by file size, and a long end-to-end suite that
 * starts two thirds into the run leaves the other worker idle at the end. Where Jest timed a
 * suite before, its own time wins; otherwise `suite-seconds.json` (the seconds a suite took in a
 * CI run, for the suites that take longest) ranks it, and the rest follow by file size.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import Sequencer from '@jest/test-sequencer';

const Base = Sequencer.default ?? Sequencer;
const seconds = JSON.parse(readFileSync(new URL('./suite-seconds.json', import.meta.url), 'utf8'));

export default class LongestFirstSequencer extends Base {
  sort(tests) {
    const known = (test) => {
      const timed = this.time(test);
      if (timed != null) return timed;
      const listed = seconds[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
      return listed === undefined ? undefined : listed * 1000;
    };
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const keyed = tests.map((test) => ({ test, failed: this.hasFailed(test), ms: known(test), bytes: size(test) }));
    keyed.sort((a, b) => {
      if (a.failed !== b.failed) return a.failed ? -1 : 1;
      if ((a.ms === undefined) !== (b.ms === undefined)) return a.ms === undefined ? 1 : -1;
      if (a.ms !== undefined && b.ms !== undefined && a.ms !== b.ms) return b.ms - a.ms;
      return b.bytes - a.bytes;
    });
    return keyed.map((k) => k.test);
  }
}
