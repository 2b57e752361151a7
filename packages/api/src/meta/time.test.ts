import { describe, expect, it } from '@jest/globals';
import { formatMicroTime, normalizeMicroTime, normalizeTime, parseRFC3339 } from './time.js';

describe('metav1.Time and MicroTime', () => {
  it('normalizes to seconds and to six fractional digits in UTC', () => {
    expect(normalizeTime('2024-01-02T03:04:05Z')).toBe('2024-01-02T03:04:05Z');
    expect(normalizeTime('2024-01-02T03:04:05.999Z')).toBe('2024-01-02T03:04:05Z');
    expect(normalizeTime('2024-01-02T05:04:05+02:00')).toBe('2024-01-02T03:04:05Z');
    expect(normalizeMicroTime('2024-01-02T03:04:05Z')).toBe('2024-01-02T03:04:05.000000Z');
    expect(normalizeMicroTime('2024-01-02T03:04:05.123Z')).toBe('2024-01-02T03:04:05.123000Z');
    expect(normalizeMicroTime('2024-01-02T03:04:05.123456789Z')).toBe('2024-01-02T03:04:05.123456Z');
    expect(normalizeMicroTime('2024-01-02T03:04:05.123456Z')).toBe('2024-01-02T03:04:05.123456Z');
    expect(normalizeMicroTime('2024-01-01T23:30:00.5-01:00')).toBe('2024-01-02T00:30:00.500000Z');
  });

  it('refuses what is not RFC 3339', () => {
    for (const bad of [
      'yesterday',
      '2024-13-01T00:00:00Z',
      '2024-02-30T00:00:00Z',
      '2024-02-30T00:00:00.000000Z',
      '2024-01-01',
      '2024-01-01T25:00:00Z',
    ]) {
      expect(normalizeTime(bad)).toBeUndefined();
      expect(normalizeMicroTime(bad)).toBeUndefined();
    }
  });

  it('formats instants', () => {
    expect(formatMicroTime(parseRFC3339('2024-02-29T12:00:00.000042Z')!)).toBe('2024-02-29T12:00:00.000042Z');
  });
});
