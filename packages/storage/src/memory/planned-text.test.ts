import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  canonicalObject,
  coreEventSchema,
  coreEventStoredTextPlan,
  eventsV1StoredTextPlan,
  goEscapeJSON,
} from '@kevents/api';
import type { KubeObject, StoredTextPlan } from '@kevents/api';
import { packObject } from './packed-object.js';
import { plannedText } from './planned-text.js';
import { decodeSharing } from './sharing-decode.js';

const corePlan = coreEventStoredTextPlan;
const renamingPlan = eventsV1StoredTextPlan;

/**
 * What a plan says of a stored object (StoredTextPlan's contract): the canonical text of the
 * object its sources make from the store's own decoding, with Go's escapes; undefined where that
 * has no canonical object or holds a converted member.
 */
function expected(obj: KubeObject, rv: number, plan: StoredTextPlan): string | undefined {
  const decoded = decodeSharing<KubeObject>(packObject(obj), rv) as unknown as Record<string, unknown>;
  if ((plan.converted ?? []).some((m) => decoded[m] !== undefined && decoded[m] !== null)) return undefined;
  const converted: Record<string, unknown> = {};
  for (const f of plan.schema.fields) {
    const source = plan.sources?.[f.name];
    const from = source === undefined ? f.name : source;
    if (from === null) continue;
    const v = decoded[from];
    if (v !== undefined && v !== null) converted[f.name] = v;
  }
  const c = canonicalObject(converted, plan.schema);
  return c === undefined ? undefined : goEscapeJSON(JSON.stringify(c));
}

const shuffled = <T extends Record<string, unknown>>(o: T, order: number[]): T => {
  const keys = Object.keys(o);
  const sorted = keys
    .map((k, i) => [k, order[i % Math.max(order.length, 1)] ?? i] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([k]) => k);
  return Object.fromEntries(sorted.map((k) => [k, o[k]])) as T;
};

const time = fc.date({ noInvalidDate: true, min: new Date(0) }).map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));
const microTime = fc
  .tuple(fc.date({ noInvalidDate: true, min: new Date(0) }), fc.integer({ min: 0, max: 999_999 }))
  .map(([d, us]) => d.toISOString().replace(/\.\d{3}Z$/, `.${String(us).padStart(6, '0')}Z`));
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('kubelet', 'Normal', 'Pod', 'v1', 'node-17', 'a "quoted" <b> & \\ text', 'é', 'ÿ'),
);
const order = fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 20 });
const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
const compact = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
/** A map with its keys sorted, as the canonical encoder keeps it (an unsorted one goes to the serializer). */
const sortedMap = (d: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(d).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const labelKey = fc.oneof(
  fc.constantFrom('app', 'app.kubernetes.io/name', 'tier', 'name', 'kind'),
  fc.stringMatching(/^[a-z][a-z0-9.-]{0,8}$/),
);

/** Well-formed values of each field: a plan must be able to say every Event made of them. */
const reference = fc
  .record({
    kind: optional(text),
    namespace: optional(text),
    name: optional(text),
    uid: optional(fc.oneof(fc.uuid(), text)),
    apiVersion: optional(text),
    resourceVersion: optional(text),
    fieldPath: optional(text),
    order,
  })
  .map(({ order: o, ...r }) => shuffled(compact(r), o));
const managedFields = fc.constantFrom(
  [
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-11-30T18:30:09Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:count': {}, 'f:message': {} },
    },
  ],
  [{ manager: 'x', operation: 'Apply', apiVersion: 'events.k8s.io/v1', fieldsType: 'FieldsV1', fieldsV1: {} }],
);
const metadata = fc
  .record({
    name: optional(text),
    generateName: optional(text),
    namespace: optional(text),
    uid: optional(fc.uuid()),
    resourceVersion: optional(fc.constantFrom('1', '42')),
    generation: optional(fc.integer({ min: 1, max: 9 })),
    creationTimestamp: optional(time),
    labels: optional(fc.dictionary(labelKey, text, { maxKeys: 4 }).map(sortedMap)),
    annotations: optional(fc.dictionary(labelKey, text, { maxKeys: 3 }).map(sortedMap)),
    finalizers: optional(fc.array(text, { maxLength: 2 })),
    managedFields: optional(managedFields),
    order,
  })
  .map(({ order: o, ...m }) => shuffled(compact(m), o));
const wellFormedEvent = fc
  .record({
    metadata,
    kind: optional(fc.constant('Event')),
    apiVersion: optional(fc.constantFrom('v1', 'events.k8s.io/v1')),
    involvedObject: optional(reference),
    reason: optional(text),
    message: optional(text),
    source: optional(fc.record({ component: optional(text), host: optional(text) }).map(compact)),
    firstTimestamp: optional(fc.option(time, { nil: null })),
    lastTimestamp: optional(fc.option(time, { nil: null })),
    count: optional(fc.integer({ min: 0, max: 5 })),
    type: optional(text),
    eventTime: optional(fc.option(microTime, { nil: null })),
    series: optional(fc.constant(null)),
    action: optional(text),
    related: optional(fc.option(reference, { nil: null })),
    reportingComponent: optional(text),
    reportingInstance: optional(text),
    order,
  })
  .map(({ order: o, ...e }) => shuffled(compact(e), o) as unknown as KubeObject);

/** Anything a stored Event may hold: values of other types, unknown members, odd keys, series. */
const oddValue = fc.oneof(
  // A fresh `[]` and `{}` each time: the events' changes write into the objects they set, and one
  // shared instance set in two places made a cycle.
  fc
    .constantFrom(null, '', 0, 1.5, -1, true, false, [], {}, 'é', 'Ā', 'a\u2028b', '__proto__')
    .map((v) => (Array.isArray(v) ? [] : typeof v === 'object' && v !== null ? {} : v)),
  fc.array(fc.oneof(text, fc.integer(), fc.constant(null)), { maxLength: 2 }),
  fc.dictionary(fc.oneof(labelKey, fc.constantFrom('0', '10', '__proto__', 'a"b', 'Ā')), text, { maxKeys: 3 }),
);
const oddEvent = fc
  .tuple(
    wellFormedEvent,
    fc.array(
      fc.tuple(
        fc.constantFrom('top', 'metadata', 'involvedObject', 'source', 'series'),
        fc.oneof(
          fc.constantFrom(
            'name',
            'namespace',
            'uid',
            'labels',
            'count',
            'eventTime',
            'firstTimestamp',
            'series',
            'source',
            'component',
            'involvedObject',
            'reportingComponent',
            'managedFields',
            'resourceVersion',
          ),
          fc.string({ maxLength: 4 }),
        ),
        oddValue,
      ),
      { maxLength: 4 },
    ),
  )
  .map(([e, changes]) => {
    const o = structuredClone(e) as unknown as Record<string, Record<string, unknown>>;
    for (const [where, key, v] of changes) {
      const target =
        where === 'top'
          ? (o as Record<string, unknown>)
          : typeof o[where] === 'object' && o[where] !== null
            ? o[where]
            : (o[where] = {});
      Object.defineProperty(target, key, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return o as unknown as KubeObject;
  });

describe('plannedText', () => {
  it('writes what the plan says of every well-formed Event, in either plan', () => {
    fc.assert(
      fc.property(wellFormedEvent, fc.integer({ min: 1, max: 2 ** 40 }), (e, rv) => {
        for (const plan of [corePlan, renamingPlan]) {
          const want = expected(e, rv, plan);
          expect(want).toBeDefined();
          expect(plannedText(packObject(e), rv, plan)).toBe(want);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('writes nothing but what the plan says of any stored object (else gives up)', () => {
    let written = 0;
    fc.assert(
      fc.property(oddEvent, fc.integer({ min: 1, max: 99 }), (e, rv) => {
        for (const plan of [corePlan, renamingPlan]) {
          const got = plannedText(packObject(e), rv, plan);
          if (got === undefined) continue;
          written++;
          expect(got).toBe(expected(e, rv, plan));
        }
      }),
      { numRuns: 3000 },
    );
    expect(written).toBeGreaterThan(1000);
  });

  it("puts the metadata's resourceVersion in ObjectMeta's place, dropping a stored one", () => {
    const e = {
      metadata: { managedFields: [], name: 'a', resourceVersion: '7', namespace: 'ns' },
      involvedObject: {},
    } as unknown as KubeObject;
    expect(plannedText(packObject(e), 12, corePlan)).toBe(
      '{"metadata":{"name":"a","namespace":"ns","resourceVersion":"12","creationTimestamp":null},' +
        '"involvedObject":{},"source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,' +
        '"reportingComponent":"","reportingInstance":""}',
    );
    expect(plannedText(packObject(e), 12, corePlan)).toBe(expected(e, 12, corePlan));
  });

  it('gives up on a converted member and a member name it does not read straight', () => {
    const base = { metadata: { name: 'a' } };
    expect(plannedText(packObject({ ...base, series: { count: 2 } } as KubeObject), 1, renamingPlan)).toBeUndefined();
    expect(plannedText(packObject({ ...base, series: null } as unknown as KubeObject), 1, renamingPlan)).toBeDefined();
    expect(plannedText('{"metadata":{"a\\"b":1}}', 1, corePlan)).toBeUndefined();
    expect(plannedText('{"__proto__":{}}', 1, corePlan)).toBeUndefined();
    expect(plannedText('[]', 1, corePlan)).toBeUndefined();
    expect(plannedText('{"metadata":{}', 1, corePlan)).toBeUndefined();
  });

  it('writes characters past U+00FF, UUIDs, interned values and escapes as the decoder reads them', () => {
    const e = {
      metadata: { name: 'Ā\u2028', uid: '0b7a3f4e-0000-4001-8000-000000000001', namespace: 'ns-01' },
      involvedObject: { kind: 'Pod', uid: '0B7A3F4E-0000-4001-8000-000000000001', fieldPath: 'a"b\\c' },
      message: '"quoted" \\"',
      type: 'Normal',
      eventTime: '2026-01-02T03:04:05.123456Z',
      firstTimestamp: '2026-01-02T03:04:05Z',
    } as unknown as KubeObject;
    for (const plan of [corePlan, renamingPlan]) {
      const text = plannedText(packObject(e), 5, plan);
      expect(text).toBeDefined();
      expect(text).toBe(expected(e, 5, plan));
    }
  });

  it('says what the decoder reads of a body without metadata and of lone surrogates (or gives up)', () => {
    const cases: unknown[] = [
      {},
      { metadata: null },
      { metadata: { managedFields: [{ manager: '\ud800' }] } },
      { metadata: null, message: '\ud800' },
      { metadata: { name: 'a' }, message: 'x\udc00y', reason: '\ud83d\ude00' },
    ];
    for (const obj of cases)
      for (const plan of [corePlan, renamingPlan]) {
        const got = plannedText(packObject(obj as KubeObject), 7, plan);
        if (got !== undefined) expect(got).toBe(expected(obj as KubeObject, 7, plan));
      }
    expect(plannedText(packObject({ metadata: { name: 'a' }, reason: '😀' } as KubeObject), 7, corePlan)).toBe(
      expected({ metadata: { name: 'a' }, reason: '😀' } as KubeObject, 7, corePlan),
    );
  });

  it('refuses a plan that reads one stored member twice', () => {
    const plan: StoredTextPlan = { schema: coreEventSchema, sources: { reason: 'message' } };
    expect(() => plannedText('{}', 1, plan)).toThrow('stored text plan: the stored member message is read twice');
  });
});
