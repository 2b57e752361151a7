/**
 * RFC 6902 JSON patch, applied as kube-apiserver applies it: with evanphx/json-patch v4
 * (gopkg.in/evanphx/json-patch.v4, `Patch.Apply`), whose behaviour and error texts this follows,
 * under kube-apiserver's bounds (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go,
 * `applyJSPatch`):
 *
 * - the body must decode as a list of objects (`jsonpatch.DecodePatch`), else a 400 with Go's
 *   unmarshal error; `null` is an empty patch;
 * - more than {@link maxJSONPatchOperations} operations is a 413 `RequestEntityTooLarge`;
 * - every failure while applying is a 422 `Invalid`;
 * - `copy` operations may add at most {@link jsonPatchMaxCopyBytes} in all, each copied value
 *   counted as the length of its compact JSON (`AccumulatedCopySizeLimit`).
 *
 * Beyond v4: a `move` whose `from` is a proper prefix of its `path` (a location moved into one of
 * its own children) fails as RFC 6902 §4.4 requires. v4 already fails it whenever the parent is an
 * object (the value is detached first, so its child cannot be found: "doc is missing destination
 * path"), with the same text; kevents also fails it where the parent is an array.
 *
 * Safety, by construction: the document is kevents' own copy; a value is placed in it once (an
 * operation's value by its one operation, a copy as a new deep copy, a moved value after it is
 * detached), so it stays a tree; every step is charged to the request's {@link WorkBudget}; the
 * document can grow only by what the body holds and by the bounded copies. Members are read and
 * written as own data only, so `__proto__`, `constructor` and `prototype` are ordinary keys.
 */
import { scanJsonShape } from '../json-shape.js';
import { goQuote } from '@kevents/validation';
import { ApiError, badRequest, unprocessable } from '../../errors/api-error.js';
import { cloneTree, equalTrees } from './json-tree.js';
import { jsonSize } from './json-size.js';
import { jsonPatchMaxCopyBytes, maxJSONPatchOperations } from './limits.js';
import { getOwn, setOwn } from '@kevents/api';
import type { WorkBudget } from './work-budget.js';
import { strictJSONPatchErrors } from './json-patch-strict.js';
import type { FieldValidation } from '../../request/query.js';

/** One decoded operation: an object (`null` where the list holds `null`). */
export type JSONPatchOperation = Record<string, unknown> | null;

type Container = Record<string, unknown> | unknown[];

/** A failure while applying, with evanphx/json-patch's error text. */
class PatchFailure extends Error {}

const fail = (message: string): never => {
  throw new PatchFailure(message);
};

const isContainer = (v: unknown): v is Container => v !== null && typeof v === 'object';

/** The JSON type Go names in an unmarshal error. */
const goJSONType = (v: unknown): string =>
  Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;

/** kube-apiserver's 413 for a JSON patch with too many operations. */
export const tooManyOperations = (got: number): ApiError =>
  new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${got}`,
  );

/**
 * {@link decodeJSONPatch}'s answer for a large JSON patch text, read without parsing it
 * ({@link scanJsonShape}): a root that is not an array (nor `null`), an operation that is not an
 * object (nor `null`), or more than `maxJSONPatchOperations` operations. Parsing 3 MiB of small
 * values (a million empty operations, or an array of numbers) held the event loop 0.1-1 s before
 * these answers. Under `fieldValidation=Strict` or `Warn`, kube's strict decode answers first
 * ({@link strictJSONPatchErrors}, a pass over the text; its strict errors are returned), then the
 * operations are counted. A text that is not JSON, or whose operations pass, is left to the parse.
 */
export function refuseJSONPatchText(text: string, fieldValidation: FieldValidation = 'Ignore'): string[] | undefined {
  const shape = scanJsonShape(text);
  if (shape === undefined) return undefined;
  if (fieldValidation !== 'Ignore') {
    // Operations that spell no member (`{}`, `null`) leave the strict decode nothing to say.
    const memberless = shape.root === 'array' && shape.firstNonObject === undefined && shape.values === shape.elements;
    const strictErrors = memberless ? [] : strictJSONPatchErrors(text);
    if (shape.root === 'array' && shape.elements > maxJSONPatchOperations) throw tooManyOperations(shape.elements);
    return strictErrors;
  }
  if (shape.root === 'null') return undefined;
  if (shape.root !== 'array')
    throw badRequest(`json: cannot unmarshal ${shape.root} into Go value of type jsonpatch.Patch`);
  if (shape.firstNonObject !== undefined) {
    throw badRequest(`json: cannot unmarshal ${shape.firstNonObject} into Go value of type jsonpatch.Operation`);
  }
  if (shape.elements > maxJSONPatchOperations) throw tooManyOperations(shape.elements);
  return undefined;
}

/**
 * `jsonpatch.DecodePatch` of a parsed body, then kube-apiserver's count check: a list of
 * operations (400 otherwise), at most {@link maxJSONPatchOperations} of them (413 otherwise).
 */
export function decodeJSONPatch(patch: unknown): JSONPatchOperation[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) {
    throw badRequest(`json: cannot unmarshal ${goJSONType(patch)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of patch as unknown[]) {
    if (op !== null && (typeof op !== 'object' || Array.isArray(op))) {
      throw badRequest(`json: cannot unmarshal ${goJSONType(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  if (patch.length > maxJSONPatchOperations) throw tooManyOperations(patch.length);
  return patch as JSONPatchOperation[];
}

// --- Operation fields -------------------------------------------------------------------------

const field = (op: JSONPatchOperation, name: string): unknown => (op === null ? undefined : getOwn(op, name));

/** `Operation.Kind`: the `op` string, or "unknown". */
const kindOf = (op: JSONPatchOperation): string => {
  const v = field(op, 'op');
  return typeof v === 'string' ? v : 'unknown';
};

/** `Operation.Path` / `Operation.From`: the string, or the error text v4 gives. */
function pointerField(op: JSONPatchOperation, name: 'path' | 'from'): string | { error: string } {
  const v = field(op, name);
  if (v === undefined || v === null) {
    return {
      error:
        name === 'path'
          ? 'operation missing path field: missing value'
          : 'operation, missing from field: missing value',
    };
  }
  if (typeof v !== 'string') return { error: `json: cannot unmarshal ${goJSONType(v)} into Go value of type string` };
  return v;
}

/** `Operation.value`: the value, `null` for a JSON null, `undefined` when there is none. */
const valueOf = (op: JSONPatchOperation): unknown => field(op, 'value');

// --- Pointers and containers ------------------------------------------------------------------

/** RFC 6901 unescaping, in one left-to-right pass as Go's strings.Replacer does it. */
const decodeToken = (t: string): string => (t.includes('~') ? t.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~')) : t);

const minInt64 = -(2n ** 63n);
const maxInt64 = 2n ** 63n - 1n;

/** `strconv.Atoi` (base 10, optional sign), with its error text. */
function atoi(key: string): bigint | { error: string } {
  if (!/^[+-]?[0-9]+$/.test(key)) return { error: `strconv.Atoi: parsing ${goQuote(key)}: invalid syntax` };
  const n = BigInt(key);
  if (n < minInt64 || n > maxInt64) return { error: `strconv.Atoi: parsing ${goQuote(key)}: value out of range` };
  return n;
}

const invalidIndex = (idx: bigint): string => `Unable to access invalid index: ${idx}: invalid index referenced`;

/** `container.get`: the member (undefined for none or null), or an error text (arrays only). */
function get(con: Container, key: string): { value: unknown } | { error: string } {
  if (!Array.isArray(con)) return { value: getOwn(con, key) };
  const parsed = atoi(key);
  if (typeof parsed !== 'bigint') return parsed;
  let idx = parsed;
  const len = BigInt(con.length);
  if (idx < 0n) {
    if (idx < -len) return { error: invalidIndex(idx) };
    idx += len;
  }
  if (idx >= len) return { error: invalidIndex(idx) };
  return { value: con[Number(idx)] };
}

/** `container.set` (replace): the key is known to exist. */
function set(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return;
  }
  let idx = atoi(key) as bigint;
  if (idx < 0n) idx += BigInt(con.length);
  con[Number(idx)] = value;
}

/** `container.add`: an object member set, or an array element inserted (`-` appends). */
function add(con: Container, key: string, value: unknown, budget: WorkBudget): string | undefined {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return undefined;
  }
  if (key === '-') {
    con.push(value);
    return undefined;
  }
  const parsed = atoi(key);
  if (typeof parsed !== 'bigint') return `value was not a proper array index: '${key}': ${parsed.error}`;
  let idx = parsed;
  const size = BigInt(con.length + 1);
  if (idx >= size) return invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -size) return invalidIndex(idx);
    idx += size;
  }
  const at = Number(idx);
  budget.chargeShift(con.length - at + 1);
  con.splice(at, 0, value);
  return undefined;
}

/** `container.remove`, with v4's error texts. */
function remove(con: Container, key: string, budget: WorkBudget): string | undefined {
  if (!Array.isArray(con)) {
    if (!Object.hasOwn(con, key)) return `Unable to remove nonexistent key: ${key}: missing value`;
    delete con[key];
    return undefined;
  }
  const parsed = atoi(key);
  if (typeof parsed !== 'bigint') return parsed.error;
  let idx = parsed;
  const len = BigInt(con.length);
  if (idx >= len) return invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -len) return invalidIndex(idx);
    idx += len;
  }
  const at = Number(idx);
  budget.chargeShift(con.length - at);
  con.splice(at, 1);
  return undefined;
}

/**
 * v4's `findObject`: the container a pointer's last token is in, and that token; undefined when
 * the pointer has no `/`, or a token before the last does not name an object or array.
 */
function findObject(doc: Container, path: string, budget: WorkBudget): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  budget.charge(split.length);
  let con = doc;
  for (let i = 1; i < split.length - 1; i++) {
    const next = get(con, decodeToken(split[i]!));
    if (!('value' in next) || !isContainer(next.value)) return undefined;
    con = next.value;
  }
  return { con, key: decodeToken(split[split.length - 1]!) };
}

/** Whether `from`'s tokens are a proper prefix of `path`'s: a move into one's own child. */
// --- Application ------------------------------------------------------------------------------

/** The state of one application: the document (its root may be replaced) and the copy total. */
interface Applying {
  doc: Container;
  copied: number;
  readonly budget: WorkBudget;
}

function applyAdd(s: Applying, op: JSONPatchOperation): void {
  const path = pointerField(op, 'path');
  if (typeof path !== 'string') return fail('add operation failed to decode path: missing value');
  const at = findObject(s.doc, path, s.budget);
  if (!at) return fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
  const err = add(at.con, at.key, valueOf(op) ?? null, s.budget);
  if (err !== undefined) fail(`error in add for path: '${path}': ${err}`);
}

function applyRemove(s: Applying, op: JSONPatchOperation): void {
  const path = pointerField(op, 'path');
  if (typeof path !== 'string') return fail('remove operation failed to decode path: missing value');
  const at = findObject(s.doc, path, s.budget);
  if (!at) return fail(`remove operation does not apply: doc is missing path: "${path}": missing value`);
  const err = remove(at.con, at.key, s.budget);
  if (err !== undefined) fail(`error in remove for path: '${path}': ${err}`);
}

function applyReplace(s: Applying, op: JSONPatchOperation): void {
  const path = pointerField(op, 'path');
  if (typeof path !== 'string') return fail(`replace operation failed to decode path: ${path.error}`);
  const value = valueOf(op);
  if (path === '') {
    // json-patch v4 wraps a nil error here (pkg/errors' Wrapf of nil is nil): replacing the
    // document with a value that is not an object or array succeeds and changes nothing.
    if (isContainer(value)) s.doc = value;
    return;
  }
  const at = findObject(s.doc, path, s.budget);
  if (!at) return fail(`replace operation does not apply: doc is missing path: ${path}: missing value`);
  if (!('value' in get(at.con, at.key))) {
    return fail(`replace operation does not apply: doc is missing key: ${path}: missing value`);
  }
  set(at.con, at.key, value ?? null);
}

function applyMove(s: Applying, op: JSONPatchOperation): void {
  const from = pointerField(op, 'from');
  if (typeof from !== 'string') return fail(`move operation failed to decode from: ${from.error}`);
  const src = findObject(s.doc, from, s.budget);
  if (!src) return fail(`move operation does not apply: doc is missing from path: ${from}: missing value`);
  const got = get(src.con, src.key);
  if (!('value' in got)) return fail(`error in move for path: '${src.key}': ${got.error}`);
  const removed = remove(src.con, src.key, s.budget);
  if (removed !== undefined) return fail(`error in move for path: '${src.key}': ${removed}`);
  const path = pointerField(op, 'path');
  if (typeof path !== 'string') return fail(`move operation failed to decode path: ${path.error}`);
  // As v4: the destination is found after the removal, in the document without the value, so a
  // path below `from` names what took its place (an array's next element) or nothing.
  const dst = findObject(s.doc, path, s.budget);
  if (!dst) return fail(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
  const err = add(dst.con, dst.key, got.value ?? null, s.budget);
  if (err !== undefined) fail(`error in move for path: '${path}': ${err}`);
}

function applyTest(s: Applying, op: JSONPatchOperation): void {
  const path = pointerField(op, 'path');
  if (typeof path !== 'string') return fail(`test operation failed to decode path: ${path.error}`);
  const expected = valueOf(op);
  if (path === '') {
    if (expected === undefined || !equalTrees(s.doc, expected, s.budget))
      fail(`testing value ${path} failed: test failed`);
    return;
  }
  const at = findObject(s.doc, path, s.budget);
  if (!at) return fail(`test operation does not apply: is missing path: ${path}: missing value`);
  const got = get(at.con, at.key);
  if (!('value' in got)) return fail(`error in test for path: '${path}': ${got.error}`);
  const actual = got.value ?? null;
  const ok =
    actual === null
      ? expected === undefined || expected === null
      : expected !== undefined && equalTrees(actual, expected, s.budget);
  if (!ok) fail(`testing value ${path} failed: test failed`);
}

function applyCopy(s: Applying, op: JSONPatchOperation): void {
  const from = pointerField(op, 'from');
  if (typeof from !== 'string') return fail(`copy operation failed to decode from: ${from.error}`);
  const src = findObject(s.doc, from, s.budget);
  if (!src) return fail(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
  const got = get(src.con, src.key);
  if (!('value' in got)) return fail(`error in copy for from: '${from}': ${got.error}`);
  const path = pointerField(op, 'path');
  if (typeof path !== 'string') return fail('copy operation failed to decode path: missing value');
  const dst = findObject(s.doc, path, s.budget);
  if (!dst) return fail(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
  const value = got.value ?? null;
  // v4 counts the bytes of the copy's JSON (none for a null, which it does not copy).
  if (value !== null) {
    // The whole size, for v4's message: the value is part of the document, which is bounded.
    s.copied += jsonSize(value, true, Infinity, s.budget);
    if (s.copied > jsonPatchMaxCopyBytes) {
      return fail(
        `Unable to complete the copy, the accumulated size increase of copy is ${s.copied}, exceeding the limit ${jsonPatchMaxCopyBytes}`,
      );
    }
  }
  const err = add(dst.con, dst.key, cloneTree(value, s.budget), s.budget);
  if (err !== undefined) fail(`error while adding value during copy: ${err}`);
}

const appliers: Readonly<Record<string, (s: Applying, op: JSONPatchOperation) => void>> = {
  add: applyAdd,
  remove: applyRemove,
  replace: applyReplace,
  move: applyMove,
  test: applyTest,
  copy: applyCopy,
};

/**
 * Applies decoded operations to `doc`, which the caller owns (it is changed in place; use
 * {@link cloneTree} on anything shared). Returns the patched document (its root is new after a
 * `replace` of ""). A failing operation is a 422 with v4's error text after kube-apiserver's
 * prefix; the budget's 422 passes through.
 */
export function applyJSONPatch(doc: Container, ops: readonly JSONPatchOperation[], budget: WorkBudget): Container {
  const s: Applying = { doc, copied: 0, budget };
  try {
    for (const op of ops) {
      budget.charge(1);
      const kind = kindOf(op);
      const apply = Object.hasOwn(appliers, kind) ? appliers[kind]! : fail(`Unexpected kind: ${kind}`);
      apply(s, op);
    }
  } catch (err) {
    if (err instanceof PatchFailure) {
      throw unprocessable(`the server rejected our request due to an error in our request: ${err.message}`);
    }
    throw err;
  }
  return s.doc;
}
