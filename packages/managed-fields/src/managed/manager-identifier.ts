import { parseJson, type ManagedFieldsEntry } from '@kevents/api';
import { goJSONString } from '../value/go-json.js';
import { isJsonObject } from '../value/json-value.js';

/** The parts of a managedFields entry that name its manager. */
export interface ManagerInfo {
  readonly manager?: string;
  readonly operation?: 'Apply' | 'Update';
  readonly apiVersion?: string;
  readonly time?: string;
  readonly subresource?: string;
}

/**
 * The key kube keeps a manager under (`BuildManagerIdentifier`): the entry as Go's encoding/json
 * writes it without `time`, `fieldsType`, `fieldsV1` (and without `apiVersion` for Apply), e.g.
 * `{"manager":"kubectl","operation":"Update","apiVersion":"v1"}`. Entries with one identifier
 * merge: Update entries per manager, API version and subresource; Apply entries per manager and
 * subresource.
 */
export function buildManagerIdentifier(entry: ManagerInfo): string {
  const parts: string[] = [];
  const add = (k: string, v: string | undefined): void => {
    if (v) parts.push(`${goJSONString(k)}:${goJSONString(v)}`);
  };
  add('manager', entry.manager);
  add('operation', entry.operation);
  if (entry.operation !== 'Apply') add('apiVersion', entry.apiVersion);
  add('subresource', entry.subresource);
  return '{' + parts.join(',') + '}';
}

/** Reads an identifier back; undefined when it is not one (a plain manager name). */
export function parseManagerIdentifier(id: string): (ManagerInfo & Pick<ManagedFieldsEntry, 'fieldsType'>) | undefined {
  let v: unknown;
  try {
    v = parseJson(id);
  } catch {
    return undefined;
  }
  if (!isJsonObject(v)) return undefined;
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const op = str('operation');
  return {
    ...(str('manager') !== undefined ? { manager: str('manager')! } : {}),
    ...(op === 'Apply' || op === 'Update' ? { operation: op } : {}),
    ...(str('apiVersion') !== undefined ? { apiVersion: str('apiVersion')! } : {}),
    ...(str('time') !== undefined ? { time: str('time')! } : {}),
    ...(str('subresource') !== undefined ? { subresource: str('subresource')! } : {}),
  };
}
