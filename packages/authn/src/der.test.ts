import { describe, expect, it } from '@jest/globals';
import { DerError, Tag, integerOf, oidOf, readTlv, timeOf } from './der.js';

const b = (s: string) => Buffer.from(s, 'latin1');

describe('DER reader', () => {
  it('reads times as Go does', () => {
    expect(timeOf(Tag.utcTime, b('491231235959Z'))).toBe(Date.UTC(2049, 11, 31, 23, 59, 59));
    expect(timeOf(Tag.utcTime, b('500101000000Z'))).toBe(Date.UTC(1950, 0, 1));
    expect(timeOf(Tag.utcTime, b('2401020304Z'))).toBe(Date.UTC(2024, 0, 2, 3, 4));
    expect(timeOf(Tag.utcTime, b('240102030405+0130'))).toBe(Date.UTC(2024, 0, 2, 1, 34, 5));
    expect(timeOf(Tag.generalizedTime, b('99991231235959Z'))).toBe(Date.UTC(9999, 11, 31, 23, 59, 59));
    expect(timeOf(Tag.generalizedTime, b('20240102030405.5Z'))).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 500));
    for (const bad of ['240102030405+0000', '241302030405Z', '240102030405', '24010203040Z'])
      expect(() => timeOf(Tag.utcTime, b(bad))).toThrow(DerError);
    expect(() => timeOf(Tag.generalizedTime, b('20240102030405.50Z'))).toThrow(DerError);
  });

  it('reads integers, OIDs and lengths', () => {
    expect(integerOf(Uint8Array.from([0x00, 0xff]))).toBe(255n);
    expect(integerOf(Uint8Array.from([0xff]))).toBe(-1n);
    expect(oidOf(Uint8Array.from([0x55, 0x1d, 0x25, 0x00]))).toBe('2.5.29.37.0');
    expect(oidOf(Uint8Array.from([0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02]))).toBe('1.3.6.1.5.5.7.3.2');
    expect(() => readTlv(Uint8Array.from([0x30, 0x81, 0x05, 0, 0, 0, 0, 0]), 0)).toThrow('non-minimal length');
    expect(() => readTlv(Uint8Array.from([0x30, 0x80]), 0)).toThrow('unsupported length');
    expect(() => readTlv(Uint8Array.from([0x30, 0x05, 0]), 0)).toThrow('truncated content');
  });
});
