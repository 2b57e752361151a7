import { field, str, int32, time, microTime, obj } from './types.js';
import type { ObjectSchema } from './types.js';
import { objectMetaSchema, listMetaSchema, typeMetaFields } from './meta-schemas.js';
import { arrayOf } from './types.js';

const typeMeta = typeMetaFields();

export const objectReferenceSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.ObjectReference',
  goType: 'ObjectReference',
  description: 'ObjectReference contains enough information to let you inspect or modify the referred object.',
  fields: [
    field('kind', str(), 'omitempty', 'Kind of the referent.'),
    field('namespace', str(), 'omitempty', 'Namespace of the referent.'),
    field('name', str(), 'omitempty', 'Name of the referent.'),
    field('uid', str(), 'omitempty', 'UID of the referent.', { goName: 'UID' }),
    field('apiVersion', str(), 'omitempty', 'API version of the referent.', { goName: 'APIVersion' }),
    field('resourceVersion', str(), 'omitempty', 'Specific resourceVersion to which this reference is made, if any.'),
    field(
      'fieldPath',
      str(),
      'omitempty',
      'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].',
    ),
  ],
};

export const eventSourceSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.EventSource',
  goType: 'EventSource',
  description: 'EventSource contains information for an event.',
  fields: [
    field('component', str(), 'omitempty', 'Component from which the event is generated.'),
    field('host', str(), 'omitempty', 'Node name on which the event is generated.'),
  ],
};

export const coreEventSeriesSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.EventSeries',
  goType: 'EventSeries',
  description:
    'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.',
  fields: [
    field('count', int32, 'omitempty', 'Number of occurrences in this series up to the last heartbeat time'),
    field('lastObservedTime', microTime, 'omitempty', 'Time of the last occurrence observed'),
  ],
};

export const eventsV1SeriesSchema: ObjectSchema = {
  id: 'io.k8s.api.events.v1.EventSeries',
  goType: 'EventSeries',
  description:
    'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters. The default event reporter in "k8s.io/client-go/tools/events/event_broadcaster.go" shows how this struct is updated on heartbeats and can guide customized reporter implementations.',
  fields: [
    field(
      'count',
      int32,
      'always',
      'count is the number of occurrences in this series up to the last heartbeat time.',
      { required: true },
    ),
    field(
      'lastObservedTime',
      microTime,
      'always',
      'lastObservedTime is the time when last Event from the series was seen before last heartbeat.',
      { required: true },
    ),
  ],
};

export const coreEventSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.Event',
  goType: 'Event',
  description:
    'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
  gvk: { group: '', version: 'v1', kind: 'Event' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => objectMetaSchema),
      'always',
      "Standard object's metadata.",
      { required: true },
    ),
    field(
      'involvedObject',
      obj(() => objectReferenceSchema),
      'always',
      'The object that this event is about.',
      { required: true },
    ),
    field(
      'reason',
      str(),
      'omitempty',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    field('message', str(), 'omitempty', 'A human-readable description of the status of this operation.'),
    field(
      'source',
      obj(() => eventSourceSchema),
      'always',
      'The component reporting this event. Should be a short machine understandable string.',
    ),
    field(
      'firstTimestamp',
      time,
      'always',
      'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
    ),
    field('lastTimestamp', time, 'always', 'The time at which the most recent occurrence of this event was recorded.'),
    field('count', int32, 'omitempty', 'The number of times this event has occurred.'),
    field('type', str(), 'omitempty', 'Type of this event (Normal, Warning), new types could be added in the future'),
    field('eventTime', microTime, 'always', 'Time when this Event was first observed.'),
    field(
      'series',
      obj(() => coreEventSeriesSchema),
      'omitempty',
      "Data about the Event series this event represents or nil if it's a singleton Event.",
    ),
    field('action', str(), 'omitempty', 'What action was taken/failed regarding to the Regarding object.'),
    field(
      'related',
      obj(() => objectReferenceSchema),
      'omitempty',
      'Optional secondary object for more complex actions.',
    ),
    field(
      'reportingComponent',
      str(),
      'always',
      'Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.',
      { goName: 'ReportingController' },
    ),
    field('reportingInstance', str(), 'always', 'ID of the controller instance, e.g. `kubelet-xyzf`.'),
  ],
};

export const eventsV1EventSchema: ObjectSchema = {
  id: 'io.k8s.api.events.v1.Event',
  goType: 'Event',
  description:
    'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
  gvk: { group: 'events.k8s.io', version: 'v1', kind: 'Event' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => objectMetaSchema),
      'always',
      "Standard object's metadata.",
    ),
    field(
      'eventTime',
      microTime,
      'always',
      'eventTime is the time when this Event was first observed. It is required.',
      { required: true },
    ),
    field(
      'series',
      obj(() => eventsV1SeriesSchema),
      'omitempty',
      "series is data about the Event series this event represents or nil if it's a singleton Event.",
    ),
    field(
      'reportingController',
      str(),
      'omitempty',
      'reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.',
    ),
    field(
      'reportingInstance',
      str(),
      'omitempty',
      'reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.',
    ),
    field(
      'action',
      str(),
      'omitempty',
      'action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
    ),
    field(
      'reason',
      str(),
      'omitempty',
      'reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
    ),
    field(
      'regarding',
      obj(() => objectReferenceSchema),
      'always',
      "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.",
    ),
    field(
      'related',
      obj(() => objectReferenceSchema),
      'omitempty',
      'related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.',
    ),
    field(
      'note',
      str(),
      'omitempty',
      'note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.',
    ),
    field(
      'type',
      str(),
      'omitempty',
      'type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.',
    ),
    field(
      'deprecatedSource',
      obj(() => eventSourceSchema),
      'always',
      'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.',
    ),
    field(
      'deprecatedFirstTimestamp',
      time,
      'always',
      'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
    ),
    field(
      'deprecatedLastTimestamp',
      time,
      'always',
      'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
    ),
    field(
      'deprecatedCount',
      int32,
      'omitempty',
      'deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.',
    ),
  ],
};

export const coreEventListSchema: ObjectSchema = {
  id: 'io.k8s.api.core.v1.EventList',
  goType: 'EventList',
  description: 'EventList is a list of events.',
  gvk: { group: '', version: 'v1', kind: 'EventList' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => listMetaSchema),
      'always',
      'Standard list metadata.',
    ),
    field('items', arrayOf(obj(() => coreEventSchema)), 'always', 'List of events', { required: true }),
  ],
};

export const eventsV1EventListSchema: ObjectSchema = {
  id: 'io.k8s.api.events.v1.EventList',
  goType: 'EventList',
  description: 'EventList is a list of Event objects.',
  gvk: { group: 'events.k8s.io', version: 'v1', kind: 'EventList' },
  fields: [
    ...typeMeta,
    field(
      'metadata',
      obj(() => listMetaSchema),
      'always',
      'Standard list metadata.',
    ),
    field('items', arrayOf(obj(() => eventsV1EventSchema)), 'always', 'items is a list of schema objects.', {
      required: true,
    }),
  ],
};
