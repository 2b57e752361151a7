import { FieldPath, forbidden, GoLiteral, goQuote, notSupported } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import { badRequest, invalid } from '../errors/api-error.js';

/** Raw query parameters as fastify hands them over. */
export type Query = Readonly<Record<string, string | string[] | undefined>>;

/** The last value of a query parameter (Kubernetes reads the first; repeated values are rare). */
export const q = (query: Query, name: string): string | undefined => {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * A boolean list option as Kubernetes' parameter codec reads it (`Convert_Slice_string_To_bool`):
 * absent, `false` or `0` (any case) is false; any other value, the empty string included, is true.
 */
export function queryBool(query: Query, name: string): boolean | undefined {
  const v = q(query, name);
  if (v === undefined) return undefined;
  const lower = v.toLowerCase();
  return lower !== 'false' && lower !== '0';
}

/** A boolean list option, read as Kubernetes' parameter codec reads it (see {@link queryBool}). */
export const boolParam = queryBool;

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * Parses an int64 query parameter as Kubernetes' parameter codec does (`strconv.ParseInt(v, 10,
 * 64)` on the first value): absent is undefined; anything else that is not a signed decimal
 * integer in int64's range, the empty value included, is a 400 in Go's words.
 */
export function intParam(query: Query, name: string): number | undefined {
  const v = int64Param(query, name);
  return v === undefined ? undefined : Number(v);
}

/** {@link intParam}'s int64, exactly. */
function int64Param(query: Query, name: string): bigint | undefined {
  const v = q(query, name);
  if (v === undefined) return undefined;
  let why: string | undefined;
  if (!/^[+-]?\d+$/.test(v)) why = 'invalid syntax';
  else if (v.length > 21 || BigInt(v) < int64Min || BigInt(v) > int64Max) why = 'value out of range';
  if (why !== undefined) throw badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: ${why}`);
  return BigInt(v);
}

/**
 * A `timeoutSeconds` option as the watch handler times it: `time.Duration(*opts.TimeoutSeconds) *
 * time.Second`, an int64 of nanoseconds that wraps past ±292 years as Go's multiplication does
 * (so 9223372037 seconds is a negative duration, which ends the watch at once), in seconds.
 */
function timeoutParam(query: Query): number | undefined {
  const v = int64Param(query, 'timeoutSeconds');
  return v === undefined ? undefined : Number(BigInt.asIntN(64, v * 1_000_000_000n)) / 1e9;
}

/**
 * The largest resourceVersion kevents reads: its stores count in safe JavaScript integers, so a
 * larger one (Go's uint64 goes further) can never be reached and is refused.
 */
export const maxResourceVersion = Number.MAX_SAFE_INTEGER;

/**
 * Checks a `resourceVersion` option as `APIObjectVersioner.ParseResourceVersion` does (a
 * decimal unsigned integer; empty and "0" mean any): 400 `invalid resource version:
 * resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`, as
 * the etcd3 store words it. Values past {@link maxResourceVersion} are out of range.
 */
export function checkResourceVersion(rv: string | undefined): void {
  if (rv === undefined || rv === '' || rv === '0') return;
  let why: string | undefined;
  if (!/^[0-9]+$/.test(rv)) why = 'invalid syntax';
  else if (rv.length > 20 || BigInt(rv) > BigInt(maxResourceVersion)) why = 'value out of range';
  if (why === undefined) return;
  const quoted = goQuote(rv);
  throw badRequest(
    `invalid resource version: resourceVersion: Invalid value: ${quoted}: strconv.ParseUint: parsing ${quoted}: ${why}`,
  );
}

/** The list/watch options of a request, validated like `ValidateListOptions`. */
export interface ListRequestOptions {
  readonly watch: boolean;
  readonly limit: number | undefined;
  readonly continue: string | undefined;
  readonly resourceVersion: string | undefined;
  readonly resourceVersionMatch: '' | 'NotOlderThan' | 'Exact';
  readonly labelSelector: string | undefined;
  readonly fieldSelector: string | undefined;
  readonly allowWatchBookmarks: boolean;
  /** As Go's `time.Duration` of it (see timeoutParam): wrapped past ±292 years. */
  readonly timeoutSeconds: number | undefined;
  readonly sendInitialEvents: boolean | undefined;
}

const rvmPath = FieldPath.root('resourceVersionMatch');

/**
 * Reads and validates list/watch query parameters; throws a 400/422 ApiError on bad input.
 * Whether the request is a watch is RequestInfo's answer (`watch`), never read again here.
 */
export function parseListOptions(query: Query, watch = false): ListRequestOptions {
  const match = q(query, 'resourceVersionMatch') ?? '';
  const rv = q(query, 'resourceVersion');
  const cont = q(query, 'continue') || undefined;
  const sendInitialEvents = boolParam(query, 'sendInitialEvents');
  const errs: FieldError[] = [];
  if (watch) {
    if (sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      errs.push(forbidden(rvmPath, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (match) {
      if (sendInitialEvents === undefined) {
        errs.push(
          forbidden(rvmPath, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
        );
      }
      if (match !== 'NotOlderThan') errs.push(notSupported(rvmPath, match, ['NotOlderThan']));
      if (cont) errs.push(forbidden(rvmPath, 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match) {
      if (!rv) errs.push(forbidden(rvmPath, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (cont) errs.push(forbidden(rvmPath, 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan')
        errs.push(notSupported(rvmPath, match, ['Exact', 'NotOlderThan', '']));
      if (match === 'Exact' && rv === '0') {
        errs.push(forbidden(rvmPath, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
    }
    if (sendInitialEvents !== undefined) {
      errs.push(forbidden(FieldPath.root('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
    }
  }
  if (errs.length) throw invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
  if (cont && rv && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
  checkResourceVersion(rv);
  const limit = intParam(query, 'limit');
  return {
    watch,
    limit: limit !== undefined && limit > 0 ? limit : undefined,
    continue: cont,
    resourceVersion: rv,
    resourceVersionMatch: match as ListRequestOptions['resourceVersionMatch'],
    labelSelector: q(query, 'labelSelector'),
    fieldSelector: q(query, 'fieldSelector'),
    allowWatchBookmarks: boolParam(query, 'allowWatchBookmarks') === true,
    timeoutSeconds: timeoutParam(query),
    sendInitialEvents,
  };
}

/** The `dryRun` values of a query, and the field error they make unless every one is `All`. */
export function dryRunValues(query: Query): { values: string[]; error: FieldError | undefined } {
  const raw = query['dryRun'];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const error = values.some((v) => v !== 'All')
    ? notSupported(FieldPath.root('dryRun'), GoLiteral.strings(values), ['All'])
    : undefined;
  return { values, error };
}

/** `dryRun`: only `All` is accepted (422 otherwise, as Kubernetes answers). */
export function parseDryRun(
  query: Query,
  optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions',
): boolean {
  const { values, error } = dryRunValues(query);
  if (error) throw invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', [error]);
  return values.length > 0;
}

/** `fieldValidation`: Ignore, Warn (the default) or Strict. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function parseFieldValidation(query: Query): FieldValidation {
  const v = q(query, 'fieldValidation');
  if (v === undefined || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw badRequest(`fieldValidation parameter unsupported: ${v}. Supported values: Ignore, Warn, Strict`);
}
