import type { CoreEvent } from '@kevents/api';
import type { FieldError } from '../field/error.js';
import { nameIsPathSegment } from '../meta/name-functions.js';
import { validateObjectMeta, validateObjectMetaNames } from '../meta/object-meta.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-update.js';
import { validateEventCreate } from './create.js';
import { isStrictEventVersion, type EventRequestVersion } from './request-version.js';
import { validateEventUpdate } from './update.js';

/**
 * Everything the generic registry validates on an Event create (`rest.ValidateCreate`): the Event
 * rules, then, only if they pass, the common metadata rules with path-segment names (which is why
 * core/v1 accepts `Upper.Case` names). Call after name generation and namespace defaulting.
 */
export function validateEventCreateRequest(event: CoreEvent, requestVersion: EventRequestVersion): FieldError[] {
  const errs = validateEventCreate(event, requestVersion);
  if (errs.length) return errs;
  const meta = event.metadata ?? {};
  // events.k8s.io/v1's rules passed all of ValidateObjectMeta but the name rule: only that can differ.
  if (isStrictEventVersion(requestVersion)) return validateObjectMetaNames(meta, nameIsPathSegment);
  return validateObjectMeta(meta, { namespaced: true, nameFn: nameIsPathSegment });
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
