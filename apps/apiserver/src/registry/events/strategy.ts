import type { CoreEvent } from '@kevents/api';
import type { ResourceStrategy } from '@kevents/apiserver';
import { validateEventCreateRequest, validateEventUpdateRequest } from '@kevents/validation';
import { eventFieldValue } from './fields.js';
import { eventCells, eventColumns } from './table.js';

/** The API version whose validation rules apply: events.k8s.io/v1 is stricter than core/v1. */
const requestVersion = (group: string): 'core/v1' | 'events.k8s.io/v1' =>
  group === '' ? 'core/v1' : 'events.k8s.io/v1';

/**
 * The stored form keeps no empty `source`: core/v1 always writes `source: {}` and
 * events.k8s.io/v1 `deprecatedSource: {}` (Go structs), so an object read and written back
 * unchanged stays equal to what is stored (a no-op update writes nothing).
 */
function canonicalize(e: CoreEvent): void {
  if (e.source && !e.source.component && !e.source.host) delete e.source;
}

/**
 * Events (`pkg/registry/core/event/strategy.go`): namespaced, created by PUT too, updated
 * without a resourceVersion if the client sends none; validated by the rules of the group
 * version the request came through; stored in the core/v1 shape.
 */
export const eventStrategy: ResourceStrategy<CoreEvent> = {
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  qualifiedKind: { group: '', kind: 'Event' },
  newObject: () => ({ metadata: {}, involvedObject: {}, reportingComponent: '', reportingInstance: '' }),
  prepareForCreate: canonicalize,
  prepareForUpdate: canonicalize,
  validate: (e, view) => validateEventCreateRequest(e, requestVersion(view.group)),
  validateUpdate: (e, old, view) => validateEventUpdateRequest(e, old, requestVersion(view.group)),
  fieldValue: eventFieldValue,
  table: { columns: eventColumns, cells: eventCells },
};
