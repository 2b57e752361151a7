import { hash } from 'node:crypto';
import { isFrozenUser } from '@kevents/api';
import type { RequestAttributes, SelectorRequirement, UserInfo } from '@kevents/api';
import { AuthorizationError } from '../errors.js';
import type { WebhookResponse } from './transport.js';

/** The SubjectAccessReview versions a webhook may speak. */
export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

interface SelectorAttributes {
  requirements: SelectorRequirement[];
}

/** `authorization.k8s.io/v1` `SubjectAccessReviewSpec`, fields in Go's order, empty ones left out. */
export interface SubjectAccessReviewSpec {
  resourceAttributes?: {
    namespace?: string;
    verb?: string;
    group?: string;
    version?: string;
    resource?: string;
    subresource?: string;
    name?: string;
    fieldSelector?: SelectorAttributes;
    labelSelector?: SelectorAttributes;
  };
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

const sarVersions = ['authorization.k8s.io/v1', 'authorization.k8s.io/v1beta1'];

/** What is read back from an answer (`SubjectAccessReviewStatus`). */
export interface SubjectAccessReviewStatus {
  readonly allowed: boolean;
  readonly denied?: boolean;
  readonly reason?: string;
  readonly evaluationError?: string;
}

const put = <T extends object>(o: T, k: keyof T, v: string): void => {
  if (v) (o as Record<keyof T, unknown>)[k] = v;
};

/** The v1 spec of a request (webhook.go `resourceAttributesFrom` and friends). */
export function subjectAccessReviewSpec(a: RequestAttributes): SubjectAccessReviewSpec {
  const spec: SubjectAccessReviewSpec = {};
  if (a.isResourceRequest) {
    const r: NonNullable<SubjectAccessReviewSpec['resourceAttributes']> = {};
    put(r, 'namespace', a.namespace);
    put(r, 'verb', a.verb);
    put(r, 'group', a.apiGroup);
    put(r, 'version', a.apiVersion);
    put(r, 'resource', a.resource);
    put(r, 'subresource', a.subresource);
    put(r, 'name', a.name);
    if (a.fieldSelector?.length) r.fieldSelector = { requirements: a.fieldSelector.map(copyRequirement) };
    if (a.labelSelector?.length) r.labelSelector = { requirements: a.labelSelector.map(copyRequirement) };
    spec.resourceAttributes = r;
  } else {
    const n: NonNullable<SubjectAccessReviewSpec['nonResourceAttributes']> = {};
    put(n, 'path', a.path);
    put(n, 'verb', a.verb);
    spec.nonResourceAttributes = n;
  }
  put(spec, 'user', a.user.username);
  if (a.user.groups.length) spec.groups = [...a.user.groups];
  const extra = a.user.extra;
  if (extra && Object.keys(extra).length) {
    const sorted: Record<string, string[]> = {};
    for (const k of Object.keys(extra).sort()) sorted[k] = [...extra[k]!];
    spec.extra = sorted;
  }
  put(spec, 'uid', a.user.uid ?? '');
  return spec;
}

/** A string in a key: its length, then itself (no separator a value could hold is needed). */
const part = (s: string): string => `${s.length}:${s}`;

const selectorKey = (l: readonly SelectorRequirement[] | undefined): string => {
  if (!l?.length) return '0;';
  let k = `${l.length};`;
  for (const r of l) {
    k += part(r.key) + part(r.operator) + `${r.values?.length ?? 0};`;
    for (const v of r.values ?? []) k += part(v);
  }
  return k;
};

/** The user's part of a {@link subjectAccessReviewKey}. */
function userKey(u: UserInfo): string {
  let k = part(u.username) + part(u.uid ?? '') + `${u.groups.length};`;
  for (const g of u.groups) k += part(g);
  const extra = u.extra;
  const keys = extra ? Object.keys(extra) : [];
  k += `${keys.length};`;
  if (keys.length > 1) keys.sort();
  for (const e of keys) {
    const values = extra![e]!;
    k += part(e) + `${values.length};`;
    for (const v of values) k += part(v);
  }
  return k;
}

/** Per user object: its part of the key, and the last request without selectors keyed for it. */
interface UserKeys {
  readonly user: string;
  last: RequestAttributes | undefined;
  lastKey: string;
}

/**
 * Keys already made, per deeply frozen user object ({@link isFrozenUser}: a cached token's user, a
 * front-proxy connection's user), which serves many requests and can never change: its part of
 * the key is made once, and a request with the same attributes as the user's previous one gets the
 * same key string, whose hash the cache's map then already has. Other users are keyed afresh.
 */
const keysByUser = new WeakMap<UserInfo, UserKeys>();

/** Whether two requests have the same attributes (selectors aside: neither has any). */
const sameAttributes = (a: RequestAttributes, b: RequestAttributes): boolean =>
  a.isResourceRequest
    ? b.isResourceRequest &&
      a.namespace === b.namespace &&
      a.verb === b.verb &&
      a.apiGroup === b.apiGroup &&
      a.apiVersion === b.apiVersion &&
      a.resource === b.resource &&
      a.subresource === b.subresource &&
      a.name === b.name
    : !b.isResourceRequest && a.path === b.path && a.verb === b.verb;

/** The request's part of a {@link subjectAccessReviewKey}. */
const requestKey = (a: RequestAttributes): string =>
  a.isResourceRequest
    ? 'r' +
      part(a.namespace) +
      part(a.verb) +
      part(a.apiGroup) +
      part(a.apiVersion) +
      part(a.resource) +
      part(a.subresource) +
      part(a.name) +
      selectorKey(a.fieldSelector) +
      selectorKey(a.labelSelector)
    : 'n' + part(a.path) + part(a.verb);

/** Keys longer than this are kept as their SHA-256 (see {@link subjectAccessReviewKey}). */
export const maxPlainKeyLength = 1024;

/**
 * A key of at most {@link maxPlainKeyLength} characters as it is; a longer one as `#` and its
 * SHA-256 (no plain key starts with `#`). A key is built by concatenation, and V8 keeps such a
 * string as a tree of its pieces: a 62 KB label or field selector made a key that held ~150 KB,
 * and the 8,192 entries of the cache could hold over a gigabyte.
 */
const compact = (k: string): string => (k.length > maxPlainKeyLength ? `#${hash('sha256', k, 'base64')}` : k);

/**
 * The cache key of a request's SubjectAccessReview: equal for two requests exactly when their
 * {@link subjectAccessReviewSpec} are equal (webhook.go keys its cache by the spec's JSON), built
 * without making the spec (a cache hit never needs it). Keys are at most 1,024 characters: a
 * longer one is replaced by its SHA-256, so the cache's memory is bounded whatever the requests'
 * selectors and users hold (webhook.go keeps the spec's JSON whole, up to the request's size).
 */
export function subjectAccessReviewKey(a: RequestAttributes): string {
  const u = a.user;
  // Only a user that can never change is keyed by its identity; any other is read afresh.
  if (!isFrozenUser(u)) return compact(requestKey(a) + userKey(u));
  let keys = keysByUser.get(u);
  if (!keys) keysByUser.set(u, (keys = { user: userKey(u), last: undefined, lastKey: '' }));
  const plain = !a.fieldSelector?.length && !a.labelSelector?.length;
  if (plain && keys.last && sameAttributes(a, keys.last)) return keys.lastKey;
  const k = compact(requestKey(a) + keys.user);
  if (plain) {
    // Only the attributes are kept (not the request's signal or user): a copy of the strings.
    keys.last = {
      user: u,
      isResourceRequest: a.isResourceRequest,
      namespace: a.namespace,
      verb: a.verb,
      apiGroup: a.apiGroup,
      apiVersion: a.apiVersion,
      resource: a.resource,
      subresource: a.subresource,
      name: a.name,
      path: a.path,
    };
    keys.lastKey = k;
  }
  return k;
}

const copyRequirement = (r: SelectorRequirement): SelectorRequirement => ({
  key: r.key,
  operator: r.operator,
  ...(r.values?.length ? { values: [...r.values] } : {}),
});

/**
 * The request body: a SubjectAccessReview in the webhook's version. v1beta1 differs only in
 * `apiVersion` and in carrying the groups as `spec.group`.
 */
export function encodeSubjectAccessReview(spec: SubjectAccessReviewSpec, version: SubjectAccessReviewVersion): string {
  let wire: object = spec;
  if (version === 'v1beta1' && spec.groups) {
    const { groups, ...rest } = spec;
    wire = { ...rest, group: groups };
    // Keep Go's field order: resourceAttributes, nonResourceAttributes, user, group, extra, uid.
    const ordered: Record<string, unknown> = {};
    for (const k of ['resourceAttributes', 'nonResourceAttributes', 'user', 'group', 'extra', 'uid'])
      if ((wire as Record<string, unknown>)[k] !== undefined) ordered[k] = (wire as Record<string, unknown>)[k];
    wire = ordered;
  }
  return JSON.stringify({
    kind: 'SubjectAccessReview',
    apiVersion: `authorization.k8s.io/${version}`,
    metadata: {},
    spec: wire,
    status: { allowed: false },
  });
}

/** The anti-DoS rule of webhook.go: requests whose attribute strings add up to 10000 bytes or more are not cached. */
export function cacheable(a: RequestAttributes): boolean {
  const n =
    a.namespace.length +
    a.verb.length +
    a.apiGroup.length +
    a.apiVersion.length +
    a.resource.length +
    a.subresource.length +
    a.name.length +
    a.path.length;
  return n < 10000;
}

/** client-go's message for an HTTP error without a Status body (`NewGenericServerResponse`). */
function httpErrorMessage(status: number, body: string): { message: string; reason: string } {
  switch (status) {
    case 401:
      return { reason: 'Unauthorized', message: 'Unauthorized' };
    case 403:
      return { reason: 'Forbidden', message: 'Forbidden' };
    case 404:
      return { reason: 'NotFound', message: 'the server could not find the requested resource' };
    case 429:
      return {
        reason: 'TooManyRequests',
        message: 'the server has received too many requests and has asked us to try again later',
      };
    case 500:
      return {
        reason: 'InternalError',
        message: `an error on the server (${JSON.stringify(body.trim() || 'unknown')}) has prevented the request from succeeding`,
      };
    case 503:
      return { reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' };
    case 504:
      return {
        reason: 'Timeout',
        message:
          'the server was unable to return a response in the time allotted, but may still be processing the request',
      };
    default:
      return {
        reason: 'Unknown',
        message: `an error on the server (${JSON.stringify(body.trim() || 'unknown')}) has prevented the request from succeeding`,
      };
  }
}

/**
 * Reads an answer: a 2xx with a SubjectAccessReview of the expected version gives its status;
 * an HTTP error becomes an AuthorizationError, retriable when Kubernetes' `DefaultShouldRetry`
 * retries it (500, 504, 429, a `Retry-After`).
 * @throws AuthorizationError `WebhookCallFailed`, `WebhookTimeout` or `WebhookMalformedResponse`.
 */
export function decodeSubjectAccessReview(
  res: WebhookResponse,
  version: SubjectAccessReviewVersion,
): SubjectAccessReviewStatus {
  if (res.status < 200 || res.status > 299) {
    let { message, reason } = httpErrorMessage(res.status, res.body);
    try {
      const s = JSON.parse(res.body) as { kind?: unknown; reason?: unknown; message?: unknown };
      if (s && s.kind === 'Status') {
        if (typeof s.reason === 'string' && s.reason) reason = s.reason;
        if (typeof s.message === 'string' && s.message) message = s.message;
      }
    } catch {
      // not a Status: keep client-go's generic text
    }
    const retryAfter = res.headers['retry-after'] !== undefined;
    const timeout = reason === 'Timeout' || reason === 'ServerTimeout';
    const retriable = retryAfter || timeout || reason === 'InternalError' || reason === 'TooManyRequests';
    throw new AuthorizationError(timeout ? 'WebhookTimeout' : 'WebhookCallFailed', message, { retriable });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch (e) {
    throw new AuthorizationError(
      'WebhookMalformedResponse',
      `couldn't decode the webhook's answer: ${(e as Error).message}`,
      { cause: e },
    );
  }
  const d = doc as { kind?: unknown; apiVersion?: unknown; status?: unknown } | null;
  void version; // client-go decodes either version and converts; both shapes of status are the same
  if (!d || typeof d !== 'object' || Array.isArray(d))
    throw new AuthorizationError('WebhookMalformedResponse', "couldn't decode the webhook's answer: not an object");
  if (d.kind !== 'SubjectAccessReview' || !sarVersions.includes(d.apiVersion as string))
    throw new AuthorizationError(
      'WebhookMalformedResponse',
      `the webhook answered apiVersion ${JSON.stringify(d.apiVersion)}, kind ${JSON.stringify(d.kind)}; expected a SubjectAccessReview of authorization.k8s.io/v1 or v1beta1`,
    );
  const s = (d.status ?? {}) as Record<string, unknown>;
  if (typeof s !== 'object' || Array.isArray(s))
    throw new AuthorizationError(
      'WebhookMalformedResponse',
      "couldn't decode the webhook's answer: status is not an object",
    );
  for (const [k, t] of [
    ['allowed', 'boolean'],
    ['denied', 'boolean'],
    ['reason', 'string'],
    ['evaluationError', 'string'],
  ] as const) {
    if (s[k] !== undefined && s[k] !== null && typeof s[k] !== t)
      throw new AuthorizationError(
        'WebhookMalformedResponse',
        `couldn't decode the webhook's answer: status.${k} is a ${typeof s[k]}, not a ${t}`,
      );
  }
  return {
    allowed: s['allowed'] === true,
    ...(s['denied'] === true ? { denied: true } : {}),
    ...(typeof s['reason'] === 'string' && s['reason'] ? { reason: s['reason'] } : {}),
    ...(typeof s['evaluationError'] === 'string' && s['evaluationError']
      ? { evaluationError: s['evaluationError'] }
      : {}),
  };
}
