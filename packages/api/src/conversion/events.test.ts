import { describe, expect, it } from '@jest/globals';
import { coreToEvent, eventToCore } from './events.js';
import { encodeObject } from '../schema/encode.js';
import { coreEventSchema, eventsV1EventSchema } from '../schema/event-schemas.js';
import type { CoreEvent } from '../core/v1.js';
import type { Event } from '../events/v1.js';

const meta = {
  name: 'x',
  namespace: 'ns',
  uid: 'u-1',
  resourceVersion: '7',
  creationTimestamp: '2026-01-01T00:00:00Z',
  labels: { a: 'b' },
};

const shapes: Record<string, Event> = {
  minimal: { metadata: meta, eventTime: '2026-01-01T00:00:00.000001Z' },
  full: {
    metadata: meta,
    eventTime: '2026-01-01T00:00:00.123456Z',
    series: { count: 4, lastObservedTime: '2026-01-01T00:10:00.000000Z' },
    reportingController: 'example.com/c',
    reportingInstance: 'c-1',
    action: 'Act',
    reason: 'Why',
    regarding: {
      kind: 'Pod',
      namespace: 'ns',
      name: 'p',
      uid: 'p-1',
      apiVersion: 'v1',
      resourceVersion: '3',
      fieldPath: 'spec.containers{a}',
    },
    related: { kind: 'Node', name: 'n1' },
    note: 'hello',
    type: 'Warning',
    deprecatedSource: { component: 'kubelet', host: 'n1' },
    deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
    deprecatedLastTimestamp: '2026-01-01T00:05:00Z',
    deprecatedCount: 9,
  },
  legacyOnly: {
    metadata: meta,
    eventTime: null,
    reason: 'BackOff',
    regarding: { kind: 'Pod', name: 'p' },
    note: 'm',
    type: 'Normal',
    deprecatedSource: { component: 'kubelet' },
    deprecatedCount: 2,
    deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
    deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
  },
  emptyRelated: { metadata: meta, eventTime: '2026-01-01T00:00:00.000000Z', related: {}, regarding: {} },
  seriesOnly: {
    metadata: meta,
    eventTime: '2026-01-01T00:00:00.000000Z',
    series: { count: 2, lastObservedTime: '2026-01-01T00:00:01.000000Z' },
  },
};

const wireEvent = (e: Event) => encodeObject(e as unknown as Record<string, unknown>, eventsV1EventSchema);
const wireCore = (c: CoreEvent) => encodeObject(c as unknown as Record<string, unknown>, coreEventSchema);

describe('events.k8s.io/v1 <-> core/v1 conversion', () => {
  for (const [name, e] of Object.entries(shapes)) {
    it(`round-trips the ${name} shape both ways on the wire`, () => {
      const core = eventToCore(e);
      expect(wireEvent(coreToEvent(core))).toEqual(wireEvent(e));
      expect(wireCore(eventToCore(coreToEvent(core)))).toEqual(wireCore(core));
    });
  }

  it('maps every renamed field', () => {
    const c = eventToCore(shapes['full']!);
    expect(c.involvedObject).toEqual(shapes['full']!.regarding);
    expect(c.message).toBe('hello');
    expect(c.reportingComponent).toBe('example.com/c');
    expect(c.source).toEqual({ component: 'kubelet', host: 'n1' });
    expect(c.firstTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(c.lastTimestamp).toBe('2026-01-01T00:05:00Z');
    expect(c.count).toBe(9);
    expect(c.series).toEqual({ count: 4, lastObservedTime: '2026-01-01T00:10:00.000000Z' });
  });

  it('encodes like Go: always-present structs, null times, no empty strings', () => {
    const core = wireCore(eventToCore(shapes['minimal']!));
    expect(core).toEqual({
      metadata: { ...meta },
      involvedObject: {},
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: '2026-01-01T00:00:00.000001Z',
      reportingComponent: '',
      reportingInstance: '',
    });
    expect(Object.keys(wireEvent(shapes['legacyOnly']!))).toEqual([
      'metadata',
      'eventTime',
      'reason',
      'regarding',
      'note',
      'type',
      'deprecatedSource',
      'deprecatedFirstTimestamp',
      'deprecatedLastTimestamp',
      'deprecatedCount',
    ]);
    expect(wireEvent(shapes['legacyOnly']!)['eventTime']).toBeNull();
  });
});
