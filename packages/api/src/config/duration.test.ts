import { describe, expect, it } from '@jest/globals';
import { formatDuration, parseDuration, parseGoDuration } from './duration.js';
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
    ['+5s', 5e9],
    ['-0', 0],
    ['.5s', 0.5e9],
    ['5.s', 5e9],
    ['1.0000000001s', 1e9],
    ['1µs', 1e3],
    ['1μs', 1e3],
    ['2562047h47m16.854775807s', Number(2n ** 63n - 1n)],
    ['-2562047h47m16.854775808s', -Number(2n ** 63n)],
  ])('parses %s as Go does', (s, ns) => {
    expect(parseGoDuration(s)).toEqual({ ok: true, nanos: ns });
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
    ['1h-5m', 'time: unknown unit "h-" in duration "1h-5m"'],
    ['.s', 'time: invalid duration ".s"'],
    ['x5s', 'time: invalid duration "x5s"'],
    ['3 seconds', 'time: unknown unit " seconds" in duration "3 seconds"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['5é', 'time: unknown unit "\\xc3\\xa9" in duration "5\\xc3\\xa9"'],
    ['"5"', 'time: invalid duration "\\"5\\""'],
    ['2562047h47m16.854775808s', 'time: invalid duration "2562047h47m16.854775808s"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['99999999999999999999h', 'time: invalid duration "99999999999999999999h"'],
  ])("refuses %j with Go's error text", (s, error) => {
    expect(parseGoDuration(s)).toEqual({ ok: false, error });
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
