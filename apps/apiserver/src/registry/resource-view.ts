import type { CoreEvent, ObjectSchema } from '@kevents/api';
import type { FieldError } from '@kevents/validation';
import type { GroupResource } from '../errors/api-error.js';

/**
 * One API view of the stored events: events.k8s.io/v1 or core/v1. Both views read and write
 * the same stored objects (kept in the core/v1 shape, the internal form); a view converts,
 * validates with its group version's rules, and maps its field-selector labels.
 */
export interface ResourceView {
  readonly group: string;
  readonly version: string;
  /** `events.k8s.io/v1` or `v1`. */
  readonly groupVersion: string;
  readonly kind: string;
  readonly listKind: string;
  readonly resource: string;
  readonly gr: GroupResource;
  readonly schema: ObjectSchema;
  readonly listSchema: ObjectSchema;
  /** The path prefix of this group version: `/apis/events.k8s.io/v1` or `/api/v1`. */
  readonly pathPrefix: string;
  /** Converts a decoded external object to the stored form (taking ownership of it). */
  toInternal(external: Record<string, unknown>): CoreEvent;
  /** Converts a stored object to this view's wire JSON, with kind and apiVersion. */
  toExternal(internal: CoreEvent): Record<string, unknown>;
  /** The same without kind and apiVersion, as list items are sent. */
  toListItem(internal: CoreEvent): Record<string, unknown>;
  /** The wire JSON text of a stored object in one pass (with kind and apiVersion, or without for list items). */
  toJSON(internal: CoreEvent, withTypeMeta: boolean): string;
  /** Maps a field-selector label of this view to the internal label; undefined when unsupported. */
  fieldLabel(label: string): string | undefined;
  validateCreate(event: CoreEvent): FieldError[];
  validateUpdate(event: CoreEvent, old: CoreEvent): FieldError[];
}
