import { describe, expect, it } from '@jest/globals';
import { formatDuration, parseDuration } from './duration.js';
import { configApiVersions } from './group.js';

describe('Go durations', () => {
  it.each([
    ['5m0s', 300e9],
    ['1h30m', 5400e9],
    ['300ms', 300e6],
    ['30s', 30e9],
    ['1.5s', 1.5e9],
    ['-1m', -60e9],
    ['0', 0],
    ['0s', 0],
    ['10us', 10e3],
    ['2h45m30.5s', 9930.5e9],
  ])('parses %s', (s, ns) => {
    expect(parseDuration(s)).toBe(ns);
  });

  it.each(['', '5', '5x', 'm', '1h-5m', ' 5s', '.s', '-'])('rejects %j', (s) => {
    expect(parseDuration(s)).toBeUndefined();
  });

  it.each([
    [300e9, '5m0s'],
    [30e9, '30s'],
    [60e9, '1m0s'],
    [5400e9, '1h30m0s'],
    [1.5e9, '1.5s'],
    [300e6, '300ms'],
    [0, '0s'],
    [-31e9, '-31s'],
  ])('formats %d as %s', (ns, s) => {
    expect(formatDuration(ns)).toBe(s);
  });
});

describe('config apiVersions', () => {
  it('follows the group domain; egress also under apiserver.<domain>', () => {
    expect(configApiVersions('TracingConfiguration')).toEqual(['apiserver.config.k8s.io/v1beta1']);
    expect(configApiVersions('EgressSelectorConfiguration', 'example.com')).toEqual([
      'apiserver.config.example.com/v1beta1',
      'apiserver.example.com/v1beta1',
    ]);
  });
});
