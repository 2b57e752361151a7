import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { FlagError } from '@kevents/cli';
import { controllerFlags, parseControllerFlags, usage } from './flags.js';

const operations = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');

describe('kevents-controller flags', () => {
  it('give typed defaults: numbers, booleans, lists and durations in milliseconds', () => {
    expect(parseControllerFlags([]).options).toMatchObject({
      eventTtlMs: 3_600_000,
      seriesWindowMs: 360_000,
      controllers: ['series', 'retention'],
      mirrorSource: [],
      workers: 4,
      mirrorWorkers: 16,
      leaderElect: true,
      leaderElectLeaseDurationMs: 15_000,
      leaderElectRenewDeadlineMs: 10_000,
      leaderElectRetryPeriodMs: 2_000,
      healthProbeBindAddress: ':8081',
      logLevel: 'info',
      logFormat: 'json',
    });
  });

  it('repeat --mirror-source, split --controllers, and refuse arguments that are not flags', () => {
    const { options, help } = parseControllerFlags([
      '--mirror-source=a=/x',
      '--mirror-source',
      'b=in-cluster',
      '--controllers=series',
      '--leader-elect=false',
      '-h',
    ]);
    expect(options).toMatchObject({
      mirrorSource: ['a=/x', 'b=in-cluster'],
      controllers: ['series'],
      leaderElect: false,
    });
    expect(help).toBe(true);
    expect(() => parseControllerFlags(['--server=x', 'serve'])).toThrow(new FlagError('unexpected argument: serve'));
    expect(() => parseControllerFlags(['--event-ttl=1d'])).toThrow(
      new FlagError('invalid argument "1d" for "--event-ttl" flag: time: unknown unit "d" in duration "1d"'),
    );
  });

  it('are all in --help and in docs/operations.md', () => {
    const text = usage();
    for (const spec of Object.values(controllerFlags)) {
      expect(text).toContain(`  --${spec.name}`);
      expect(operations).toContain(`--${spec.name}`);
    }
  });
});
