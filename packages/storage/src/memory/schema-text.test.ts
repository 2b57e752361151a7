import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { coreEventSchema, eventsV1EventSchema, leaseSchema, objectMetaSchema, serializeObject } from '@kevents/api';
import type { FieldType, KubeObject, ObjectSchema } from '@kevents/api';
import type { TextShape } from '../interface.js';
import { MemoryStorage } from './memory-storage.js';
import { packedKeys } from './packed-body.js';

/** Every field but kind and apiVersion read from the member of its name (a view without renames). */
const plainShape = (schema: ObjectSchema): TextShape => ({
  schema,
  members: Object.fromEntries(
    schema.fields.filter((f) => f.name !== 'kind' && f.name !== 'apiVersion').map((f) => [f.name, f.name]),
  ),
});

/** events.k8s.io/v1 read from the core/v1 stored form (the renames of `coreToEvent`). */
const renamedShape: TextShape = {
  schema: eventsV1EventSchema,
  members: {
    metadata: 'metadata',
    eventTime: 'eventTime',
    series: 'series',
    reportingController: 'reportingComponent',
    reportingInstance: 'reportingInstance',
    action: 'action',
    reason: 'reason',
    regarding: 'involvedObject',
    related: 'related',
    note: 'message',
    type: 'type',
    deprecatedSource: 'source',
    deprecatedFirstTimestamp: 'firstTimestamp',
    deprecatedLastTimestamp: 'lastTimestamp',
    deprecatedCount: 'count',
  },
};

const coreShape = plainShape(coreEventSchema);
const leaseShape = plainShape(leaseSchema);

/** What the serializer writes of a decoded object read through a shape: the oracle. */
function expected(obj: Record<string, unknown>, shape: TextShape): string {
  const renamed: Record<string, unknown> = {};
  for (const [field, member] of Object.entries(shape.members))
    if (Object.hasOwn(obj, member)) renamed[field] = obj[member];
  return serializeObject(renamed, shape.schema);
}

const seconds = fc
  .integer({ min: 0, max: 0xffffffff })
  .map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'));

/** Strings the packer treats specially (interned, UUIDs, member-name tokens), and text JSON escapes. */
const cleanText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Pod', 'v1', 'Normal', 'kubelet', 'ns-01', 'web-0', 'spec.containers{web}') },
  fc.constantFrom('', 'a"b', 'a\\b', '<&>', '\u0000', '\u001f', 'caf\u00e9', 'name'),
  fc.uuid(),
  seconds,
  seconds.map((s) => s.replace('Z', '.123456Z')),
  fc.string({ maxLength: 8 }),
  fc.string({ minLength: 20, maxLength: 60 }),
);

/** The same and text the writer leaves to the serializer: past U+00FF, lone surrogates. */
const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Pod', 'v1', 'Normal', 'kubelet', 'ns-01', 'web-0', 'spec.containers{web}') },
  fc.constantFrom('', 'a"b', 'a\\b', '<&>', '\u0000', '\u001f', 'caf\u00e9', '\u20ac', '\u2028', '\ud800', 'name'),
  fc.uuid(),
  seconds,
  seconds.map((s) => s.replace('Z', '.123456Z')),
  fc.string({ maxLength: 8 }),
  fc.string({ minLength: 20, maxLength: 60 }),
);

/**
 * Map keys: some the packer turns into tokens; no array index (a JavaScript object holds those
 * first, out of the serializer's order, so a stored map with one is written by the serializer).
 */
const cleanKey = fc.oneof(
  fc.constantFrom(...packedKeys.slice(0, 8)),
  fc.constantFrom('a', 'b', 'é', '1x'),
  fc.string({ maxLength: 4 }).filter((k) => !k.includes('\\') && !k.includes('"') && !/^(0|[1-9][0-9]*)$/.test(k)),
);

/** The same, escapes, and `__proto__`. */
const mapKey = fc.oneof(
  fc.constantFrom(...packedKeys.slice(0, 8)),
  fc.constantFrom('a', 'b', 'a\\', 'é', '1', '10', '__proto__'),
  fc.string({ maxLength: 4 }),
);

/** Values a field of type `t` may hold in a stored object: well-typed (mostly), zero, absent, or stray. */
function valueOf(t: FieldType, depth: number, clean: boolean): fc.Arbitrary<unknown> {
  const typed = ((): fc.Arbitrary<unknown> => {
    switch (t.kind) {
      case 'string':
        return clean ? cleanText : text;
      case 'integer':
        return fc.oneof(fc.integer({ min: -3, max: 3 }), fc.integer());
      case 'boolean':
        return fc.boolean();
      case 'time':
        return fc.oneof(
          seconds,
          seconds.map((s) => s.replace('Z', '.000001Z')),
          fc.constant(''),
        );
      case 'object':
        return depth > 3 ? fc.constant({}) : objectOf(t.schema(), depth + 1, clean);
      case 'map':
        return fc
          .dictionary(clean ? cleanKey : mapKey, valueOf(t.values, depth + 1, clean), { maxKeys: 4 })
          .map((m) => (clean ? Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1))) : m));
      case 'array': {
        const items = fc.array(valueOf(t.items, depth + 1, clean), { maxLength: 2 });
        // Arrays of objects as the apiserver stores them (interned managedFields are written as stored).
        const itemSchema = t.items.kind === 'object' ? t.items.schema() : undefined;
        if (!clean || itemSchema === undefined) return items;
        return items.map((a) => a.map((item) => JSON.parse(serializeObject(item as object, itemSchema)) as unknown));
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  const stray = fc.constantFrom(null, '', 0, false, true, 7, 'x', [], {}, ['a']);
  return clean ? typed : fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: stray });
}

function objectOf(schema: ObjectSchema, depth: number, clean: boolean): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(schema.fields.map((f) => [f.name, valueOf(f.type, depth, clean)]));
  const extra = fc.dictionary(
    clean ? fc.constantFrom('unknown', 'zz') : fc.constantFrom('unknown', 'zz', 'name'),
    clean ? fc.constantFrom(1, 'x', null, { a: [true] }) : fc.jsonValue({ maxDepth: 1 }),
    { maxKeys: 2 },
  );
  return fc.tuple(fc.record(fields, { requiredKeys: [] }), extra, fc.boolean()).map(([known, unknown, reversed]) => {
    const o = { ...unknown, ...known } as Record<string, unknown>;
    return reversed && !clean ? Object.fromEntries(Object.entries(o).reverse()) : o;
  });
}

/** A stored object: its members in any order, `metadata` an object (as stores keep it). */
const storedObject = (schema: ObjectSchema, clean = false): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(objectOf(schema, 0, clean), objectOf(objectMetaSchema, 1, clean))
    .map(([o, metadata]) => ({ ...o, metadata }));

/** A typical stored Event: what the apiserver stores for a kubelet's `Pulled` event. */
function kubeletEvent(i: number): Record<string, unknown> {
  return {
    metadata: {
      name: `web-${i}.17a`,
      namespace: 'ns-01',
      uid: '529beb5a-a394-4f58-81b0-db9104b2f719',
      creationTimestamp: '2026-11-30T12:09:10Z',
      labels: { app: 'web', tier: 'front' },
      managedFields: [
        {
          manager: 'node',
          operation: 'Update',
          apiVersion: 'events.k8s.io/v1',
          time: '2026-11-30T12:09:10Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:action': {}, 'f:note': {} },
        },
      ],
    },
    involvedObject: { kind: 'Pod', namespace: 'ns-01', name: `web-${i}`, uid: '0b7a3f4e-0000-4001-8000-9e3779b1aaaa' },
    reportingComponent: 'kubelet',
    reportingInstance: 'node-17',
    reason: 'Pulled',
    message: 'Successfully pulled image "registry.example.com/web:v1" in 1.2s & <done>',
    type: 'Normal',
    eventTime: '2026-01-02T03:04:05.123456Z',
    series: { count: 2, lastObservedTime: '2026-01-02T03:04:06.000000Z' },
    action: 'Pulling',
  };
}

async function stored(objects: readonly Record<string, unknown>[]): Promise<MemoryStorage> {
  const s = new MemoryStorage();
  for (let i = 0; i < objects.length; i++)
    await s.create({ resource: 'events', namespace: 'ns', name: `o${i}` }, objects[i] as KubeObject);
  return s;
}

describe('writeSchemaText (StoredRevision.encodeText of the memory store)', () => {
  it('writes a typical Event as the serializer writes its decoded object, through either view', async () => {
    const s = await stored([kubeletEvent(1), kubeletEvent(2)]);
    const { items } = await s.listRevisions({ resource: 'events', namespace: 'ns' });
    for (const rev of items) {
      const obj = rev.decode() as unknown as Record<string, unknown>;
      for (const shape of [coreShape, renamedShape]) {
        const text = rev.encodeText!(shape);
        expect(text).toBe(expected(obj, shape));
      }
    }
    const text = items[0]!.encodeText!(renamedShape)!;
    expect(JSON.parse(text)).toMatchObject({
      reportingController: 'kubelet',
      regarding: { kind: 'Pod' },
      series: { count: 2 },
    });
    expect(text.indexOf('"resourceVersion":"')).toBeLessThan(text.indexOf('"creationTimestamp"'));
  });

  it('gives up, for the caller to serialize, where it would not write the same text', async () => {
    const odd: Record<string, unknown>[] = [
      { ...kubeletEvent(1), message: 'caf\u20ac' },
      { ...kubeletEvent(1), metadata: { name: 'x', labels: { b: '1', a: '2' } } },
      { ...kubeletEvent(1), involvedObject: 'Pod' },
      { ...kubeletEvent(1), count: '3' },
      { ...kubeletEvent(1), metadata: { name: 'x', labels: { 'a\\': '1' } } },
    ];
    const s = await stored(odd);
    const { items } = await s.listRevisions({ resource: 'events', namespace: 'ns' });
    for (const rev of items) expect(rev.encodeText!(coreShape)).toBeUndefined();
  });

  it('writes exactly what the serializer writes, or gives up (any stored object, three shapes)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(storedObject(coreEventSchema), storedObject(leaseSchema)), { minLength: 1, maxLength: 6 }),
        async (objects) => {
          const s = await stored(objects);
          const { items } = await s.listRevisions({ resource: 'events', namespace: 'ns' });
          for (const rev of items) {
            const obj = rev.decode() as unknown as Record<string, unknown>;
            for (const shape of [coreShape, renamedShape, leaseShape]) {
              const text = rev.encodeText!(shape);
              if (text !== undefined) expect(text).toBe(expected(obj, shape));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes every object of well-typed values in one-byte text with sorted maps', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(storedObject(coreEventSchema, true), storedObject(leaseSchema, true)), {
          minLength: 1,
          maxLength: 4,
        }),
        async (objects) => {
          const s = await stored(objects);
          const { items } = await s.listRevisions({ resource: 'events', namespace: 'ns' });
          for (const rev of items) {
            const obj = rev.decode() as unknown as Record<string, unknown>;
            for (const shape of [coreShape, renamedShape, leaseShape])
              expect(rev.encodeText!(shape)).toBe(expected(obj, shape));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is not misled by backslashes met out of order (members written in the schema order, not the stored one)', async () => {
    const obj = {
      reportingInstance: 'i',
      message: 'a\\"b',
      reason: 'c"d',
      involvedObject: { name: 'x\\y' },
      metadata: { name: 'n' },
    };
    const s = await stored([obj]);
    const [rev] = (await s.listRevisions({ resource: 'events', namespace: 'ns' })).items;
    for (const shape of [coreShape, renamedShape])
      expect(rev!.encodeText!(shape)).toBe(expected(rev!.decode() as never, shape));
  });
});
