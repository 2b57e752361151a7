import { describe, expect, it } from '@jest/globals';
import type { CoreEvent } from '@kevents/api';
import { coreV1View, eventsV1View } from './views.js';

const stored: CoreEvent[] = [
  {
    metadata: { name: 'a', namespace: 'n', uid: 'u', resourceVersion: '3', creationTimestamp: '2026-01-01T00:00:00Z' },
    involvedObject: {},
    reportingComponent: '',
    reportingInstance: '',
  },
  {
    metadata: { name: 'b', namespace: 'n', labels: { z: '1', a: '2' } },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'n' },
    reason: 'R',
    message: 'm "q"',
    source: { component: 'kubelet' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:01:00Z',
    count: 3,
    type: 'Warning',
    eventTime: '2026-01-01T00:00:00.000001Z',
    series: { count: 2, lastObservedTime: '2026-01-01T00:00:02.000000Z' },
    action: 'A',
    related: { kind: 'Node', name: 'n1' },
    reportingComponent: 'c',
    reportingInstance: 'i',
  },
];

describe('ResourceView.toJSON', () => {
  for (const view of [eventsV1View('k8s.io'), coreV1View()]) {
    it(`writes the same text as JSON.stringify(toExternal) for ${view.groupVersion}`, () => {
      for (const e of stored) {
        expect(view.toJSON(e, true)).toBe(JSON.stringify(view.toExternal(e)));
        expect(view.toJSON(e, false)).toBe(JSON.stringify(view.toListItem(e)));
      }
    });
  }
});
