import type { ManagedFieldsEntry } from '@kevents/api';
import { FieldsV1Error } from '../fieldpath/fields-v1.js';
import { fieldsV1Cache } from '../fieldpath/fields-v1-cache.js';
import { FieldSet } from '../fieldpath/set.js';
import { compareStrings } from '../value/compare.js';
import { buildManagerIdentifier, parseManagerIdentifier } from './manager-identifier.js';
import type { ManagedFields } from './versioned-set.js';

/** Decoded `metadata.managedFields`: field sets and entry times, both by manager identifier. */
export interface Managed {
  readonly fields: ManagedFields;
  /** `time` of each entry (undefined when the entry had none). */
  readonly times: Map<string, string | undefined>;
}

/** An empty {@link Managed}. */
export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** `metadata.managedFields` that cannot be decoded. */
export class ManagedFieldsError extends Error {
  override readonly name = 'ManagedFieldsError';
}

/**
 * Decodes `metadata.managedFields` (`DecodeManagedFields`): each entry must have operation
 * `Apply` or `Update`, an apiVersion and `fieldsType: FieldsV1`; entries with one identifier
 * collapse to the last. Throws a {@link ManagedFieldsError} with kube's texts.
 */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update')
      throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1')
      throw new ManagedFieldsError(`invalid fieldsType "${e.fieldsType}" in managed fields entry ${i}`);
    const id = buildManagerIdentifier(e);
    let set: FieldSet;
    try {
      set = e.fieldsV1 === undefined || e.fieldsV1 === null ? new FieldSet() : fieldsV1Cache.read(e.fieldsV1);
    } catch (err) {
      if (err instanceof FieldsV1Error)
        throw new ManagedFieldsError(`error decoding versioned set: error decoding set: ${err.message}`);
      throw err;
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, e.time);
  });
  return managed;
}

/** How many identifiers and times the encoder remembers (it starts over past that). */
const maxInfos = 1 << 14;
const secondsOfTimes = new Map<string, number>();

/** An entry time's seconds since the epoch (0 when absent or unreadable), each text read once. */
function seconds(t: string | undefined): number {
  if (!t) return 0;
  let s = secondsOfTimes.get(t);
  if (s === undefined) {
    const ms = Date.parse(t);
    s = Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
    if (secondsOfTimes.size >= maxInfos) secondsOfTimes.clear();
    secondsOfTimes.set(t, s);
  }
  return s;
}

/**
 * Encodes managers back into `metadata.managedFields` entries (`encodeManagedFields`), sorted as
 * kube sorts them: operation (Apply first), time (seconds), manager, apiVersion, subresource.
 * Undefined when there is no manager (the field is then left out).
 */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: { entry: ManagedFieldsEntry; seconds: number }[] = [];
  for (const [id, vs] of managed.fields) {
    const info = managerInfoOf(id);
    const entry: ManagedFieldsEntry = {};
    if (info.manager) entry.manager = info.manager;
    const operation = vs.applied ? 'Apply' : info.operation;
    if (operation) entry.operation = operation;
    if (vs.apiVersion) entry.apiVersion = vs.apiVersion;
    const time = managed.times.has(id) ? managed.times.get(id) : info.time;
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = fieldsV1Cache.write(vs.set);
    if (info.subresource) entry.subresource = info.subresource;
    out.push({ entry, seconds: seconds(entry.time) });
  }
  out.sort(({ entry: p, seconds: ps }, { entry: q, seconds: qs }) => {
    if (p.operation !== q.operation) return compareStrings(p.operation ?? '', q.operation ?? '');
    if (ps !== qs) return ps < qs ? -1 : 1;
    if (p.manager !== q.manager) return compareStrings(p.manager ?? '', q.manager ?? '');
    if (p.apiVersion !== q.apiVersion) return compareStrings(p.apiVersion ?? '', q.apiVersion ?? '');
    return compareStrings(p.subresource ?? '', q.subresource ?? '');
  });
  return out.map((e) => e.entry);
}

type ManagerInfoOf = NonNullable<ReturnType<typeof parseManagerIdentifier>>;
/** Identifiers already read. */
const infos = new Map<string, Readonly<ManagerInfoOf>>();

/** `parseManagerIdentifier`, or the plain manager name, read once per identifier. */
function managerInfoOf(id: string): Readonly<ManagerInfoOf> {
  let info = infos.get(id);
  if (info === undefined) {
    if (infos.size >= maxInfos) infos.clear();
    info = Object.freeze(parseManagerIdentifier(id) ?? { manager: id });
    infos.set(id, info);
  }
  return info;
}

/**
 * `isResetManagedFields`: a request that sets `managedFields: []` (or `[{}]`) asks to clear them.
 */
export function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): boolean {
  if (!entries) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && Object.keys(entries[0]!).length === 0;
}
