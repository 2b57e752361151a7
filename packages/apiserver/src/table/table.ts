import type { KubeObject, ListMeta, Table, TableColumnDefinition, TableRow } from '@kevents/api';
import { initialEventsEndAnnotation, objectMetaSchema } from '@kevents/api';
import { badRequest } from '../errors/api-error.js';
import type { RestScope } from '../scope/rest-scope.js';
import type { TableConvertor } from '../registry/strategy.js';
import { humanDuration } from './human-duration.js';
import { partialObjectMetadata } from '../encoding/partial-metadata.js';

/** `includeObject`: None, Metadata (default) or Object. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(v: string | undefined): IncludeObject {
  if (v === undefined || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  throw badRequest(
    `Unable to convert to Table as requested: includeObject: Unsupported value: "${v}": supported values: "Metadata", "None", "Object"`,
  );
}

/** A row's object: none, the object, or (the default) its PartialObjectMetadata in the Table's version. */
function rowObject<T extends KubeObject>(
  scope: RestScope<T>,
  obj: T,
  include: IncludeObject,
  version: 'v1' | 'v1beta1',
): unknown {
  if (include === 'Object') return scope.view.toExternal(obj);
  // kube's asTable: the bookmark that ends a watch's initial events keeps its annotation in sight.
  if (include === 'None' && obj.metadata.annotations?.[initialEventsEndAnnotation] === undefined) return undefined;
  return partialObjectMetadata(scope.view, obj, version);
}

/** Converts objects to a server-side Table (`meta.k8s.io/<version>`) with the strategy's columns. */
export function toTable<T extends KubeObject>(
  scope: RestScope<T>,
  items: readonly T[],
  meta: ListMeta,
  opts: { version: 'v1' | 'v1beta1'; include: IncludeObject; noHeaders?: boolean; nowMs?: number },
): Table {
  const now = opts.nowMs ?? Date.now();
  const table = scope.strategy.table;
  const rows: TableRow[] = items.map((obj) => {
    const row: TableRow = { cells: table.cells(obj, now) };
    const o = rowObject(scope, obj, opts.include, opts.version);
    if (o !== undefined) row.object = o;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}` as Table['apiVersion'],
    metadata: meta,
    columnDefinitions: opts.noHeaders ? (null as unknown as Table['columnDefinitions']) : [...table.columns],
    rows,
  };
}

const metaDoc = (name: string): string => objectMetaSchema.fields.find((f) => f.name === name)?.description ?? '';

/** The age of a timestamp as kubectl prints it (`5m`, `<unknown>`). */
export function age(timestamp: string | null | undefined, nowMs: number): string {
  const t = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration(nowMs - t);
}

/** The Name column every printer starts with. */
export const nameColumn: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: metaDoc('name'),
  priority: 0,
};

/** Kubernetes' default table (`DefaultTableConvertor`): Name and Created At. */
export const defaultTableConvertor: TableConvertor = {
  columns: [
    nameColumn,
    { name: 'Created At', type: 'date', format: '', description: metaDoc('creationTimestamp'), priority: 0 },
  ],
  cells: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? ''],
};
