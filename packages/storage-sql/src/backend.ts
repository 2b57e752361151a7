import type { KubeObject } from '@kevents/api';
import type { LoggedChange } from '@kevents/storage';
import { indexedFields } from './schema.js';

/**
 * One write of a batch. `key` is the object's storage key (`<namespace>/<name>`, or `<name>`
 * when cluster-scoped), the list order. `expect`: the resourceVersion the stored object must have
 * (`''`: any; for a guaranteed update `'0'` means "absent").
 */
export interface WriteOp {
  readonly op: 'c' | 'u' | 'd' | 'g';
  readonly resource: string;
  readonly namespace: string;
  readonly key: string;
  /** The object's JSON without resourceVersion (empty for a delete). */
  readonly body: string;
  readonly uid: string;
  readonly preUid: string | undefined;
  readonly preRv: string | undefined;
  readonly expect: string;
  /**
   * The values of {@link indexedFields} in the object (null: absent or not a string); empty for
   * a delete. PostgreSQL stores them; SQLite reads them from the body (virtual columns).
   */
  readonly fields: readonly (string | null)[];
}

/**
 * The answer to one write: `ok` (written at `rv`; for a delete `detail` is the last body, for an
 * update the body it replaced), `noop`
 * (identical object, its `rv`), or a refusal: `exists`, `notfound`, `uid` (`detail`: the stored
 * uid), `pre` (`detail`: the stored resourceVersion), `conflict`.
 */
export interface WriteResult {
  readonly status: 'ok' | 'noop' | 'exists' | 'notfound' | 'uid' | 'pre' | 'conflict';
  readonly rv: number;
  readonly detail?: string;
}

/** A stored object. */
export interface StoredRow {
  readonly key: string;
  readonly rv: number;
  /** The object's uid ('' in pages, which do not need it). */
  readonly uid: string;
  readonly body: string;
}

/**
 * The first change after a list's resourceVersion of one key: the key's state at that
 * resourceVersion is `prevBody` at `prevRv` (absent for an ADDED), and `now` says whether the
 * key exists today.
 */
export interface FirstChange {
  readonly key: string;
  readonly type: 'A' | 'M' | 'D';
  readonly prevRv: number;
  readonly prevBody: string;
  readonly now: boolean;
}

/**
 * Whether an indexed column can hold `value`: PostgreSQL text holds no NUL (kube does not validate
 * these fields, so a stored event may carry one). A value that holds one is left out of the index
 * (null) and a selector on it reads without the index, so both stores answer alike.
 */
export function indexable(value: string): boolean {
  return !value.includes('\u0000');
}

/** The values of {@link indexedFields} in `obj`: the string at each label's dotted path, else null (see {@link indexable}). */
export function indexedValues(obj: KubeObject): (string | null)[] {
  return indexedFields.map(({ label }) => {
    let v: unknown = obj;
    for (const part of label.split('.'))
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
    return typeof v === 'string' && indexable(v) ? v : null;
  });
}

/** The column of an indexed field, checked against {@link indexedFields} (it is written into the SQL). */
export function matchColumn(column: string): string {
  if (!indexedFields.some((f) => f.column === column)) throw new Error(`not an indexed field column: ${column}`);
  return column;
}

/** What {@link SqlBackend.page} reads. */
export interface PageRequest {
  readonly resource: string;
  /** The first key (inclusive unless `lowerExclusive`); '' for the start of the resource. */
  readonly lower: string;
  readonly lowerExclusive: boolean;
  /** The first key after the range (exclusive); undefined: to the end of the resource. */
  readonly end: string | undefined;
  readonly limit: number;
  /** -1: the latest state; else also the first changes after `at` of the keys from `lower` to `end`. */
  readonly at: number;
  /** Also count the current keys from `lower` to `end`. */
  readonly count: boolean;
  /**
   * Only the objects whose {@link indexedFields} column `column` holds `value` (the first
   * changes are still of every key of the range).
   */
  readonly match?: { readonly column: string; readonly value: string };
}

/** One snapshot's answer to a {@link PageRequest}. */
export interface PageResult {
  /** The newest resourceVersion at the snapshot. */
  readonly rv: number;
  /** Every change at or below this has been compacted. */
  readonly compacted: number;
  readonly rows: readonly StoredRow[];
  readonly changes: readonly FirstChange[];
  readonly count: number | undefined;
}

/** A change read from the change log, with its key. */
export interface SqlChange extends LoggedChange {
  readonly key: string;
}

/** The newest resourceVersion and the compacted one. */
export interface Bounds {
  readonly rv: number;
  readonly compacted: number;
}

/**
 * A database under the SQL store: SQLite or PostgreSQL. Every method reads one consistent
 * snapshot; `write` applies a batch of writes in one transaction, in order, each taking the next
 * resourceVersion (refused writes take none), and appends every change to the change log.
 * Errors are StorageErrors (Unavailable when the database cannot be reached or is full).
 */
export interface SqlBackend {
  readonly description: string;
  write(ops: readonly WriteOp[], historyLimit: number): Promise<WriteResult[]>;
  get(resource: string, key: string): Promise<StoredRow | undefined>;
  bounds(): Promise<Bounds>;
  page(req: PageRequest): Promise<PageResult>;
  /** Changes with rv > `after`, in order, at most `limit`. */
  changes(after: number, limit: number): Promise<SqlChange[]>;
  /** Marks history at or below `rv` compacted (clamped to the newest) and deletes up to `batch` of its changes; returns how many are left to delete. */
  compact(rv: number, batch: number): Promise<number>;
  /** The newest resourceVersion written before `ms` milliseconds since the epoch (0 if none). */
  rvBefore(ms: number): Promise<number>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  /**
   * Calls `fn` whenever another process may have written (PostgreSQL NOTIFY), with the newest
   * resourceVersion written when known; returns a stop function.
   */
  listen(fn: (rv: number | undefined) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** What a write does to the current row, or why it does not. */
export type Decision =
  { readonly kind: 'insert' | 'update' | 'delete' } | { readonly kind: 'refuse'; readonly result: WriteResult };

/**
 * Decides one write against the stored row, as the Redis write script does: create needs no
 * row; update and delete need one matching the uid and resourceVersion preconditions and the
 * expected resourceVersion; an update to an identical body is a no-op; a guaranteed update
 * (`g`) conflicts when the row changed since it was read.
 */
export function decide(op: WriteOp, cur: StoredRow | undefined): Decision {
  let kind = op.op;
  let expect = op.expect;
  if (kind === 'g') {
    if (expect === '0') {
      if (cur !== undefined) return refuse('conflict');
      kind = 'c';
    } else {
      if (cur === undefined || String(cur.rv) !== expect) return refuse('conflict');
      kind = 'u';
      expect = '';
    }
  }
  if (kind === 'c') return cur === undefined ? { kind: 'insert' } : refuse('exists');
  if (cur === undefined) return refuse('notfound');
  if (op.preUid !== undefined && op.preUid !== cur.uid) return refuse('uid', 0, cur.uid);
  if (op.preRv !== undefined && op.preRv !== String(cur.rv)) return refuse('pre', 0, String(cur.rv));
  if (expect !== '' && expect !== String(cur.rv)) return refuse('conflict');
  if (kind === 'u' && op.body === cur.body) return refuse('noop', cur.rv);
  return { kind: kind === 'd' ? 'delete' : 'update' };
}

const refuse = (status: WriteResult['status'], rv = 0, detail?: string): Decision => ({
  kind: 'refuse',
  result: detail === undefined ? { status, rv } : { status, rv, detail },
});

/**
 * The changes a batch wrote, from its writes and their answers (a delete's and an update's
 * `detail` is the body they replaced): what the change log holds for them, without reading it.
 */
export function batchChanges(ops: readonly WriteOp[], results: readonly WriteResult[]): SqlChange[] {
  const out: SqlChange[] = [];
  ops.forEach((op, i) => {
    const r = results[i]!;
    if (r.status !== 'ok') return;
    const added = op.op === 'c' || (op.op === 'g' && op.expect === '0');
    const base = { rv: r.rv, resource: op.resource, namespace: op.namespace, key: op.key };
    if (op.op === 'd') out.push({ ...base, type: 'DELETED', body: r.detail ?? '', prev: undefined });
    else if (added) out.push({ ...base, type: 'ADDED', body: op.body, prev: undefined });
    else out.push({ ...base, type: 'MODIFIED', body: op.body, prev: r.detail });
  });
  return out;
}

/** Change types as the change log stores them. */
export const changeType = { A: 'ADDED', M: 'MODIFIED', D: 'DELETED' } as const;

/**
 * A row of the change log (`type`, `rv`, `resource`, `namespace`, `key`, `body`, `prev_body`), as
 * either driver reads it; `json` gives the JSON of a stored body (PostgreSQL's are compact).
 */
export function changeFromRow(
  r: Readonly<Record<string, unknown>>,
  json: (body: string) => string = (body) => body,
): SqlChange {
  const t = String(r['type']) as keyof typeof changeType;
  return {
    type: changeType[t],
    rv: Number(r['rv']),
    resource: String(r['resource']),
    namespace: String(r['namespace']),
    key: String(r['key']),
    body: json(String(r['body'])),
    prev: r['prev_body'] === null ? undefined : json(String(r['prev_body'])),
  };
}

/** A count of the current keys of a range that costs at most this many keys read; beyond it the count is not given. */
export const countCap = 10_000;

/**
 * How to count the current keys from `lower` to `end` cheaply, from the per-namespace counts
 * (`kevents_counts`) and at most one capped range count: a whole namespace is one count row; a
 * cluster-wide list is the count rows of the namespaces after the one `lower` is in, plus the
 * keys left in that one (read, up to {@link countCap}).
 */
export type CountPlan =
  | { readonly kind: 'namespace'; readonly namespace: string }
  | { readonly kind: 'all' }
  | {
      readonly kind: 'range';
      /** Namespaces whose keys all come after `lower` (none for a namespace's list). */
      readonly laterThan: string | undefined;
      readonly exceptNamespace: string;
      readonly lower: string;
      readonly lowerExclusive: boolean;
      readonly end: string | undefined;
    };

export function countPlan(lower: string, lowerExclusive: boolean, end: string | undefined): CountPlan {
  if (end !== undefined) {
    const ns = end.slice(0, -1);
    if (lower === `${ns}/` && !lowerExclusive) return { kind: 'namespace', namespace: ns };
    return { kind: 'range', laterThan: undefined, exceptNamespace: ns, lower, lowerExclusive, end };
  }
  if (lower === '' && !lowerExclusive) return { kind: 'all' };
  const slash = lower.indexOf('/');
  const ns = slash < 0 ? '' : lower.slice(0, slash);
  return {
    kind: 'range',
    laterThan: lower,
    exceptNamespace: ns,
    lower,
    lowerExclusive,
    end: ns === '' ? undefined : `${ns}0`,
  };
}
