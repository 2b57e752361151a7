import { coreEventSchema, eventsV1EventSchema } from '../schema/event-schemas.js';
import type { StoredTextPlan } from '../schema/stored-text-plan.js';

/**
 * The events.k8s.io/v1 text of a stored (core/v1) Event as `coreToEvent` converts it: its
 * fields renamed (`involvedObject` → `regarding`, `message` → `note`, …), `series` rebuilt by
 * `coreToEvent` itself (an Event in a series takes that way).
 */
export const eventsV1StoredTextPlan: StoredTextPlan = {
  schema: eventsV1EventSchema,
  sources: {
    kind: null,
    apiVersion: null,
    series: null,
    reportingController: 'reportingComponent',
    regarding: 'involvedObject',
    note: 'message',
    deprecatedSource: 'source',
    deprecatedFirstTimestamp: 'firstTimestamp',
    deprecatedLastTimestamp: 'lastTimestamp',
    deprecatedCount: 'count',
  },
  converted: ['series'],
};

/** The core/v1 text of a stored Event: its own members, without kind and apiVersion (a list item's). */
export const coreEventStoredTextPlan: StoredTextPlan = {
  schema: coreEventSchema,
  sources: { kind: null, apiVersion: null },
};
