import type { CoreEvent } from '@kevents/api';
import { defineResource } from '@kevents/apiserver';
import type { ResourceDefinition } from '@kevents/apiserver';
import { eventStrategy } from './strategy.js';
import { coreV1View, eventsV1View } from './views.js';

/** Events, served as `events.<domain>/v1` and (unless turned off) as core `v1`. */
export function eventsResource(groupDomain: string, coreView = true): ResourceDefinition<CoreEvent> {
  return defineResource({
    resource: 'events',
    strategy: eventStrategy,
    views: [eventsV1View(groupDomain), ...(coreView ? [coreV1View()] : [])],
  });
}
