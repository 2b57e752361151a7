export {
  parseRFC3339,
  formatTime,
  formatMicroTime,
  normalizeTime,
  normalizeMicroTime,
  timeToMillis,
  now,
  timeNow,
  microTimeNow,
} from './meta/time.js';
export type { Instant } from './meta/time.js';
export type {
  ObjectMeta,
  ListMeta,
  TypeMeta,
  KubeObject,
  OwnerReference,
  ManagedFieldsEntry,
  PartialObjectMetadata,
} from './meta/object-meta.js';
export { makeStatus } from './meta/status.js';
export type { Status, StatusReason, StatusCause, StatusDetails } from './meta/status.js';
export { initialEventsEndAnnotation, initialEventsListBlueprintAnnotation } from './meta/watch-event.js';
export type { WatchEvent, WatchEventType } from './meta/watch-event.js';
export type {
  APIVersions,
  APIGroup,
  APIGroupList,
  APIResource,
  APIResourceList,
  GroupVersionForDiscovery,
  ServerAddressByClientCIDR,
  VersionInfo,
} from './meta/discovery.js';
export type { Table, TableRow, TableColumnDefinition } from './meta/table.js';
export type {
  ObjectReference,
  EventSource,
  CoreEvent,
  CoreEventList,
  CoreEventSeries,
  Namespace,
  NamespaceList,
} from './core/v1.js';
export type { Event, EventList, EventSeries } from './events/v1.js';
export {
  defaultGroupDomain,
  eventsGroup,
  coordinationGroup,
  apiserverConfigGroup,
  eventsVersion,
  eventsResource,
  eventsStorageVersionHash,
  eventLimits,
  maxRequestBodyBytes,
} from './constants.js';
