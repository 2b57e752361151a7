import type { StatusCause } from '@kevents/api';
import type { Path } from '../fieldpath/path.js';
import { pathString } from '../fieldpath/path.js';
import { compareStrings } from '../value/compare.js';
import { goQuote } from '../value/go-format.js';
import { parseManagerIdentifier } from './manager-identifier.js';
import type { ManagedFields } from './versioned-set.js';

/** One field an apply would change that another manager owns (`merge.Conflict`). */
export interface Conflict {
  /** The other manager's identifier (see `buildManagerIdentifier`), or a plain name. */
  readonly manager: string;
  readonly path: Path;
}

/**
 * An apply that conflicts with other managers' fields (`merge.Conflicts`). Its message is
 * structured-merge-diff's; {@link conflictStatus} gives what kube-apiserver answers.
 */
export class ConflictsError extends Error {
  override readonly name = 'ConflictsError';
  readonly conflicts: readonly Conflict[];
  constructor(conflicts: readonly Conflict[]) {
    super(smdConflictsMessage(conflicts));
    this.conflicts = conflicts;
  }
}

function groupByManager(conflicts: readonly Conflict[]): [string, Path[]][] {
  const m = new Map<string, Path[]>();
  for (const c of conflicts) {
    const list = m.get(c.manager);
    if (list) list.push(c.path);
    else m.set(c.manager, [c.path]);
  }
  return [...m.entries()].sort((a, b) => compareStrings(a[0], b[0]));
}

function smdConflictsMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1)
    return `conflict with ${goQuote(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  const lines: string[] = [];
  for (const [manager, paths] of groupByManager(conflicts)) {
    lines.push(`conflicts with ${goQuote(manager)}:`);
    for (const p of paths) lines.push(`- ${pathString(p)}`);
  }
  return lines.join('\n');
}

/** `ConflictsFromManagers`: one conflict per path of each set, managers in identifier order. */
export function conflictsFromManagers(sets: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort(compareStrings)) {
    for (const path of sets.get(manager)!.set.paths()) out.push({ manager, path });
  }
  return out;
}

/**
 * How kube prints a manager in conflict texts (`printManager`, managedfields/internal/conflict.go):
 * `"name"`, plus ` with subresource "status"`, plus ` using <apiVersion>` for an Update entry
 * (and ` at <time>` when the identifier carries one, which kube's never do).
 */
export function printManager(manager: string): string {
  const entry = parseManagerIdentifier(manager);
  if (!entry) return goQuote(manager);
  let s = goQuote(entry.manager ?? '');
  if (entry.subresource) s += ` with subresource ${goQuote(entry.subresource)}`;
  if (entry.operation === 'Update') {
    s += ` using ${entry.apiVersion ?? ''}`;
    if (entry.time) {
      const ms = Date.parse(entry.time);
      s += ` at ${Number.isNaN(ms) ? entry.time : new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')}`;
    }
  }
  return s;
}

/** kube's conflict message (`getConflictMessage`). */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  }
  const lines: string[] = [];
  for (const [manager, paths] of groupByManager(conflicts)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of paths) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The fields of kube's 409 for an apply conflict (`NewConflictError` + `errors.NewApplyConflict`). */
export interface ConflictStatusFields {
  readonly status: 'Failure';
  readonly message: string;
  readonly reason: 'Conflict';
  readonly details: { readonly causes: StatusCause[] };
  readonly code: 409;
}

/**
 * What kube-apiserver answers an apply with conflicts: a Failure Status, reason Conflict, code
 * 409, the message of {@link conflictMessage}, and one cause per field (`reason:
 * FieldManagerConflict`, `message: conflict with <manager>`, `field: <path>`). Pass the fields to
 * `makeStatus` from @kevents/api.
 */
export function conflictStatus(conflicts: readonly Conflict[]): ConflictStatusFields {
  return {
    status: 'Failure',
    message: conflictMessage(conflicts),
    reason: 'Conflict',
    details: {
      causes: conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${printManager(c.manager)}`,
        field: pathString(c.path),
      })),
    },
    code: 409,
  };
}
