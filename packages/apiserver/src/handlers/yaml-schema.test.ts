import { describe, expect, it } from '@jest/globals';
import { readYaml, YamlInputError } from './yaml-input.js';

const value = (scalar: string): unknown => (readYaml(`v: ${scalar}\n`).value as { v: unknown }).v;

describe('goyamlScalarTags (plain scalars as goyaml v2 resolves them)', () => {
  it('reads YAML 1.1 booleans and nulls', () => {
    for (const t of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'])
      expect(value(t)).toBe(true);
    for (const f of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'])
      expect(value(f)).toBe(false);
    for (const n of ['', '~', 'null', 'Null', 'NULL']) expect(value(n)).toBeNull();
    for (const s of ['yEs', 'oN', 'nULL', 'tRUE', 'ye', 'offf']) expect(value(s)).toBe(s);
  });

  it('reads integers as strconv.ParseInt(s, 0, 64) does, underscores removed', () => {
    const cases: [string, number][] = [
      ['010', 8],
      ['0x1F', 31],
      ['0X1f', 31],
      ['0o17', 15],
      ['0b101', 5],
      ['-0b101', -5],
      ['+0x10', 16],
      ['1_000', 1000],
      ['-0', 0],
      ['+12', 12],
      ['9223372036854775807', 2 ** 63],
      ['18446744073709551615', 2 ** 64],
    ];
    for (const [text, n] of cases) expect([text, value(text)]).toEqual([text, n]);
  });

  it('reads floats goyaml reads, and leaves the rest strings', () => {
    const cases: [string, unknown][] = [
      ['08', 8],
      ['1.', 1],
      ['.5', 0.5],
      ['-.5', -0.5],
      ['1e3', 1000],
      ['1_0.5', 10.5],
      ['.inf', Infinity],
      ['-.Inf', -Infinity],
      ['1e400', '1e400'],
      ['.5_0', '.5_0'],
      ['.', '.'],
      ['0x', '0x'],
      ['1:20', '1:20'],
      ['2001-12-14', '2001-12-14'],
      ['2001-12-14T21:59:43.10Z', '2001-12-14T21:59:43.10Z'],
      ['-a', '-a'],
      ['_1', '_1'],
      ['1 apple', '1 apple'],
      ['0o18', '0o18'],
    ];
    for (const [text, v] of cases) expect([text, value(text)]).toEqual([text, v]);
    expect(Number.isNaN(value('.NaN'))).toBe(true);
  });

  it('keeps quoted and explicitly string-tagged scalars as text; YAML 1.1 keys become booleans, as in kube', () => {
    expect(readYaml('a: "yes"\nb: \'010\'\nc: !!str on\nd: |\n  on\n').value).toEqual({
      a: 'yes',
      b: '010',
      c: 'on',
      d: 'on\n',
    });
    expect(readYaml('y: 1\nn: 2\non: 3\n').value).toEqual({ true: 3, false: 2 });
  });

  it('resolves explicit tags the same way and refuses another kind in goyaml words', () => {
    expect(readYaml('a: !!int "010"\nb: !!float 3\nc: !!bool "yes"\n').value).toEqual({ a: 8, b: 3, c: true });
    for (const [text, message] of [
      ['a: !!int abc', 'yaml: cannot decode !!str `abc` as a !!int'],
      ['a: !!int 1.5', 'yaml: cannot decode !!float `1.5` as a !!int'],
      ['a: !!bool maybe', 'yaml: cannot decode !!str `maybe` as a !!bool'],
    ]) {
      let err: unknown;
      try {
        readYaml(text!);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(YamlInputError);
      expect((err as YamlInputError).message).toBe(message);
    }
  });

  it('merges `<<` keys, which are neither repeated keys nor refused', () => {
    const read = readYaml('base: &b {x: 1, z: 2}\nr:\n  <<: *b\n  z: 3\n  <<: {w: 4}\n');
    expect(read.value).toEqual({ base: { x: 1, z: 2 }, r: { x: 1, z: 3, w: 4 } });
    expect(read.duplicateKeys).toEqual([]);
    expect(readYaml('a: <<\n').value).toEqual({ a: '<<' });
  });
});
