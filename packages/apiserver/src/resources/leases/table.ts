import { leaseSpecSchema, objectMetaSchema } from '@kevents/api';
import type { Lease, TableColumnDefinition } from '@kevents/api';
import type { TableConvertor } from '../../registry/strategy.js';
import { age, nameColumn } from '../../table/table.js';

const doc = (schema: { fields: readonly { name: string; description: string }[] }, name: string): string =>
  schema.fields.find((f) => f.name === name)?.description ?? '';

/** kube-apiserver's lease columns (`pkg/printers/internalversion/printers.go`): NAME, HOLDER, AGE. */
export const leaseColumns: readonly TableColumnDefinition[] = [
  nameColumn,
  { name: 'Holder', type: 'string', format: '', description: doc(leaseSpecSchema, 'holderIdentity'), priority: 0 },
  { name: 'Age', type: 'string', format: '', description: doc(objectMetaSchema, 'creationTimestamp'), priority: 0 },
];

/** `printLease`: the name, the holder (empty when none) and the age. */
export const leaseTable: TableConvertor<Lease> = {
  columns: leaseColumns,
  cells: (l, nowMs) => [l.metadata.name ?? '', l.spec?.holderIdentity ?? '', age(l.metadata.creationTimestamp, nowMs)],
};
