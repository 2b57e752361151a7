import { parseJson } from '@kevents/api';
import { goJSON, goJSONString } from '../value/go-json.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonValue } from '../value/json-value.js';
import { keyElement } from './path-element.js';
import type { KeyField, PathElement } from './path-element.js';

/** A FieldsV1 key that is not a valid path element of a known type. */
export class PathElementSyntaxError extends Error {
  override readonly name = 'PathElementSyntaxError';
}

/** Thrown for a key of a type this version does not know (structured-merge-diff skips those). */
export class UnknownPathElementTypeError extends Error {
  override readonly name = 'UnknownPathElementTypeError';
  constructor() {
    super('unknown path element type');
  }
}

/**
 * A path element as a FieldsV1 key (`SerializePathElement`): `f:<name>` (raw), `k:<json object
 * of the key fields, in key order>`, `v:<json>`, `i:<index>`. JSON is written as
 * json-iterator writes it (HTML-safe escaping, nested object keys sorted).
 */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return 'f:' + pe.name;
    case 'key':
      return (
        'k:{' +
        pe.fields.map((f) => goJSONString(f.name, 'jsoniter') + ':' + goJSON(f.value, 'jsoniter')).join(',') +
        '}'
      );
    case 'value':
      return 'v:' + goJSON(pe.value, 'jsoniter');
    case 'index':
      return 'i:' + String(pe.index);
  }
}

function parseJSON(text: string, what: string): JsonValue {
  try {
    return parseJson(text) as JsonValue;
  } catch (err) {
    throw new PathElementSyntaxError(`${what}: ${(err as Error).message}`);
  }
}

/** Reads a FieldsV1 key (`DeserializePathElement`). */
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2) throw new PathElementSyntaxError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementSyntaxError(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { kind: 'field', name: rest };
    case 'v':
      return { kind: 'value', value: parseJSON(rest, 'parsing value') };
    case 'k': {
      const obj = parseJSON(rest, 'parsing key');
      if (!isJsonObject(obj)) throw new PathElementSyntaxError(`key is not a JSON object: ${s}`);
      const fields: KeyField[] = Object.entries(obj).map(([name, value]) => ({ name, value }));
      return keyElement(fields);
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest))
        throw new PathElementSyntaxError(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      return { kind: 'index', index: Number(rest) };
    }
    default:
      throw new UnknownPathElementTypeError();
  }
}
