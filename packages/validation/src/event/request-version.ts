/**
 * The API an Event request came through. `core/v1` gets only the legacy rules; `events.k8s.io/v1`
 * (whatever group domain the server is configured with) also gets the strict ones.
 */
export type EventRequestVersion = 'core/v1' | 'events.k8s.io/v1';

/** Whether the strict events.k8s.io rules apply (every version except core/v1). */
export const isStrictEventVersion = (v: EventRequestVersion): boolean => v !== 'core/v1';
