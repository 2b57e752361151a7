import type { ListMeta } from './object-meta.js';

/** `metav1.TableColumnDefinition` */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** `metav1.TableRow` */
export interface TableRow {
  cells: unknown[];
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
  object?: unknown;
}

/** `metav1.Table` (meta.k8s.io/v1): server-side printing. */
export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}
