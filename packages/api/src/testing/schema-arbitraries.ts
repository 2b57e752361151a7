/**
 * fast-check arbitraries for objects of a schema, for the property tests of the schema-driven
 * code (serializer, decoder): every field absent, zero, well-typed or of a stray type, plus
 * members the schema does not know.
 */
import fc from 'fast-check';
import {
  coreEventListSchema,
  coreEventSchema,
  eventsV1EventListSchema,
  eventsV1EventSchema,
} from '../schema/event-schemas.js';
import { leaseListSchema } from '../schema/lease-schemas.js';
import { deleteOptionsSchema } from '../schema/meta-schemas.js';
import { namespaceListSchema, statusSchema } from '../schema/openapi-extra-schemas.js';
import type { FieldType, ObjectSchema } from '../schema/types.js';

/** The schemas the encoders' property tests draw objects of: every kind kevents serves, lists included. */
export const propertySchemas: readonly ObjectSchema[] = [
  eventsV1EventSchema,
  coreEventSchema,
  coreEventListSchema,
  eventsV1EventListSchema,
  leaseListSchema,
  namespaceListSchema,
  statusSchema,
  deleteOptionsSchema,
];

/** Wrong types a hand-built object might hold in a scalar field. */
const stray = fc.oneof(
  fc.constantFrom(undefined, null, '', 0, false, true, 1, -3, 'x', '\u00e9"\\', [], {}),
  fc.array(fc.string(), { maxLength: 2 }),
);

/** Absent and empty values of a structured field (arrays, maps, objects). */
const emptyOf = (t: FieldType): fc.Arbitrary<unknown> => fc.constantFrom(undefined, null, t.kind === 'array' ? [] : {});

/**
 * Strings as clients send them: printable text, any code unit (controls, lone surrogates), and the
 * characters JSON escapes or leaves alone near them.
 */
const text = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength }) },
    fc.string({ maxLength, unit: 'binary' }),
    fc.constantFrom('\ud800', 'a\udc00', '\ud83d\ude00', '\u2028', '\u0000', '\u001f', '"', '\\', '\u007f', 'é'),
  );

/**
 * Map keys that are not array indices: a JavaScript object (the reference encoder's output) puts
 * those first in numeric order, where Go and the serializer sort every key as a string.
 */
const mapKey = text(4).filter((k) => !/^(0|[1-9][0-9]*)$/.test(k));

/** Values of a field type: absent, zero, well-typed, or stray. */
export function valueOf(t: FieldType, depth: number): fc.Arbitrary<unknown> {
  const typed = ((): fc.Arbitrary<unknown> => {
    switch (t.kind) {
      case 'string':
        return text(6);
      case 'integer':
        return fc.integer({ min: -5, max: 5 });
      case 'boolean':
        return fc.boolean();
      case 'time':
        return fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000001Z');
      case 'object':
        return depth > 3 ? fc.constant({}) : objectOf(t.schema(), depth + 1);
      case 'map':
        return fc.dictionary(mapKey, fc.option(valueOf(t.values, depth + 1), { nil: undefined }), {
          maxKeys: 3,
        });
      case 'array':
        return fc.array(valueOf(t.items, depth + 1), { maxLength: 2 });
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  const odd = t.kind === 'object' || t.kind === 'map' || t.kind === 'array' ? emptyOf(t) : stray;
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: odd });
}

export function objectOf(schema: ObjectSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(schema.fields.map((f) => [f.name, valueOf(f.type, depth)]));
  const extra = fc.dictionary(fc.constantFrom('unknown', 'zz', '__proto__x'), fc.jsonValue({ maxDepth: 1 }), {
    maxKeys: 2,
  });
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), extra)
    .map(([known, unknown]) => ({ ...unknown, ...known }) as Record<string, unknown>);
}
