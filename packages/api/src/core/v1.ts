import type { ObjectMeta, ListMeta } from '../meta/object-meta.js';

/** core/v1 `ObjectReference` */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** core/v1 `EventSource` */
export interface EventSource {
  component?: string;
  host?: string;
}

/** core/v1 `EventSeries` */
export interface CoreEventSeries {
  count?: number;
  lastObservedTime?: string;
}

/** core/v1 `Event`, as `kubectl get events` reads it. */
export interface CoreEvent {
  apiVersion?: 'v1';
  kind?: 'Event';
  metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: CoreEventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent: string;
  reportingInstance: string;
}

/** core/v1 `EventList` */
export interface CoreEventList {
  apiVersion: 'v1';
  kind: 'EventList';
  metadata: ListMeta;
  items: CoreEvent[];
}

/** core/v1 `Namespace` (kevents synthesizes these: namespaces are implicit). */
export interface Namespace {
  apiVersion: 'v1';
  kind: 'Namespace';
  metadata: ObjectMeta;
  spec: { finalizers: string[] };
  status: { phase: 'Active' | 'Terminating' };
}

/** core/v1 `NamespaceList` */
export interface NamespaceList {
  apiVersion: 'v1';
  kind: 'NamespaceList';
  metadata: ListMeta;
  items: Namespace[];
}
