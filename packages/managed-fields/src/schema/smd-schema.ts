import type { JsonValue } from '../value/json-value.js';
import { isJsonObject } from '../value/json-value.js';
import { deduced, untypedAtomic } from './deduced.js';
import type { Atom, ElementRelationship, ListType, MapType, Scalar, StructField } from './types.js';

/** A schema in structured-merge-diff's own schema language that cannot be read. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
}

type Doc = Record<string, unknown>;

const relationships = new Set(['associative', 'atomic', 'separable']);
const scalars = new Set(['numeric', 'string', 'boolean', 'untyped']);

function relationship(v: unknown, fallback: ElementRelationship): ElementRelationship {
  if (v === undefined || v === '') return fallback;
  if (typeof v !== 'string' || !relationships.has(v)) throw new SchemaError(`unknown elementRelationship ${String(v)}`);
  return v as ElementRelationship;
}

/**
 * Reads a schema written in structured-merge-diff's schema language (`schema.Schema` as YAML or
 * JSON: `types: [{name, map: {fields, elementType, elementRelationship}, list: {...}, scalar}]`)
 * and returns the named type. The test tables of structured-merge-diff are written this way;
 * the built-in names `__untyped_atomic_` and `__untyped_deduced_` are known.
 */
export function fromSMDSchema(doc: unknown, typeName: string): Atom {
  if (!isJsonObject(doc) || !Array.isArray(doc['types'])) throw new SchemaError('schema must have a types list');
  const defs = new Map<string, Doc>();
  for (const t of doc['types'] as unknown[]) {
    if (!isJsonObject(t) || typeof t['name'] !== 'string') throw new SchemaError('every type needs a name');
    defs.set(t['name'], t);
  }
  const named = new Map<string, Atom>([
    ['__untyped_atomic_', untypedAtomic],
    ['__untyped_deduced_', deduced],
  ]);

  const resolveNamed = (name: string): Atom => {
    const known = named.get(name);
    if (known) return known;
    const def = defs.get(name);
    if (!def) throw new SchemaError(`no type found matching: ${name}`);
    const atom: { scalar?: Scalar; list?: ListType; map?: MapType; name: string } = { name };
    named.set(name, atom);
    fillAtom(atom, def);
    return atom;
  };

  const fillAtom = (atom: { scalar?: Scalar; list?: ListType; map?: MapType }, d: Doc): void => {
    if (d['scalar'] !== undefined) {
      if (typeof d['scalar'] !== 'string' || !scalars.has(d['scalar']))
        throw new SchemaError(`unknown scalar ${String(d['scalar'])}`);
      atom.scalar = d['scalar'] as Scalar;
    }
    if (isJsonObject(d['list'])) {
      const l = d['list'] as Doc;
      atom.list = {
        elementType: typeRef(l['elementType']),
        elementRelationship: relationship(l['elementRelationship'], 'atomic'),
        keys: Array.isArray(l['keys']) ? (l['keys'] as string[]) : [],
      };
    }
    if (isJsonObject(d['map'])) {
      const m = d['map'] as Doc;
      const fields = new Map<string, StructField>();
      for (const f of (m['fields'] as unknown[] | undefined) ?? []) {
        if (!isJsonObject(f) || typeof f['name'] !== 'string') throw new SchemaError('every field needs a name');
        const sf: StructField =
          f['default'] !== undefined
            ? { type: typeRef(f['type']), default: f['default'] as JsonValue }
            : { type: typeRef(f['type']) };
        fields.set(f['name'], sf);
      }
      atom.map = {
        fields,
        elementRelationship: relationship(m['elementRelationship'], 'separable'),
        ...(m['elementType'] !== undefined ? { elementType: typeRef(m['elementType']) } : {}),
      };
    }
  };

  const typeRef = (r: unknown): Atom => {
    if (r === undefined || r === null) return {};
    if (!isJsonObject(r)) throw new SchemaError('a type reference must be an object');
    let atom: Atom;
    if (typeof r['namedType'] === 'string') atom = resolveNamed(r['namedType']);
    else {
      const inlined: { scalar?: Scalar; list?: ListType; map?: MapType } = {};
      fillAtom(inlined, r);
      atom = inlined;
    }
    const er = r['elementRelationship'];
    if (er === undefined) return atom;
    const rel = relationship(er, 'separable');
    if (atom.map) return { ...atom, map: { ...atom.map, elementRelationship: rel } };
    if (atom.list) return { ...atom, list: { ...atom.list, elementRelationship: rel } };
    throw new SchemaError('elementRelationship override on a scalar');
  };

  return resolveNamed(typeName);
}
