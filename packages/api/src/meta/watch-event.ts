/** Watch event types on the wire. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** `metav1.WatchEvent`: one JSON line of a watch stream. */
export interface WatchEvent<T = unknown> {
  type: WatchEventType;
  object: T;
}

/** Annotation on the BOOKMARK that ends the initial events of a streaming list. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';
/** Annotation carrying an empty list blueprint on that BOOKMARK. */
export const initialEventsListBlueprintAnnotation = 'k8s.io/initial-events-list-blueprint';
