import type { CoreEvent, ListMeta, Table, TableRow } from '@kevents/api';
import { badRequest } from '../errors/api-error.js';
import type { ResourceView } from '../registry/resource-view.js';
import { eventCells, eventColumns } from './event-table.js';

/** `includeObject`: None, Metadata (default) or Object. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(v: string | undefined): IncludeObject {
  if (v === undefined || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  throw badRequest(`Unable to convert to Table as requested: includeObject: Unsupported value: "${v}": supported values: "Metadata", "None", "Object"`);
}

function rowObject(view: ResourceView, e: CoreEvent, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return view.toExternal(e);
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: view.toListItem(e)['metadata'] };
}

/** Converts events to a server-side Table (`meta.k8s.io/<version>`). */
export function eventsToTable(
  view: ResourceView,
  items: readonly CoreEvent[],
  meta: ListMeta,
  opts: { version: 'v1' | 'v1beta1'; include: IncludeObject; noHeaders?: boolean; nowMs?: number },
): Table {
  const now = opts.nowMs ?? Date.now();
  const rows: TableRow[] = items.map((e) => {
    const row: TableRow = { cells: eventCells(e, now) };
    const o = rowObject(view, e, opts.include);
    if (o !== undefined) row.object = o;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}` as Table['apiVersion'],
    metadata: meta,
    columnDefinitions: opts.noHeaders ? (null as unknown as Table['columnDefinitions']) : [...eventColumns],
    rows,
  };
}
