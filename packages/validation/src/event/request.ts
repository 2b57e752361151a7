import type { CoreEvent } from '@kevents/api';
import type { FieldError } from '../field/error.js';
import { nameIsPathSegment } from '../meta/name-functions.js';
import { validateObjectMeta } from '../meta/object-meta.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-update.js';
import { validateEventCreate } from './create.js';
import type { EventRequestVersion } from './request-version.js';
import { validateEventUpdate } from './update.js';

/**
 * Everything the generic registry validates on an Event create (`rest.ValidateCreate`): the Event
 * rules, then, only if they pass, the common metadata rules with path-segment names (which is why
 * core/v1 accepts `Upper.Case` names). Call after name generation and namespace defaulting.
 */
export function validateEventCreateRequest(event: CoreEvent, requestVersion: EventRequestVersion): FieldError[] {
  const errs = validateEventCreate(event, requestVersion);
  if (errs.length) return errs;
  return validateObjectMeta(event.metadata ?? {}, { namespaced: true, nameFn: nameIsPathSegment });
}

/**
 * Everything the generic registry validates on an Event update (`rest.ValidateUpdate`): common
 * metadata rules (path-segment names, then the update rules) followed by the Event rules. The
 * caller first applies `rest.BeforeUpdate`'s defaults: generation, an empty uid, creationTimestamp,
 * deletionTimestamp and deletionGracePeriodSeconds come from the old object, and an unconditional
 * update (no resourceVersion) takes the stored resourceVersion.
 */
export function validateEventUpdateRequest(
  newEvent: CoreEvent,
  oldEvent: CoreEvent,
  requestVersion: EventRequestVersion,
): FieldError[] {
  const newMeta = newEvent.metadata ?? {};
  return [
    ...validateObjectMeta(newMeta, { namespaced: true, nameFn: nameIsPathSegment }),
    ...validateObjectMetaUpdate(newMeta, oldEvent.metadata ?? {}),
    ...validateEventUpdate(newEvent, oldEvent, requestVersion),
  ];
}
