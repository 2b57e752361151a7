import {
  coreEventListSchema,
  coreEventSchema,
  coreToEvent,
  encodeObject,
  eventsGroup,
  eventsV1EventListSchema,
  eventsV1EventSchema,
  eventToCore,
} from '@kevents/api';
import type { CoreEvent, Event } from '@kevents/api';
import { validateEventCreateRequest, validateEventUpdateRequest } from '@kevents/validation';
import type { ResourceView } from './resource-view.js';
import { coreFieldLabel, eventsV1FieldLabel } from './event-fields.js';

const withTypeMeta = (apiVersion: string, kind: string, body: Record<string, unknown>): Record<string, unknown> => {
  const { kind: _k, apiVersion: _a, ...rest } = body;
  return { kind, apiVersion, ...rest };
};

/** The events.k8s.io/v1 view of events for a group domain. */
export function eventsV1View(domain: string): ResourceView {
  const group = eventsGroup(domain);
  const groupVersion = `${group}/v1`;
  return {
    group,
    version: 'v1',
    groupVersion,
    kind: 'Event',
    listKind: 'EventList',
    resource: 'events',
    gr: { group, resource: 'events' },
    schema: eventsV1EventSchema,
    listSchema: eventsV1EventListSchema,
    pathPrefix: `/apis/${groupVersion}`,
    toInternal: (external) => {
      const { kind: _k, apiVersion: _a, ...rest } = external;
      return eventToCore(rest as unknown as Event);
    },
    toExternal: (internal) => withTypeMeta(groupVersion, 'Event', encodeObject(coreToEvent(internal) as unknown as Record<string, unknown>, eventsV1EventSchema)),
    toListItem: (internal) => encodeObject(coreToEvent(internal) as unknown as Record<string, unknown>, eventsV1EventSchema),
    fieldLabel: eventsV1FieldLabel,
    validateCreate: (e) => validateEventCreateRequest(e, 'events.k8s.io/v1'),
    validateUpdate: (e, old) => validateEventUpdateRequest(e, old, 'events.k8s.io/v1'),
  };
}

/** The core/v1 view of events (what `kubectl get events` and `kubectl events` read). */
export function coreV1View(): ResourceView {
  return {
    group: '',
    version: 'v1',
    groupVersion: 'v1',
    kind: 'Event',
    listKind: 'EventList',
    resource: 'events',
    gr: { group: '', resource: 'events' },
    schema: coreEventSchema,
    listSchema: coreEventListSchema,
    pathPrefix: '/api/v1',
    toInternal: (external) => {
      const { kind: _k, apiVersion: _a, ...rest } = external;
      const e = rest as unknown as CoreEvent;
      return { ...e, involvedObject: e.involvedObject ?? {}, reportingComponent: e.reportingComponent ?? '', reportingInstance: e.reportingInstance ?? '' };
    },
    toExternal: (internal) => withTypeMeta('v1', 'Event', encodeObject(internal as unknown as Record<string, unknown>, coreEventSchema)),
    toListItem: (internal) => encodeObject(internal as unknown as Record<string, unknown>, coreEventSchema),
    fieldLabel: coreFieldLabel,
    validateCreate: (e) => validateEventCreateRequest(e, 'core/v1'),
    validateUpdate: (e, old) => validateEventUpdateRequest(e, old, 'core/v1'),
  };
}
