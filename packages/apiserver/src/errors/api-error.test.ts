import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  FieldError,
  FieldPath,
  forbidden as forbiddenField,
  invalid as invalidField,
  notSupported,
  required,
  tooMany,
} from '@kevents/validation';
import { StorageError } from '@kevents/storage';
import type { StorageErrorCode } from '@kevents/storage';
import {
  alreadyExists,
  badRequest,
  conflict,
  expired,
  forbidden,
  fromStorageError,
  internalError,
  invalid,
  methodNotAllowed,
  methodNotSupported,
  notAcceptable,
  notFound,
  pathNotFound,
  qualified,
  requestEntityTooLarge,
  serviceUnavailable,
  timeout,
  unauthorized,
  unprocessable,
  unsupportedMediaType,
} from './api-error.js';
import type { ApiError } from './api-error.js';

const frames = (e: Error): number => (e.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')).length;

describe('ApiError', () => {
  it('is an answer: it captures no stack, and leaves the limit as it was', () => {
    expect(frames(notFound({ group: 'events.k8s.io', resource: 'events' }, 'x'))).toBe(0);
    expect(frames(internalError(new Error('boom')))).toBe(0);
    expect(frames(new Error('after'))).toBeGreaterThan(0);
  });
});

const events = { group: 'events.k8s.io', resource: 'events' };
const pods = { group: '', resource: 'pods' };
/** What a client reads of an error: its code, its Status (without the constant parts) and its headers. */
const answer = (e: ApiError) => {
  const { kind: _k, apiVersion: _a, metadata: _m, status: _s, ...status } = e.status;
  return { code: e.code, status, headers: e.headers };
};

describe('the Status of each error, as k8s.io/apimachinery/pkg/api/errors words it', () => {
  it('names a resource as <resource>.<group>, or the resource alone in the core group', () => {
    expect(qualified(events)).toBe('events.events.k8s.io');
    expect(qualified(pods)).toBe('pods');
  });

  it('NotFound, AlreadyExists and Conflict name the object, with its group, kind and name in details', () => {
    expect(answer(notFound(events, 'e1'))).toEqual({
      code: 404,
      status: {
        code: 404,
        reason: 'NotFound',
        message: 'events.events.k8s.io "e1" not found',
        details: { name: 'e1', group: 'events.k8s.io', kind: 'events' },
      },
      headers: {},
    });
    expect(answer(alreadyExists(pods, 'p'))).toMatchObject({
      code: 409,
      status: { reason: 'AlreadyExists', message: 'pods "p" already exists', details: { name: 'p', kind: 'pods' } },
    });
    expect(alreadyExists(pods, 'p').status.details).not.toHaveProperty('group');
    expect(alreadyExists(pods, 'p', ' (extra)').status.message).toBe('pods "p" already exists (extra)');
    expect(answer(conflict(events, 'e1', 'the object has been modified'))).toMatchObject({
      code: 409,
      status: {
        reason: 'Conflict',
        message: 'Operation cannot be fulfilled on events.events.k8s.io "e1": the object has been modified',
        details: { name: 'e1', group: 'events.k8s.io', kind: 'events' },
      },
    });
    expect(notFound(pods, '').status.details).toEqual({ kind: 'pods' });
  });

  it('the path and method errors of the server', () => {
    expect(answer(pathNotFound()).status).toEqual({
      code: 404,
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
      details: {},
    });
    expect(answer(methodNotSupported(events, 'deletecollection')).status).toEqual({
      code: 405,
      reason: 'MethodNotAllowed',
      message: 'deletecollection is not supported on resources of kind "events.events.k8s.io"',
      details: { group: 'events.k8s.io', kind: 'events' },
    });
    expect(methodNotSupported(pods, 'patch').status.details).toEqual({ kind: 'pods' });
    expect(answer(methodNotAllowed()).status).toEqual({
      code: 405,
      reason: 'MethodNotAllowed',
      message: 'the server does not allow this method on the requested resource',
      details: { causes: [{ reason: 'UnexpectedServerResponse', message: '405: Method Not Allowed' }] },
    });
  });

  it('media types, sizes, expiry and bad requests', () => {
    expect(answer(badRequest('bad')).status).toEqual({ code: 400, reason: 'BadRequest', message: 'bad' });
    expect(answer(unsupportedMediaType(['application/json', 'application/yaml'])).status).toEqual({
      code: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    });
    expect(answer(notAcceptable(['application/json', 'application/yaml'])).status).toEqual({
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml',
    });
    expect(answer(requestEntityTooLarge(3145728)).status).toEqual({
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: limit is 3145728',
    });
    expect(answer(expired('too old')).status).toEqual({ code: 410, reason: 'Expired', message: 'too old' });
    expect(expired('too old', 'token').status.metadata).toEqual({ continue: 'token' });
    expect(expired('too old').status.metadata).toEqual({});
    expect(answer(unprocessable('no')).status).toEqual({ code: 422, reason: 'Invalid', message: 'no', details: {} });
  });

  it('internal errors, unavailability and timeouts, with Retry-After where the client should retry', () => {
    expect(answer(internalError(new Error('boom'))).status).toEqual({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: boom',
      details: { causes: [{ message: 'boom' }] },
    });
    expect(internalError('text').status.message).toBe('Internal error occurred: text');
    expect(answer(serviceUnavailable('down'))).toEqual({
      code: 503,
      status: { code: 503, reason: 'ServiceUnavailable', message: 'down', details: { retryAfterSeconds: 1 } },
      headers: { 'Retry-After': '1' },
    });
    expect(answer(serviceUnavailable('down', 7)).headers).toEqual({ 'Retry-After': '7' });
    expect(answer(timeout('slow'))).toEqual({
      code: 504,
      status: { code: 504, reason: 'Timeout', message: 'Timeout: slow', details: { retryAfterSeconds: 1 } },
      headers: { 'Retry-After': '1' },
    });
    expect(answer(timeout('slow', 3)).status.details).toEqual({ retryAfterSeconds: 3 });
  });

  it('Unauthorized and Forbidden', () => {
    expect(answer(unauthorized()).status).toEqual({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    expect(unauthorized('expired token').status.message).toBe('expired token');
    expect(answer(forbidden('User "u" cannot get resource "events"', events, 'e1')).status).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'events.events.k8s.io "e1" is forbidden: User "u" cannot get resource "events"',
      details: { name: 'e1', group: 'events.k8s.io', kind: 'events' },
    });
    expect(answer(forbidden('no', pods)).status).toMatchObject({
      message: 'pods is forbidden: no',
      details: { kind: 'pods' },
    });
    expect(answer(forbidden('no')).status).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'forbidden: no',
      details: {},
    });
    expect(answer(forbidden('no', { group: 'g', resource: '' }, 'x')).status).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'forbidden: no',
      details: {},
    });
  });

  it('Invalid: one cause per field error, the kind qualified by its group', () => {
    const errs = [
      invalidField(FieldPath.root('spec').child('x'), 1, 'must be 2'),
      required(FieldPath.root('note'), ''),
    ];
    expect(answer(invalid({ group: 'example.com', kind: 'Widget' }, 'w', errs)).status).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'Widget.example.com "w" is invalid: [spec.x: Invalid value: 1: must be 2, note: Required value]',
      details: {
        name: 'w',
        group: 'example.com',
        kind: 'Widget',
        causes: [
          { reason: 'FieldValueInvalid', message: 'Invalid value: 1: must be 2', field: 'spec.x' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'note' },
        ],
      },
    });
    expect(invalid({ group: '', kind: 'Pod' }, 'p', errs.slice(1)).status).toMatchObject({
      message: 'Pod "p" is invalid: note: Required value',
      details: { name: 'p', kind: 'Pod' },
    });
    expect(invalid({ group: '', kind: 'Pod' }, 'p', []).status.details).not.toHaveProperty('group');
  });

  it('Invalid: the name quoted as %q, no aggregate and no causes without errors, a cause without an empty field', () => {
    expect(invalid({ group: '', kind: 'Pod' }, 'a"b\n', [invalidField('', 'v', 'd')]).status).toMatchObject({
      message: 'Pod "a\\"b\\n" is invalid: : Invalid value: "v": d',
      details: {
        name: 'a"b\n',
        kind: 'Pod',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "v": d' }],
      },
    });
    const none = invalid({ group: 'g', kind: 'K' }, '', []);
    expect(none.status.message).toBe('K.g "" is invalid');
    expect(none.status.details).toEqual({ group: 'g', kind: 'K' });
  });

  it("Invalid: the Status's JSON text is what JSON.stringify writes of it", () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('', 'a', '"', '\\', '<&>', '\u2028', '\ud800', 'metadata.name'),
    );
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.dictionary(text, text, { maxKeys: 2 }),
    );
    const fieldError = fc.oneof(
      fc.tuple(text, value, text).map(([f, v, d]) => invalidField(f, v, d)),
      fc.tuple(text, text).map(([f, d]) => required(f, d)),
      fc.tuple(text, text).map(([f, d]) => forbiddenField(f, d)),
      fc.tuple(text, value, fc.array(text, { maxLength: 2 })).map(([f, v, vs]) => notSupported(f, v, vs)),
      fc.tuple(text, fc.integer({ min: -1, max: 9 })).map(([f, n]) => tooMany(f, n, 3)),
    );
    fc.assert(
      fc.property(
        fc.array(fieldError, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        text,
        text,
        text,
        (errs, repeats, group, kind, name) => {
          const list: FieldError[] = [...errs, ...repeats.filter((i) => i < errs.length).map((i) => errs[i]!)];
          const err = invalid({ group, kind }, name, list);
          expect(err.statusText!()).toBe(JSON.stringify(err.status));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('fromStorageError', () => {
  const key = { resource: 'events', namespace: 'n', name: 'from-key' };
  const mapped = (code: StorageErrorCode, extra: ConstructorParameters<typeof StorageError>[2] = {}) =>
    answer(fromStorageError(new StorageError(code, 'why', extra), events, 'given'));

  it('answers each storage error as Kubernetes does, naming the stored key before the given name', () => {
    expect(mapped('NotFound', { key }).status.message).toBe('events.events.k8s.io "from-key" not found');
    expect(mapped('NotFound').status.message).toBe('events.events.k8s.io "given" not found');
    expect(mapped('AlreadyExists', { key }).status).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
      message: 'events.events.k8s.io "from-key" already exists',
    });
    expect(mapped('Conflict').status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on events.events.k8s.io "given": why',
    });
    expect(mapped('Expired', { continue: 'next' }).status).toMatchObject({
      code: 410,
      reason: 'Expired',
      message: 'why',
    });
    expect(fromStorageError(new StorageError('Expired', 'why', { continue: 'next' }), events).status.metadata).toEqual({
      continue: 'next',
    });
    expect(mapped('InvalidContinue').status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'invalid continue token: why',
    });
    expect(mapped('TooLargeResourceVersion', { retryAfterSeconds: 2 })).toMatchObject({
      code: 504,
      status: { reason: 'Timeout', message: 'Timeout: why', details: { retryAfterSeconds: 2 } },
      headers: { 'Retry-After': '2' },
    });
    expect(mapped('TooLargeResourceVersion').headers).toEqual({ 'Retry-After': '1' });
    expect(mapped('Unavailable', { retryAfterSeconds: 5 })).toMatchObject({
      code: 503,
      status: { reason: 'ServiceUnavailable', message: 'storage is unavailable: why' },
      headers: { 'Retry-After': '5' },
    });
    expect(mapped('Unavailable').headers).toEqual({ 'Retry-After': '1' });
    for (const code of ['InvalidObject', 'Internal'] as const) {
      expect(mapped(code).status).toMatchObject({
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: why',
      });
    }
  });

  it('passes an ApiError through and answers anything else as an internal error', () => {
    const e = badRequest('x');
    expect(fromStorageError(e, events)).toBe(e);
    expect(answer(fromStorageError(new TypeError('t'), events)).status).toMatchObject({
      code: 500,
      message: 'Internal error occurred: t',
    });
  });
});
