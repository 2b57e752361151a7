import { describe, expect, it } from '@jest/globals';
import type { CoreEvent } from '@kevents/api';
import { MemoryStorage } from '@kevents/storage';
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

/** Freezes a JSON value and everything in it (as the apiserver shares each create shape's fieldsV1). */
const deepFreeze = <V>(v: V): V => {
  if (typeof v === 'object' && v !== null) for (const x of Object.values(Object.freeze(v))) deepFreeze(x);
  return v;
};

describe("ResourceView.toJSON of the memory store's shared decoding", () => {
  it('writes the text of the parsed object, fieldsV1 frozen and shared or not', async () => {
    const storage = new MemoryStorage();
    const fieldsV1 = { 'f:count': {}, 'f:involvedObject': { 'f:kind': {}, 'f:name': {} }, 'f:message': {} };
    const frozen = deepFreeze(structuredClone(fieldsV1));
    for (const [i, e] of stored.entries()) {
      for (const [j, fields] of [fieldsV1, frozen, { ...fieldsV1, 'f:reason': {} }].entries()) {
        const managedFields = [
          {
            manager: `m${j}`,
            operation: 'Update' as const,
            apiVersion: 'v1',
            time: `2026-01-0${j + 1}T00:00:00Z`,
            fieldsType: 'FieldsV1',
            fieldsV1: fields,
          },
        ];
        const name = `e${i}-${j}`;
        await storage.create(
          { resource: 'events', namespace: 'n', name },
          { ...e, metadata: { ...e.metadata, name, resourceVersion: undefined, managedFields } },
        );
      }
    }
    const revs = (await storage.listRevisions<CoreEvent>({ resource: 'events' })).items;
    expect(revs).toHaveLength(stored.length * 3);
    for (const view of [eventsV1View('k8s.io'), coreV1View()])
      for (const rev of revs) expect(view.toJSON(rev.decodeShared!(), false)).toBe(view.toJSON(rev.decode(), false));
    await storage.close();
  });
});
