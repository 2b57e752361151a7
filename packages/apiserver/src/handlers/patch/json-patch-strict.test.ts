import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ApiError } from '../../errors/api-error.js';
import { apiFailure } from '../../testing/api-failure.js';
import { strictJSONPatchErrors } from './json-patch-strict.js';

const decodeError = (text: string): string => {
  const err = apiFailure(() => strictJSONPatchErrors(text));
  expect([err.code, err.status.reason]).toEqual([400, 'BadRequest']);
  return err.status.message ?? '';
};
const cannot = (what: string): string => `error decoding patch: json: cannot unmarshal ${what}`;

describe('strictJSONPatchErrors (kjson.UnmarshalStrict into []jsonPatchOp)', () => {
  it('answers the first value of a wrong type as Go words it', () => {
    for (const [text, what] of [
      ['{"op":"add"}', 'object into Go value of type []handlers.jsonPatchOp'],
      ['"add"', 'string into Go value of type []handlers.jsonPatchOp'],
      ['1', 'number into Go value of type []handlers.jsonPatchOp'],
      ['true', 'bool into Go value of type []handlers.jsonPatchOp'],
      ['[{"op":"test","path":"","value":1},"x"]', 'string into Go value of type handlers.jsonPatchOp'],
      ['[[]]', 'array into Go value of type handlers.jsonPatchOp'],
      ['[false]', 'bool into Go value of type handlers.jsonPatchOp'],
      ['[{"op":3,"path":"/s"}]', 'number into Go struct field jsonPatchOp.op of type string'],
      ['[{"op":"add","path":{}}]', 'object into Go struct field jsonPatchOp.path of type string'],
      ['[{"op":"copy","path":"/a","from":[1]}]', 'array into Go struct field jsonPatchOp.from of type string'],
      [
        '[{"op":"add","path":"/a","value":{"b":[0,-1e400]}}]',
        'number -1e400 into Go struct field jsonPatchOp.value of type float64',
      ],
      [
        '[{"op":"add","path":"/a","value":123456789012345678901234567890e300}]',
        'number 123456789012345678901234567890e300 into Go struct field jsonPatchOp.value of type float64',
      ],
      // the first in the text wins, strict errors before it or not
      ['[{"x":1,"op":true},{"op":1}]', 'bool into Go struct field jsonPatchOp.op of type string'],
    ] as const) {
      expect(decodeError(text)).toBe(cannot(what));
    }
  });

  it('takes null anywhere a Go value may be null, numbers a float64 holds, and any value', () => {
    for (const text of [
      'null',
      '[]',
      '[null]',
      '[{}]',
      '[{"op":null,"path":null,"from":null,"value":null}]',
      '[{"op":"add","path":"/a","value":[1e-400,9223372036854775808,-0,{"a":{"b":[true,"x"]}}]}]',
    ]) {
      expect(strictJSONPatchErrors(text)).toEqual([]);
    }
  });

  it('reports unknown and repeated fields with their paths, in the order of the text, each once', () => {
    expect(
      strictJSONPatchErrors(
        '[{"op":"add","Op":"x","path":"/a","op":"add","value":{"k":1,"k":{"z":[{"q":1,"q":2}]}}},' +
          '{"extra":{"a":1,"a":2},"extra":1,"value":[{"m":1,"m":1}]}, {"Op":1}]',
      ),
    ).toEqual([
      'json patch unknown field "[0].Op"',
      'json patch duplicate field "[0].op"',
      'json patch duplicate field "[0].value.k"',
      'json patch duplicate field "[0].value.k.z[0].q"',
      'json patch unknown field "[1].extra"',
      'json patch duplicate field "[1].value[0].m"',
      'json patch unknown field "[2].Op"',
    ]);
  });

  it('reads member names as Go does: escapes decoded, a lone surrogate as U+FFFD, quoted with %q', () => {
    expect(strictJSONPatchErrors('[{"\\u006fp":"add","op":"x","a\\"b":1,"\\ud800":2,"tab\\t":3}]')).toEqual([
      'json patch duplicate field "[0].op"',
      'json patch unknown field "[0].a\\"b"',
      'json patch unknown field "[0].\ufffd"',
      'json patch unknown field "[0].tab\\t"',
    ]);
  });

  it('keeps at most 100 strict errors', () => {
    const ops = Array.from({ length: 150 }, (_, i) => `{"x${i}":1}`).join(',');
    const errors = strictJSONPatchErrors(`[${ops}]`);
    expect(errors).toHaveLength(100);
    expect(errors[99]).toBe('json patch unknown field "[99].x99"');
  });

  /** A model of Go's decode over parsed members (kept as written, repeats included). */
  type Member = readonly [string, unknown];
  const kindOf = (v: unknown): string =>
    v === null
      ? 'null'
      : Array.isArray(v)
        ? 'array'
        : typeof v === 'object'
          ? 'object'
          : typeof v === 'boolean'
            ? 'bool'
            : (typeof v as string);
  const memberArb = fc.tuple(
    fc.constantFrom('op', 'path', 'from', 'value', 'Op', 'x', 'a.b'),
    fc.oneof(fc.constantFrom<unknown>('add', '/a', null, 1, true, [1], { a: 1 }), fc.jsonValue({ maxDepth: 2 })),
  );
  const opArb = fc.oneof(
    { weight: 5, arbitrary: fc.array(memberArb, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1, 'x', [], true) },
  );
  const textOf = (ops: readonly unknown[]): string =>
    `[${ops
      .map((op) =>
        Array.isArray(op) && op.every((m) => Array.isArray(m) && m.length === 2 && typeof m[0] === 'string')
          ? `{${(op as Member[]).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`
          : JSON.stringify(op),
      )
      .join(',')}]`;
  const model = (ops: readonly unknown[]): string[] | string => {
    const errors: string[] = [];
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      const members =
        Array.isArray(op) && op.every((m) => Array.isArray(m) && m.length === 2 && typeof m[0] === 'string');
      if (!members) {
        if (op === null) continue;
        return cannot(`${kindOf(op)} into Go value of type handlers.jsonPatchOp`);
      }
      const seen = new Set<string>();
      for (const [k, v] of op as Member[]) {
        if (!['op', 'path', 'from', 'value'].includes(k)) {
          errors.push(`json patch unknown field "[${i}].${k}"`);
          continue;
        }
        if (seen.has(k)) errors.push(`json patch duplicate field "[${i}].${k}"`);
        seen.add(k);
        if (k !== 'value' && v !== null && typeof v !== 'string')
          return cannot(`${kindOf(v)} into Go struct field jsonPatchOp.${k} of type string`);
      }
    }
    return [...new Set(errors)].slice(0, 100);
  };

  it('agrees with a model of Go’s decode on any list of operations (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 6 }), (ops) => {
        const text = textOf(ops);
        const expected = model(ops);
        if (typeof expected === 'string') expect(decodeError(text)).toBe(expected);
        else expect(strictJSONPatchErrors(text)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers any JSON text with a list of errors or a 400, never anything else (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (v, spaced) => {
        const text = JSON.stringify(v, null, spaced ? 1 : undefined);
        try {
          expect(Array.isArray(strictJSONPatchErrors(text))).toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          expect((err as ApiError).code).toBe(400);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
