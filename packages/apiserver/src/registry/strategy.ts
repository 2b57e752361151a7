import type { KubeObject, TableColumnDefinition } from '@kevents/api';
import type { FieldError } from '@kevents/validation';
import type { VersionedView } from './view.js';

/** How a resource's objects print as server-side Table rows (Kubernetes' printers). */
export interface TableConvertor<T extends KubeObject = KubeObject> {
  readonly columns: readonly TableColumnDefinition[];
  /** The cells of one row, in column order. */
  cells(obj: T, nowMs: number): unknown[];
}

/**
 * The behaviour of one resource, whatever group version it is served at: Kubernetes'
 * `RESTCreateStrategy`, `RESTUpdateStrategy`, `RESTDeleteStrategy` and `GetAttrs` in one place.
 * The generic store calls it; it never touches storage or HTTP.
 */
export interface ResourceStrategy<T extends KubeObject = KubeObject> {
  readonly namespaced: boolean;
  /** A PUT to a missing name creates the object (201). */
  readonly allowCreateOnUpdate: boolean;
  /** A PUT without `metadata.resourceVersion` overwrites; otherwise it is a 422. */
  readonly allowUnconditionalUpdate: boolean;
  /** The kind named in 422 Invalid answers (the internal group kind: `Event`, `Lease.coordination.k8s.io`). */
  readonly qualifiedKind: { readonly group: string; readonly kind: string };
  /** An empty object in the internal form (the body of BOOKMARK events). */
  newObject(): T;
  /** Clears or sets fields on create, after the generic metadata rules (`PrepareForCreate`). */
  prepareForCreate?(obj: T): void;
  /** Keeps or resets fields on update (`PrepareForUpdate`). */
  prepareForUpdate?(obj: T, old: T): void;
  /** Validates a new object; the view tells which group version the request came through. */
  validate(obj: T, view: VersionedView<T>): FieldError[];
  validateUpdate(obj: T, old: T, view: VersionedView<T>): FieldError[];
  /**
   * The value of an internal field label on an object (a label some view's `fieldLabel` maps to;
   * `metadata.name` and `metadata.namespace` never reach it).
   */
  fieldValue(obj: T, label: string): string;
  readonly table: TableConvertor<T>;
}
