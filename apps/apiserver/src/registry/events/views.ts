import {
  coreEventListSchema,
  coreEventStoredTextPlan,
  coreEventSchema,
  coreToEvent,
  encodeObject,
  eventsGroup,
  eventsStorageVersionHash,
  eventsV1EventListSchema,
  eventsV1EventSchema,
  eventsV1StoredTextPlan,
  eventToCore,
  stringifyObject,
} from '@kevents/api';
import type { CoreEvent, Event } from '@kevents/api';
import type { VersionedView } from '@kevents/apiserver';
import { coreFieldLabel, eventsV1FieldLabel } from './fields.js';

/** Encodes with kind and apiVersion first (the schema lists them first), as Go prints TypeMeta. */
const encodeTyped = (obj: object, apiVersion: string, schema: typeof coreEventSchema): Record<string, unknown> => {
  const o = obj as Record<string, unknown>;
  o['kind'] = 'Event';
  o['apiVersion'] = apiVersion;
  return encodeObject(o, schema);
};

/** Puts `"kind":"Event","apiVersion":...` in front of an object's JSON text (its first fields, as Go writes TypeMeta). */
const typed = (apiVersion: string): ((text: string) => string) => {
  const head = `{"kind":"Event","apiVersion":${JSON.stringify(apiVersion)},`;
  return (text) => head + text.slice(1);
};

/** Drops kind and apiVersion of a decoded body (they were checked while decoding). */
const withoutTypeMeta = (external: Record<string, unknown>): Record<string, unknown> => {
  delete external['kind'];
  delete external['apiVersion'];
  return external;
};

/** What discovery says of events in both group versions (as a real cluster does). */
const eventsDiscovery = {
  singularName: 'event',
  shortNames: ['ev'],
  storageVersionHash: eventsStorageVersionHash,
} as const;

/** The events.k8s.io/v1 view of events for a group domain. */
export function eventsV1View(domain: string): VersionedView<CoreEvent> {
  const group = eventsGroup(domain);
  const groupVersion = `${group}/v1`;
  const withEventsTypeMeta = typed(groupVersion);
  return {
    group,
    version: 'v1',
    groupVersion,
    kind: 'Event',
    listKind: 'EventList',
    resource: 'events',
    ...eventsDiscovery,
    goType: 'core.Event',
    protobuf: { object: 'events/v1.Event', list: 'events/v1.EventList' },
    gr: { group, resource: 'events' },
    schema: eventsV1EventSchema,
    listSchema: eventsV1EventListSchema,
    pathPrefix: `/apis/${groupVersion}`,
    // eventToCore copies only the Event's fields: kind and apiVersion stay behind without a
    // `delete` (which would turn the decoded object into a slow dictionary).
    toInternal: (external) => eventToCore(external as unknown as Event),
    toExternal: (internal) => encodeTyped(coreToEvent(internal), groupVersion, eventsV1EventSchema),
    toListItem: (internal) =>
      encodeObject(coreToEvent(internal) as unknown as Record<string, unknown>, eventsV1EventSchema),
    toJSON: (internal, withTypeMeta) => {
      const text = stringifyObject(coreToEvent(internal), eventsV1EventSchema);
      return withTypeMeta ? withEventsTypeMeta(text) : text;
    },
    withTypeMeta: withEventsTypeMeta,
    storedText: eventsV1StoredTextPlan,
    externalFollowsShape: true,
    fieldLabel: eventsV1FieldLabel,
  };
}

/** The core/v1 view of events (what `kubectl get events` and `kubectl events` read). */
export function coreV1View(): VersionedView<CoreEvent> {
  const withCoreTypeMeta = typed('v1');
  return {
    group: '',
    version: 'v1',
    groupVersion: 'v1',
    kind: 'Event',
    listKind: 'EventList',
    resource: 'events',
    ...eventsDiscovery,
    goType: 'core.Event',
    protobuf: { object: 'core/v1.Event', list: 'core/v1.EventList' },
    gr: { group: '', resource: 'events' },
    schema: coreEventSchema,
    listSchema: coreEventListSchema,
    pathPrefix: '/api/v1',
    toInternal: (external) => {
      const e = withoutTypeMeta(external) as unknown as CoreEvent;
      e.involvedObject ??= {};
      e.reportingComponent ??= '';
      e.reportingInstance ??= '';
      return e;
    },
    toExternal: (internal) => encodeTyped({ ...internal }, 'v1', coreEventSchema),
    toListItem: (internal) => encodeObject(internal as unknown as Record<string, unknown>, coreEventSchema),
    toJSON: (internal, withTypeMeta) => {
      const typeMeta = 'kind' in internal || 'apiVersion' in internal;
      const text = stringifyObject(
        typeMeta ? { ...internal, kind: undefined, apiVersion: undefined } : internal,
        coreEventSchema,
      );
      return withTypeMeta ? withCoreTypeMeta(text) : text;
    },
    withTypeMeta: withCoreTypeMeta,
    storedText: coreEventStoredTextPlan,
    externalFollowsShape: true,
    fieldLabel: coreFieldLabel,
  };
}
