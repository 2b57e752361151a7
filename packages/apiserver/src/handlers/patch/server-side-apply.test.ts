import { describe, expect, it } from '@jest/globals';
import { ApplyBadRequestError, ConflictsError, FieldManagerError, makePath } from '@kevents/managed-fields';
import { ApiError } from '../../errors/api-error.js';
import { maxNestingDepth } from '../json-depth.js';
import { applyError, readApplyConfiguration, strictApplyWarnings } from './server-side-apply.js';
import { apiFailure } from '../../testing/api-failure.js';

describe('readApplyConfiguration', () => {
  it('reads YAML and JSON bodies, as text or bytes', () => {
    const want = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' } };
    expect(readApplyConfiguration('apiVersion: v1\nkind: Event\nmetadata:\n  name: e\n')).toEqual({ object: want });
    expect(readApplyConfiguration(Buffer.from(JSON.stringify(want)))).toEqual({ object: want });
  });

  it('reads an empty body as an empty map (the version check answers it)', () => {
    expect(readApplyConfiguration('')).toEqual({ object: {} });
    expect(readApplyConfiguration(undefined)).toEqual({ object: {} });
  });

  it('answers 400 error decoding YAML for syntax errors and for bodies that are not maps', () => {
    expect(apiFailure(() => readApplyConfiguration('a: [')).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: expect.stringMatching(/^error decoding YAML: error converting YAML to JSON: yaml: /),
    });
    expect(apiFailure(() => readApplyConfiguration('- a\n- b\n')).status.message).toBe(
      'error decoding YAML: json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    expect(apiFailure(() => readApplyConfiguration('"x"')).status.message).toBe(
      'error decoding YAML: json: cannot unmarshal string into Go value of type map[string]interface {}',
    );
    // Go's names of the JSON types: bool and number.
    for (const [body, type] of [
      ['true', 'bool'],
      ['false', 'bool'],
      ['12', 'number'],
      ['1.5', 'number'],
      ['[1]', 'array'],
    ]) {
      expect(apiFailure(() => readApplyConfiguration(body)).status.message).toBe(
        `error decoding YAML: json: cannot unmarshal ${type} into Go value of type map[string]interface {}`,
      );
    }
  });

  it('reads a null document as an empty map, and neither bytes nor text as an empty body', () => {
    expect(readApplyConfiguration('null')).toEqual({ object: {} });
    expect(readApplyConfiguration('~\n')).toEqual({ object: {} });
    expect(readApplyConfiguration({ kind: 'A' })).toEqual({ object: {} });
    expect(readApplyConfiguration(Buffer.from('kind: A\n'))).toEqual({ object: { kind: 'A' } });
  });

  it('refuses nesting past the decoder limit', () => {
    const deep = `${'{"a":'.repeat(maxNestingDepth + 1)}1${'}'.repeat(maxNestingDepth + 1)}`;
    expect(apiFailure(() => readApplyConfiguration(deep)).status.message).toMatch(/^error decoding YAML: /);
  });

  it('takes the last of duplicate keys and reports them for strict decoding', () => {
    const c = readApplyConfiguration('kind: A\nkind: B\n');
    expect(c.object).toEqual({ kind: 'B' });
    expect(c.strictError).toBe(
      'error converting YAML to JSON: yaml: unmarshal errors:\n  line 2: key "kind" already set in map',
    );
    expect(readApplyConfiguration('a:\n  b: 1\n  b: 2\n').strictError).toMatch(/line 3: key "b" already set in map$/);
    expect(strictApplyWarnings(c, 'Ignore')).toEqual([]);
    expect(strictApplyWarnings(c, 'Warn')).toEqual([c.strictError]);
    expect(apiFailure(() => strictApplyWarnings(c, 'Strict')).status.message).toBe(
      `error strict decoding YAML: ${c.strictError}`,
    );
    expect(strictApplyWarnings(readApplyConfiguration('kind: A\n'), 'Strict')).toEqual([]);
  });
});

describe('applyError', () => {
  it('answers conflicts with kube-apiserver 409 and its causes', () => {
    const err = applyError(
      new ConflictsError([
        {
          manager: '{"manager":"kubectl-edit","operation":"Update","apiVersion":"v1"}',
          path: makePath('spec', 'replicas'),
        },
      ]),
    ) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using v1', field: '.spec.replicas' },
        ],
      },
      code: 409,
    });
  });

  it('answers bad configurations with 400 and the manager failures with 500', () => {
    expect(
      (applyError(new ApplyBadRequestError('metadata.managedFields must be nil')) as ApiError).status,
    ).toMatchObject({
      code: 400,
      message: 'metadata.managedFields must be nil',
    });
    expect(
      (
        applyError(
          new ApplyBadRequestError('failed to create typed patch object (...): .x: field not declared'),
        ) as ApiError
      ).status,
    ).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'failed to create typed patch object (...): .x: field not declared',
    });
    expect((applyError(new FieldManagerError('failed to decode managed fields: x')) as ApiError).status).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: failed to decode managed fields: x',
    });
    const other = new Error('x');
    expect(applyError(other)).toBe(other);
  });
});
