import * as s from './schema.js';
import type { MessageSpec } from './schema.js';

/** The protobuf messages kevents can write and read. */
export type ProtobufType =
  | 'core/v1.Event'
  | 'core/v1.EventList'
  | 'events/v1.Event'
  | 'events/v1.EventList'
  | 'coordination/v1.Lease'
  | 'coordination/v1.LeaseList'
  | 'meta/v1.Status'
  | 'meta/v1.DeleteOptions'
  | 'meta/v1.PartialObjectMetadata'
  | 'meta/v1.PartialObjectMetadataList'
  | 'meta/v1beta1.PartialObjectMetadataList'
  | 'meta/v1.WatchEvent'
  | 'meta/v1.APIVersions'
  | 'meta/v1.APIGroupList'
  | 'meta/v1.APIGroup'
  | 'meta/v1.APIResourceList'
  | 'apidiscovery/v2.APIGroupDiscoveryList';

/** The message of each type. */
export const protobufMessages: Readonly<Record<ProtobufType, MessageSpec>> = {
  'core/v1.Event': s.CoreEvent,
  'core/v1.EventList': s.CoreEventList,
  'events/v1.Event': s.EventsEvent,
  'events/v1.EventList': s.EventsEventList,
  'coordination/v1.Lease': s.Lease,
  'coordination/v1.LeaseList': s.LeaseList,
  'meta/v1.Status': s.Status,
  'meta/v1.DeleteOptions': s.DeleteOptions,
  'meta/v1.PartialObjectMetadata': s.PartialObjectMetadata,
  'meta/v1.PartialObjectMetadataList': s.PartialObjectMetadataList,
  'meta/v1beta1.PartialObjectMetadataList': s.PartialObjectMetadataListV1beta1,
  'meta/v1.WatchEvent': s.WatchEvent,
  'meta/v1.APIVersions': s.APIVersions,
  'meta/v1.APIGroupList': s.APIGroupList,
  'meta/v1.APIGroup': s.APIGroup,
  'meta/v1.APIResourceList': s.APIResourceList,
  'apidiscovery/v2.APIGroupDiscoveryList': s.APIGroupDiscoveryList,
};

/** Every type, for iteration. */
export const protobufTypes = Object.keys(protobufMessages) as readonly ProtobufType[];
