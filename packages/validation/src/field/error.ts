import { goQuote } from '@kevents/api';
import type { FieldPath } from './path.js';

/** The Kubernetes `field.ErrorType` names, as used in `-o json` output and Status causes. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** `ErrorType.String()` in Go: the text printed in messages and used as a cause's `reason`. */
export const fieldErrorTypeText: Readonly<Record<FieldErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks a FieldError whose bad value must not be printed (`field.OmitValueType` in Go). */
export const omitValue: unique symbol = Symbol('omitValue');

/**
 * One validation failure at one field, mirroring Kubernetes `field.Error`.
 * `toString()` prints `<field>: <Type text>: <value>: <detail>` exactly like Go's `Error()`.
 */
export class FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;
  #body: string | undefined;
  /** The bad value's text, shared by the errors {@link invalidEach} makes of one value. */
  readonly #value: { text?: string } | undefined;

  constructor(
    type: FieldErrorType,
    field: FieldPath | string,
    badValue: unknown,
    detail = '',
    sharedValue?: { text?: string },
  ) {
    this.type = type;
    this.field = typeof field === 'string' ? field : field.toString();
    this.badValue = badValue;
    this.detail = detail;
    this.#value = sharedValue;
  }

  /**
   * `ErrorBody()` in Go: the message without the field path. Written once: a 422 prints each
   * error twice (its cause and the aggregated message), and the bad value may be megabytes.
   */
  body(): string {
    return (this.#body ??= this.#writeBody());
  }

  #writeBody(): string {
    const text = fieldErrorTypeText[this.type];
    let s: string;
    switch (this.type) {
      case 'FieldValueRequired':
      case 'FieldValueForbidden':
      case 'FieldValueTooLong':
      case 'InternalError':
        s = text;
        break;
      default:
        s = this.badValue === omitValue ? text : `${text}: ${this.#formattedValue()}`;
    }
    return this.detail ? `${s}: ${this.detail}` : s;
  }

  #formattedValue(): string {
    if (this.#value === undefined) return formatBadValue(this.badValue);
    return (this.#value.text ??= formatBadValue(this.badValue));
  }

  toString(): string {
    return `${this.field}: ${this.body()}`;
  }

  /** The bad value as plain JSON data (undefined when omitted). */
  jsonValue(): unknown {
    if (this.badValue instanceof GoLiteral) return this.badValue.value;
    return this.badValue === omitValue ? undefined : (this.badValue ?? null);
  }
}

/**
 * A bad value that prints as Go prints it with `%#v` (for example `[]string{"a"}`), for the
 * values Kubernetes passes as typed slices or structs.
 */
export class GoLiteral {
  readonly text: string;
  readonly value: unknown;
  constructor(text: string, value: unknown) {
    this.text = text;
    this.value = value;
  }

  /** A `[]string` as `%#v` prints it. */
  static strings(values: readonly string[]): GoLiteral {
    return new GoLiteral(`[]string{${values.map((v) => goQuote(v)).join(', ')}}`, values);
  }
}

/**
 * Formats a bad value the way Go's `field.Error.ErrorBody` does: strings with `%q`, numbers and
 * bools bare, everything else (including nil) as `json.Marshal` output, so nil prints `null`.
 */
export function formatBadValue(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      return goJSON(value);
  }
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** What Go sees after decoding JSON: lone surrogates become U+FFFD. */
const wellFormed = (s: string): string => s.replace(loneSurrogate, '\uFFFD');

/** Go's `json.Marshal` text for plain data: HTML-safe escapes, invalid UTF-16 as U+FFFD. */
export function goJSON(value: unknown): string {
  const s = JSON.stringify(value === undefined ? null : value, (_k, v: unknown) =>
    typeof v === 'string' ? wellFormed(v) : v,
  );
  return s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export { goQuote };

/** `field.Required` */
export const required = (p: FieldPath | string, detail = ''): FieldError =>
  new FieldError('FieldValueRequired', p, '', detail);
/** `field.Invalid` */
export const invalid = (p: FieldPath | string, value: unknown, detail = ''): FieldError =>
  new FieldError('FieldValueInvalid', p, value, detail);
/**
 * A `field.Invalid` for each message, at one path with one value, which is formatted once for all
 * of them (a 3 MB label value that is too long and not a label value is quoted once, not twice).
 */
export function invalidEach(p: FieldPath | string, value: unknown, messages: readonly string[]): FieldError[] {
  if (messages.length === 0) return [];
  if (messages.length === 1) return [invalid(p, value, messages[0])];
  const shared = {};
  return messages.map((m) => new FieldError('FieldValueInvalid', p, value, m, shared));
}

/**
 * Appends a `field.Invalid` at `at()` for each message ({@link invalidEach}); the path is built
 * only when there are some (most values are valid, and a path per checked field is garbage on
 * every request).
 */
export function pushInvalid(
  errs: FieldError[],
  messages: readonly string[],
  at: () => FieldPath | string,
  value: unknown,
): void {
  if (messages.length === 0) return;
  for (const e of invalidEach(at(), value, messages)) errs.push(e);
}
/** `field.Forbidden` */
export const forbidden = (p: FieldPath | string, detail = ''): FieldError =>
  new FieldError('FieldValueForbidden', p, '', detail);
/** `field.Duplicate` */
export const duplicate = (p: FieldPath | string, value: unknown): FieldError =>
  new FieldError('FieldValueDuplicate', p, value);
/** `field.NotFound` */
export const notFound = (p: FieldPath | string, value: unknown): FieldError =>
  new FieldError('FieldValueNotFound', p, value);
/** `field.TooLong`: Go prints `Too long: may not be more than N bytes` (or `must have at most N bytes`). */
export const tooLong = (p: FieldPath | string, value: unknown, max: number): FieldError =>
  new FieldError(
    'FieldValueTooLong',
    p,
    value,
    max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long',
  );
/** `field.TooMany` */
export const tooMany = (p: FieldPath | string, actual: number, max: number): FieldError =>
  new FieldError(
    'FieldValueTooMany',
    p,
    actual >= 0 ? actual : omitValue,
    max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items',
  );
/** `field.InternalError` */
export const internalError = (p: FieldPath | string, err: Error | string): FieldError =>
  new FieldError('InternalError', p, omitValue, typeof err === 'string' ? err : err.message);
/** `field.TypeInvalid` */
export const typeInvalid = (p: FieldPath | string, value: unknown, detail: string): FieldError =>
  new FieldError('FieldValueTypeInvalid', p, value, detail);

/**
 * `field.NotSupported`: `Unsupported value: "x": supported values: "a", "b"`.
 */
export const notSupported = (p: FieldPath | string, value: unknown, valid: readonly string[]): FieldError =>
  new FieldError(
    'FieldValueNotSupported',
    p,
    value,
    valid.length ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '',
  );

/**
 * The errors `ErrorList.ToAggregate()` keeps: the first of each message, in order (Go's
 * aggregate drops an error whose `Error()` text it has seen), as their positions in `errors` and
 * their messages.
 */
export function uniqueErrors(errors: readonly FieldError[]): { indices: number[]; messages: string[] } {
  const seen = new Set<string>();
  const indices: number[] = [];
  const messages: string[] = [];
  for (let i = 0; i < errors.length; i++) {
    const m = errors[i]!.toString();
    if (!seen.has(m)) {
      seen.add(m);
      indices.push(i);
      messages.push(m);
    }
  }
  return { indices, messages };
}

/**
 * `ErrorList.ToAggregate().Error()`: one message, or `[e1, e2]` for several, with identical
 * messages removed (Go's aggregate de-duplicates).
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const { messages } = uniqueErrors(errors);
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}
