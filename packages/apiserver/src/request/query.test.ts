import { describe, expect, it } from '@jest/globals';
import { goQuote } from '@kevents/api';
import fc from 'fast-check';
import {
  boolParam,
  checkResourceVersion,
  intParam,
  parseDryRun,
  parseFieldValidation,
  parseListOptions,
  q,
  queryBool,
} from './query.js';
import type { Query } from './query.js';
import { apiFailure } from '../testing/api-failure.js';

describe('q, boolParam and intParam', () => {
  it('q reads the first of repeated values', () => {
    expect(q({ a: ['1', '2'] }, 'a')).toBe('1');
    expect(q({ a: 'x' }, 'a')).toBe('x');
    expect(q({}, 'a')).toBeUndefined();
  });

  it("boolParam reads as Kubernetes' parameter codec does (Convert_Slice_string_To_bool)", () => {
    for (const v of ['1', 't', 'T', 'true', 'TRUE', 'True', 'yes', '', ' '])
      expect(boolParam({ b: v }, 'b')).toBe(true);
    for (const v of ['0', 'false', 'FALSE', 'False', 'fAlSe']) expect(boolParam({ b: v }, 'b')).toBe(false);
    expect(boolParam({}, 'b')).toBeUndefined();
    expect(boolParam({ b: ['true', 'x'] }, 'b')).toBe(true);
    expect(boolParam({ b: ['0', 'true'] }, 'b')).toBe(false);
  });

  it('boolParam never throws: anything but absent, 0 and false (any case) is true', () => {
    fc.assert(
      fc.property(fc.string(), (v) => {
        expect(boolParam({ b: v }, 'b')).toBe(!['0', 'false'].includes(v.toLowerCase()));
      }),
    );
  });

  it('intParam reads int64s as strconv.ParseInt does, and answers 400 in its words otherwise', () => {
    expect(intParam({ n: '42' }, 'n')).toBe(42);
    expect(intParam({ n: '-3' }, 'n')).toBe(-3);
    expect(intParam({ n: '+3' }, 'n')).toBe(3);
    expect(intParam({ n: ['7', 'x'] }, 'n')).toBe(7);
    expect(intParam({ n: '-9223372036854775808' }, 'n')).toBe(-9223372036854775808);
    expect(intParam({}, 'n')).toBeUndefined();
    for (const v of ['', '1.5', 'x', '1x', ' 1', '--1', 'é']) {
      const err = apiFailure(() => intParam({ n: v }, 'n'));
      expect([err.code, err.status.message]).toEqual([400, `strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`]);
    }
    for (const v of ['9223372036854775808', '-9223372036854775809', '1'.repeat(40)]) {
      const err = apiFailure(() => intParam({ n: v }, 'n'));
      expect(err.status.message).toBe(`strconv.ParseInt: parsing "${v}": value out of range`);
    }
  });
});

/** parseListOptions with watch decided from the query, as RequestInfo decides it. */
const lo = (query: Query): ReturnType<typeof parseListOptions> =>
  parseListOptions(query, boolParam(query, 'watch') === true);

describe('queryBool', () => {
  it('reads the first value; absent is undefined', () => {
    expect(queryBool({}, 'w')).toBeUndefined();
    expect(queryBool({ w: undefined }, 'w')).toBeUndefined();
    expect(queryBool({ w: '' }, 'w')).toBe(true);
    expect(queryBool({ w: 'FaLsE' }, 'w')).toBe(false);
    expect(queryBool({ w: '0' }, 'w')).toBe(false);
    expect(queryBool({ w: '00' }, 'w')).toBe(true);
    expect(queryBool({ w: 'f' }, 'w')).toBe(true);
    expect(queryBool({ w: ['false', 'true'] }, 'w')).toBe(false);
  });
});

describe('parseListOptions', () => {
  const invalid = (query: Query, forceWatch = false): string => {
    const err = apiFailure(() => parseListOptions(query, forceWatch || boolParam(query, 'watch') === true));
    expect(err.code).toBe(422);
    expect(err.status.reason).toBe('Invalid');
    return err.status.message!;
  };

  it('reads a plain list', () => {
    expect(parseListOptions({}, false)).toEqual({
      watch: false,
      limit: undefined,
      continue: undefined,
      resourceVersion: undefined,
      resourceVersionMatch: '',
      labelSelector: undefined,
      fieldSelector: undefined,
      allowWatchBookmarks: false,
      timeoutSeconds: undefined,
      sendInitialEvents: undefined,
    });
  });

  it('reads every option', () => {
    const o = lo({
      limit: '5',
      resourceVersion: '7',
      resourceVersionMatch: 'Exact',
      labelSelector: 'a=b',
      fieldSelector: 'type=Normal',
      allowWatchBookmarks: 'true',
      timeoutSeconds: '30',
    });
    expect(o).toMatchObject({
      watch: false,
      limit: 5,
      resourceVersion: '7',
      resourceVersionMatch: 'Exact',
      labelSelector: 'a=b',
      fieldSelector: 'type=Normal',
      allowWatchBookmarks: true,
      timeoutSeconds: 30,
    });
  });

  it("times a watch as Go's time.Duration of timeoutSeconds, which wraps past ±292 years", () => {
    expect(lo({ timeoutSeconds: '9223372036' }).timeoutSeconds).toBeCloseTo(9223372036, 0);
    // 9223372037e9 ns passes int64's 9223372036854775807 and wraps to -9223372036709551616 ns.
    expect(lo({ timeoutSeconds: '9223372037' }).timeoutSeconds).toBeCloseTo(-9223372036.7, 0);
    expect(lo({ timeoutSeconds: '18446744073' }).timeoutSeconds).toBeCloseTo(-0.709551616, 6);
    expect(lo({ timeoutSeconds: '18446744074' }).timeoutSeconds).toBeCloseTo(0.290448384, 6);
    expect(lo({ timeoutSeconds: '-9223372036854775808' }).timeoutSeconds).toBe(0);
    expect(() => lo({ timeoutSeconds: '9223372036854775808' })).toThrow('value out of range');
  });

  it('ignores a limit of 0 or less and an empty continue', () => {
    expect(lo({ limit: '0' }).limit).toBeUndefined();
    expect(lo({ limit: '-1' }).limit).toBeUndefined();
    expect(lo({ limit: '1' }).limit).toBe(1);
    expect(lo({ continue: '' }).continue).toBeUndefined();
    expect(lo({ continue: 'tok' }).continue).toBe('tok');
  });

  it('is a watch when RequestInfo says so (the query is not read again)', () => {
    expect(parseListOptions({ watch: 'true' }, true).watch).toBe(true);
    expect(parseListOptions({ watch: 'true' }, false).watch).toBe(false);
  });

  it('validates resourceVersionMatch for lists like ValidateListOptions', () => {
    expect(invalid({ resourceVersionMatch: 'Exact' })).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    expect(invalid({ resourceVersionMatch: 'NotOlderThan', resourceVersion: '1', continue: 'c' })).toContain(
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
    );
    expect(invalid({ resourceVersionMatch: 'Bogus', resourceVersion: '1' })).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
    );
    expect(invalid({ resourceVersionMatch: 'Exact', resourceVersion: '0' })).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
    expect(invalid({ sendInitialEvents: 'true' })).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    );
    expect(lo({ resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }).resourceVersionMatch).toBe(
      'NotOlderThan',
    );
    expect(lo({ resourceVersionMatch: 'Exact', resourceVersion: '5' }).resourceVersionMatch).toBe('Exact');
  });

  it('validates resourceVersionMatch and sendInitialEvents for watches', () => {
    expect(invalid({ watch: '1', sendInitialEvents: 'true' })).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
    expect(invalid({ watch: '1', resourceVersionMatch: 'NotOlderThan' })).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
    expect(invalid({ watch: '1', resourceVersionMatch: 'Exact', sendInitialEvents: 'false' })).toContain(
      'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
    );
    expect(
      invalid({ watch: '1', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: 'true', continue: 'c' }),
    ).toContain('resourceVersionMatch is forbidden when continue is provided');
    const o = parseListOptions({ resourceVersionMatch: 'NotOlderThan', sendInitialEvents: 'true' }, true);
    expect([o.watch, o.sendInitialEvents, o.resourceVersionMatch]).toEqual([true, true, 'NotOlderThan']);
    expect(
      lo({ watch: 'true', sendInitialEvents: 'false', resourceVersionMatch: 'NotOlderThan' }).sendInitialEvents,
    ).toBe(false);
  });

  it('answers 400 to a resourceVersion with continue, and to a resourceVersion that is not a number', () => {
    const both = apiFailure(() => lo({ continue: 'c', resourceVersion: '5' }));
    expect([both.code, both.status.message]).toEqual([
      400,
      'specifying resource version is not allowed when using continue',
    ]);
    expect(lo({ continue: 'c', resourceVersion: '0' }).continue).toBe('c');
    const bad = apiFailure(() => lo({ resourceVersion: 'x1' }));
    expect([bad.code, bad.status.message]).toEqual([
      400,
      'invalid resource version: resourceVersion: Invalid value: "x1": strconv.ParseUint: parsing "x1": invalid syntax',
    ]);
    expect(apiFailure(() => lo({ resourceVersion: '1x' })).code).toBe(400);
    expect(lo({ resourceVersion: '123' }).resourceVersion).toBe('123');
  });
});

describe('checkResourceVersion', () => {
  it('accepts unset, zero and decimal values up to the largest safe integer', () => {
    for (const rv of [undefined, '', '0', '00', '7', '007', String(Number.MAX_SAFE_INTEGER)]) checkResourceVersion(rv);
  });
  it.each([
    ['abc', 'invalid syntax'],
    ['-1', 'invalid syntax'],
    ['+1', 'invalid syntax'],
    ['1.5', 'invalid syntax'],
    ['0x10', 'invalid syntax'],
    [' 1', 'invalid syntax'],
    ['9007199254740993', 'value out of range'],
    ['18446744073709551615', 'value out of range'],
    ['99999999999999999999999', 'value out of range'],
  ])('answers 400 to %j (%s), worded as the etcd3 store words it', (rv, why) => {
    const err = apiFailure(() => checkResourceVersion(rv));
    expect([err.code, err.status.reason, err.status.message]).toEqual([
      400,
      'BadRequest',
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`,
    ]);
  });
});

describe('parseDryRun and parseFieldValidation', () => {
  it('dryRun: only All, any number of times', () => {
    expect(parseDryRun({}, 'CreateOptions')).toBe(false);
    expect(parseDryRun({ dryRun: 'All' }, 'CreateOptions')).toBe(true);
    expect(parseDryRun({ dryRun: ['All', 'All'] }, 'PatchOptions')).toBe(true);
    const err = apiFailure(() => parseDryRun({ dryRun: ['All', 'Some'] }, 'PatchOptions'));
    expect([err.code, err.status.message]).toEqual([
      422,
      'PatchOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"All", "Some"}: supported values: "All"',
    ]);
    expect(apiFailure(() => parseDryRun({ dryRun: '' }, 'DeleteOptions')).status.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{""}: supported values: "All"',
    );
  });

  it('fieldValidation: Ignore, Warn (the default) or Strict', () => {
    expect(parseFieldValidation({})).toBe('Warn');
    expect(parseFieldValidation({ fieldValidation: '' })).toBe('Warn');
    for (const v of ['Ignore', 'Warn', 'Strict']) expect(parseFieldValidation({ fieldValidation: v })).toBe(v);
    const err = apiFailure(() => parseFieldValidation({ fieldValidation: 'strict' }));
    expect([err.code, err.status.message]).toEqual([
      400,
      'fieldValidation parameter unsupported: strict. Supported values: Ignore, Warn, Strict',
    ]);
  });
});
