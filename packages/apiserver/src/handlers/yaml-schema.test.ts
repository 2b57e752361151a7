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
    // ...unless a later key of the same name replaced it before.
    expect(readYaml('a: .nan\na: 1\n').value).toEqual({ a: 1 });
    // A double JSON cannot hold is refused when the value is made JSON (json.Marshal).
    for (const [text, shown] of [
      ['.inf', '+Inf'],
      ['-.Inf', '-Inf'],
      ['.NaN', 'NaN'],
    ]) {
      let err: unknown;
      try {
        value(text!);
      } catch (e) {
        err = e;
      }
      expect((err as Error).message).toBe(`json: unsupported value: ${shown}`);
    }
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

  it('merges `<<` keys where they stand, as goyaml does: later keys win, a list merges its earlier maps last', () => {
    const read = readYaml('base: &b {x: 1, z: 2}\nr:\n  <<: *b\n  z: 3\n  <<: {w: 4}\n');
    expect(read.value).toEqual({ base: { x: 1, z: 2 }, r: { x: 1, z: 3, w: 4 } });
    // goyaml's strict decoding sees z set twice (by the merge, then by the map).
    expect(read.duplicateKeys).toEqual(['line 4: key "z" already set in map']);
    expect(readYaml('c:\n  x: 2\n  <<: {x: 1}\n').value).toEqual({ c: { x: 1 } });
    expect(readYaml('a: &a {k: 1}\nb: &b {k: 2, j: 3}\nc:\n  <<: [*a, *b]\n').value).toEqual({
      a: { k: 1 },
      b: { k: 2, j: 3 },
      c: { k: 1, j: 3 },
    });
    expect(readYaml('a: <<\n"<<": {x: 1}\n').value).toEqual({ a: '<<', '<<': { x: 1 } });
    // An alias means the anchor defined last before it, even when a merge walks its map again later.
    expect(readYaml('a: &x 1\nb: &m {k: &x 2, j: *x}\nc: &x 3\nd: {<<: *m}\ne: *x\n').value).toEqual({
      a: 1,
      b: { k: 2, j: 2 },
      c: 3,
      d: { k: 2, j: 2 },
      e: 3,
    });
    let err: unknown;
    try {
      readYaml('a:\n  <<: 1\n');
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toBe('yaml: map merge requires map or sequence of maps as the value');
    // Only a list written in place may list maps: an alias must name a map.
    expect(() => readYaml('l: &l [{a: 1}]\nm:\n  <<: *l\n')).toThrow(
      'yaml: map merge requires map or sequence of maps as the value',
    );
    expect(readYaml('m:\n  <<: [{a: 1}]\n').value).toEqual({ m: { a: 1 } });
  });

  it('makes keys JSON names as sigs.k8s.io/yaml does, and refuses null and uint64 keys', () => {
    expect(readYaml('1.5: a\n1e20: b\n3.14159265358979: c\n9007199254740993: d\n-0.0: e\n').value).toEqual({
      '1.5': 'a',
      '1e+20': 'b',
      '3.1415927': 'c',
      '9007199254740993': 'd',
      '-0': 'e',
    });
    for (const [text, message] of [
      ['~: v\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: "v"'],
      [
        '9223372036854775808: {a: 1}\n',
        'unsupported map key of type: uint64, key: 0x8000000000000000, value: map[interface {}]interface {}{"a":1}',
      ],
    ]) {
      let err: unknown;
      try {
        readYaml(text!);
      } catch (e) {
        err = e;
      }
      expect((err as Error).message).toBe(message);
    }
  });

  it('decodes !!binary, keeps !!timestamp as written, and reads only the first document', () => {
    expect(readYaml('a: !!binary aGVsbG8=\nb: !!timestamp 2001-12-14\n').value).toEqual({
      a: 'hello',
      b: '2001-12-14',
    });
    expect(() => readYaml('a: !!binary "not base64!"\n')).toThrow('yaml: !!binary value contains invalid base64 data');
    expect(readYaml('a: 1\n---\n').value).toEqual({ a: 1 });
    expect(readYaml('a: 1\n---\nb: [\n').value).toEqual({ a: 1 });
    expect(readYaml('[1, 2]]').value).toEqual([1, 2]);
    expect(readYaml('# only a comment\n').value).toBeNull();
  });
});
