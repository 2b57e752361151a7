import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseJson } from '@kevents/api';
import { scanJsonShape } from './json-shape.js';
import type { JsonShape, JsonShapeType } from './json-shape.js';

const typeOf = (v: unknown): JsonShapeType =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object'
        ? 'object'
        : typeof v === 'boolean'
          ? 'bool'
          : (typeof v as 'string' | 'number');

// Read with parseJson: V8's JSON.parse misreads escaped keys after earlier inputs (nodejs/node#63785).

/** The shape of a parsed value whose text repeats no name (values counted as parsed). */
function shapeOf(v: unknown): Omit<JsonShape, 'repeatsName'> {
  let values = 0;
  let depth = 0;
  let overflows = false;
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (typeof x === 'number' && !Number.isFinite(x)) overflows = true;
    if (x === null || typeof x !== 'object') continue;
    depth = Math.max(depth, d + 1);
    const items = Array.isArray(x) ? x : Object.values(x);
    values += items.length;
    for (const item of items) stack.push([item, d + 1]);
  }
  const elements = Array.isArray(v) ? v.length : 0;
  const bad = Array.isArray(v) ? v.find((e) => e !== null && typeOf(e) !== 'object') : undefined;
  return {
    root: typeOf(v),
    values,
    elements,
    depth,
    overflows,
    ...(bad !== undefined && { firstNonObject: typeOf(bad) }),
  };
}

/** Whether JSON.parse reads the text (parseJson, its workaround, also reads a raw control character in an escaped key). */
const parses = (t: string): boolean => {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

/** JSON texts, spaced or not, with names that may repeat, escaped or not. */
const key = fc.constantFrom('a', 'b', '\\u0061', 'a\\"', '\\\\', 'é', '');
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      '0',
      '-1.5e3',
      '1E+2',
      '1e400',
      '-2E+999',
      'true',
      'false',
      'null',
      '"x"',
      '"\\n\\u00e9\\/"',
      '""',
      '12',
    ),
    fc
      .array(fc.constantFrom('1', '-0.5', '1e999', '20'), { minLength: 1, maxLength: 5 })
      .map((xs) => `[${xs.join(',')}]`),
    fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
    fc
      .array(fc.tuple(key, tie('value')), { maxLength: 4 })
      .map((ms) => `{ ${ms.map(([k, v]) => `"${k}" : ${v}`).join(' ,\n')} }`),
  ),
})).value;

/** Texts near JSON: a JSON text with a character changed, dropped or added. */
const nearJson = fc
  .tuple(jsonText, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', '\\', ':', '\u0001', '-', '.', 'e', '0', ' ', 'x'))
  .map(([t, at, c]) => {
    const i = at % (t.length + 1);
    return at % 2 === 0 ? t.slice(0, i) + c + t.slice(i + 1) : t.slice(0, i) + c + t.slice(i);
  });

describe('scanJsonShape', () => {
  it('reads a text as JSON.parse does: valid or not, its root, values, elements and first non-object', () => {
    fc.assert(
      fc.property(fc.oneof(jsonText, nearJson), (t) => {
        const shape = scanJsonShape(t);
        expect(shape !== undefined).toBe(parses(t));
        if (shape === undefined) return;
        const v: unknown = parseJson(t);
        if (!shape.repeatsName && !scanJsonShape(t, true)!.repeatsName) {
          expect({ ...shape, repeatsName: undefined }).toEqual({ ...shapeOf(v), repeatsName: undefined });
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('finds a repeated member name, decoded, exactly when the parsed value has fewer members than spelled', () => {
    fc.assert(
      fc.property(jsonText, (t) => {
        const shape = scanJsonShape(t, true)!;
        const spelled = scanJsonShape(t)!.values;
        expect(shape.repeatsName).toBe(shapeOf(parseJson(t)).values < spelled);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what JSON.parse refuses', () => {
    for (const t of [
      '',
      ' ',
      '01',
      '1.',
      '.5',
      '-',
      '1e',
      '+1',
      '[1,]',
      '{"a":1,}',
      '{"a"}',
      '{a:1}',
      '"\\x"',
      '"\t"',
      '[1] 2',
      'nul',
      'tru',
      '"\\u12"',
      '[',
      '{"a":1',
      '[1,-]',
      '[1,2',
      '[1,2 3]',
      '[1,01]',
      '[1,1.]',
      '[1,2,]',
      '[1,2}',
    ]) {
      expect([t, scanJsonShape(t)]).toEqual([t, undefined]);
      expect(parses(t)).toBe(false);
    }
  });

  it('reads 3 MiB of numbers in one pass', () => {
    const text = `[${Array.from({ length: 1_500_000 }, () => '1').join(',')}]`;
    expect(scanJsonShape(text)).toEqual({
      root: 'array',
      values: 1_500_000,
      elements: 1_500_000,
      firstNonObject: 'number',
      repeatsName: false,
      depth: 1,
      overflows: false,
    });
  });
});
