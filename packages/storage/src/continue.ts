import { parseJson } from '@kevents/api';
import { invalidContinueError } from './errors.js';
import type { KeyPrefix } from './interface.js';

/** The only continue token version Kubernetes (and kevents) writes and reads. */
export const continueTokenVersion = 'meta.k8s.io/v1';

/** A decoded continue token: where the next page starts and the list's resourceVersion. */
export interface ContinueToken {
  /**
   * The first key of the next page, relative to the list's key prefix ({@link listKeyPrefix}):
   * `<name>\u0000` in a namespace's list, `<namespace>/<name>\u0000` in a cluster-wide one.
   */
  readonly start: string;
  /** The list's resourceVersion; -1 means "continue from the latest state". */
  readonly resourceVersion: number;
}

const invalid = 'continue key is not valid';

/**
 * The key right after an object's key: the start of the page that follows it. Keys are
 * `<namespace>/<name>` (just `<name>` for a cluster-scoped object).
 */
export const keyAfter = (key: string): string => `${key}\u0000`;

/**
 * A list's key prefix within its resource's keys, as kube's storage builds it for a list
 * (`<resource prefix>/<namespace>/`): `<namespace>/` for a namespace's list, nothing for a
 * cluster-wide list or a cluster-scoped resource. A continue token's start is relative to it, so
 * a token is read in the list it is sent with: one from namespace `a` sent to a list of namespace
 * `b` continues in `b` after the same name, a cluster-wide one (`a/x\u0000`) sent to a list of
 * `b` continues in `b` after the name `a/x`, and a namespace's one (`x\u0000`) sent to a
 * cluster-wide list continues after the key `x`.
 */
export const listKeyPrefix = (prefix: KeyPrefix): string =>
  prefix.namespace === undefined || prefix.namespace === '' ? '' : `${prefix.namespace}/`;

/**
 * `EncodeContinue(key, keyPrefix, rv)`: the token of a page of the list at `prefix` that starts at
 * `key` (a key of the resource within the list's prefix).
 */
export const encodeListContinue = (prefix: KeyPrefix, key: string, resourceVersion: number): string =>
  encodeContinue(key.slice(listKeyPrefix(prefix).length), resourceVersion);

/**
 * `DecodeContinue(token, keyPrefix)`: a token read in the list at `prefix`, its start made a key
 * of the resource (the list's prefix put in front).
 */
export function decodeListContinue(prefix: KeyPrefix, token: string): ContinueToken {
  const t = decodeContinue(token);
  return { start: listKeyPrefix(prefix) + t.start, resourceVersion: t.resourceVersion };
}

/**
 * Encodes a continue token as Kubernetes does (storage/continue.go): base64url without padding of
 * `{"v":"meta.k8s.io/v1","rv":<rv>,"start":"<start>"}`.
 */
export function encodeContinue(start: string, resourceVersion: number): string {
  const json = JSON.stringify({ v: continueTokenVersion, rv: resourceVersion, start });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/**
 * Decodes a continue token (its start relative to the list's prefix). Throws a StorageError `InvalidContinue` with the Kubernetes text
 * (`continue key is not valid: ...`) for bad base64, bad JSON, an unknown version, rv 0, an
 * empty start key, or a start key that path cleaning would change (path traversal).
 */
export function decodeContinue(token: string): ContinueToken {
  if (!/^[A-Za-z0-9_-]*$/.test(token) || token.length % 4 === 1) {
    throw invalidContinueError(`${invalid}: illegal base64 data`);
  }
  let parsed: unknown;
  try {
    parsed = parseJson(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw invalidContinueError(`${invalid}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidContinueError(
      `${invalid}: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into a continue token`,
    );
  }
  const { v, rv, start } = parsed as Record<string, unknown>;
  if (rv !== undefined && (typeof rv !== 'number' || !Number.isSafeInteger(rv))) {
    throw invalidContinueError(`${invalid}: cannot unmarshal ${JSON.stringify(rv)} into field rv of type int64`);
  }
  if (start !== undefined && typeof start !== 'string') {
    throw invalidContinueError(`${invalid}: cannot unmarshal ${JSON.stringify(start)} into field start of type string`);
  }
  if (v !== continueTokenVersion) {
    throw invalidContinueError(
      `${invalid}: server does not recognize this encoded version ${typeof v === 'string' ? v : ''}`,
    );
  }
  if (rv === undefined || rv === 0) {
    throw invalidContinueError(`${invalid}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`);
  }
  if (start === undefined || start === '') {
    throw invalidContinueError(`${invalid}: encoded start key empty (version meta.k8s.io/v1)`);
  }
  const rooted = start.startsWith('/') ? start : `/${start}`;
  if (!isCleanPath(rooted)) throw invalidContinueError(`${invalid}: ${start}`);
  return { start: rooted.slice(1), resourceVersion: rv };
}

/** Whether Go's `path.Clean` leaves a rooted path unchanged: no empty, `.` or `..` segments, no trailing slash. */
function isCleanPath(rooted: string): boolean {
  if (rooted === '/') return true;
  for (const segment of rooted.slice(1).split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return false;
  }
  return true;
}
