import { describe, expect, it } from '@jest/globals';
import { goEscapeJSON } from '@kevents/api';
import type { CoreEvent } from '@kevents/api';
import fc from 'fast-check';
import { MemoryStorage } from '@kevents/storage';
import { createShape } from '@kevents/apiserver';
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

/** Members in a random order (the order they were set in by whatever wrote the object). */
const reorder = (o: Record<string, unknown>, keys: number[]): Record<string, unknown> => {
  const entries = Object.entries(o).filter(([, v]) => v !== undefined);
  const weighted = entries.map((e, i) => [e, keys[i] ?? i] as const).sort((a, b) => a[1] - b[1]);
  return Object.fromEntries(weighted.map(([e]) => e));
};
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
const word = fc.oneof(fc.constantFrom('', 'kubelet', 'Pod', 'a <b> & "c"', 'é'), fc.string({ maxLength: 6 }));
const oddValue = fc.constantFrom<unknown>(null, '', 0, 7, false, true, [], {}, 'x', 'Ā');
/** Mostly `arb`, sometimes a value of another type. */
const orOdd = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: arb, weight: 12 }, { arbitrary: oddValue, weight: 1 });
const time = orOdd(fc.constantFrom('2026-01-01T00:00:00Z', '2026-11-30T18:30:09Z', null));
const keys = fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 20 });
const ref = fc
  .tuple(
    fc.record({
      kind: maybe(word),
      namespace: maybe(word),
      name: maybe(word),
      uid: maybe(fc.uuid()),
      fieldPath: maybe(word),
    }),
    keys,
  )
  .map(([r, k]) => reorder(r, k));
const coreEvent = fc
  .tuple(
    fc.record({
      metadata: fc
        .tuple(
          fc.record({
            name: word,
            namespace: maybe(word),
            uid: maybe(fc.uuid()),
            creationTimestamp: maybe(time),
            labels: maybe(fc.constantFrom({ a: '1', b: '2' }, { b: '1', a: '2' }, {})),
          }),
          keys,
        )
        .map(([m, k]) => reorder(m, k)),
      involvedObject: maybe(orOdd(ref)),
      reason: maybe(orOdd(word)),
      message: maybe(word),
      source: maybe(orOdd(fc.record({ component: maybe(word), host: maybe(word) }))),
      firstTimestamp: maybe(time),
      lastTimestamp: maybe(time),
      count: maybe(orOdd(fc.integer({ min: 0, max: 3 }))),
      type: maybe(word),
      eventTime: maybe(orOdd(fc.constantFrom('2026-01-01T00:00:00.000001Z', null))),
      series: maybe(fc.oneof(fc.constant(null), fc.record({ count: fc.integer({ min: 0, max: 3 }) }))),
      action: maybe(word),
      related: maybe(orOdd(ref)),
      reportingComponent: maybe(orOdd(word)),
      reportingInstance: maybe(word),
      kind: maybe(fc.constant('Event')),
      extra: maybe(word),
    }),
    keys,
  )
  .map(([e, k]) => reorder(e, k) as unknown as CoreEvent);

describe('ResourceView.storedText', () => {
  it("says what toJSON writes of any stored Event, in both views, wherever the memory store's writer takes it", async () => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(coreEvent, { minLength: 1, maxLength: 5 }), async (events) => {
        const storage = new MemoryStorage();
        for (const [i, e] of events.entries())
          await storage.create(
            { resource: 'events', namespace: 'n', name: `e${i}` },
            { ...e, metadata: { ...e.metadata, name: `e${i}` } },
          );
        for (const rev of (await storage.listRevisions<CoreEvent>({ resource: 'events' })).items)
          for (const view of [eventsV1View('k8s.io'), coreV1View()]) {
            const text = rev.encodeText!(view.storedText!);
            if (text === undefined) continue;
            written++;
            expect(text).toBe(goEscapeJSON(view.toJSON(rev.decodeShared!(), false)));
          }
        await storage.close();
      }),
      { numRuns: 400 },
    );
    expect(written).toBeGreaterThan(500);
  });

  it('is written from the stored form for the Events of a kubelet', async () => {
    const storage = new MemoryStorage();
    for (const [i, e] of stored.entries())
      await storage.create(
        { resource: 'events', namespace: 'n', name: `e${i}` },
        { ...e, metadata: { ...e.metadata, resourceVersion: undefined } },
      );
    const [plain, inSeries] = (await storage.listRevisions<CoreEvent>({ resource: 'events' })).items;
    for (const view of [eventsV1View('k8s.io'), coreV1View()]) {
      expect(plain!.encodeText!(view.storedText!)).toBe(goEscapeJSON(view.toJSON(plain!.decodeShared!(), false)));
      // In a series (converted by coreToEvent), with its labels out of order (the serializer's way).
      expect(inSeries!.encodeText!(view.storedText!)).toBeUndefined();
    }
    await storage.close();
  });
});

/**
 * The object with every value changed and its shape kept: non-empty strings and non-zero numbers
 * replaced by others (from `with`), lists, booleans, zeros and nulls kept, members in their order.
 */
const revalued = (v: unknown, withValue: () => string): unknown => {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'string' && v !== '') return withValue();
    if (typeof v === 'number' && v !== 0) return v > 0 ? v + 1 : v - 1;
    return v;
  }
  if (Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revalued(x, withValue)]));
};

describe('ResourceView.externalFollowsShape', () => {
  it('holds for both views: stored Events of one shape convert to wire objects of one shape', () => {
    const other = fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(coreEvent, other, (e, values) => {
        let i = 0;
        const f = revalued(e, () => values[i++ % values.length]!) as CoreEvent;
        expect(createShape(f)).toBe(createShape(e));
        for (const view of [eventsV1View('k8s.io'), coreV1View()]) {
          expect(view.externalFollowsShape).toBe(true);
          expect(createShape(view.toExternal(structuredClone(f)))).toBe(
            createShape(view.toExternal(structuredClone(e))),
          );
        }
      }),
      { numRuns: 2000 },
    );
  });
});
