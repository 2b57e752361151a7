import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { configApiVersions, parseGoDuration, type ConfigKind } from '@kevents/api';
import { FieldError, FieldPath, notSupported, required, typeInvalid, forbidden } from '@kevents/validation';
import {
  authenticationShape,
  authorizationShape,
  egressShape,
  tracingShape,
  type FieldShape,
  type ObjectShape,
} from './schema.js';

const shapes: Readonly<Record<ConfigKind, ObjectShape>> = {
  AuthenticationConfiguration: authenticationShape,
  AuthorizationConfiguration: authorizationShape,
  EgressSelectorConfiguration: egressShape,
  TracingConfiguration: tracingShape,
};

/** The outcome of strict decoding: the plain object (durations in nanoseconds) or the errors. */
export type DecodeResult =
  | { ok: true; kind: ConfigKind; object: Record<string, unknown> }
  | { ok: false; kind?: ConfigKind; errors: FieldError[] };

/** A document-level problem (no field path): YAML syntax, empty data, not an object. */
export function documentError(detail: string): FieldError {
  return new FieldError('FieldValueInvalid', '', '', detail);
}

/**
 * Strictly decodes one YAML or JSON document into a config kind: unknown and duplicate fields,
 * wrong value types, and an apiVersion/kind this server does not serve are errors with their path.
 * @param expectedKind when given, any other kind is an error.
 */
export function decodeConfig(
  text: string,
  options: { groupDomain?: string; expectedKind?: ConfigKind } = {},
): DecodeResult {
  if (text.trim() === '') return { ok: false, errors: [documentError('empty config data')] };
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, version: '1.2' });
  if (doc.errors.length > 0)
    return { ok: false, errors: [documentError(`yaml: ${doc.errors[0]!.message.split('\n')[0]}`)] };
  const root = doc.contents as Node | null;
  if (!isMap(root)) return { ok: false, errors: [documentError('config data must be an object')] };

  const head: Record<string, unknown> = {};
  for (const pair of root.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : '';
    if ((k === 'apiVersion' || k === 'kind') && isScalar(pair.value)) head[k] = pair.value.value;
  }
  const kindErrors: FieldError[] = [];
  const kind = head['kind'];
  const all = Object.keys(shapes) as ConfigKind[];
  if (kind === undefined || kind === null || kind === '') kindErrors.push(required(FieldPath.root('kind')));
  else if (typeof kind !== 'string' || !all.includes(kind as ConfigKind))
    kindErrors.push(notSupported(FieldPath.root('kind'), kind, all));
  else if (options.expectedKind && kind !== options.expectedKind)
    kindErrors.push(notSupported(FieldPath.root('kind'), kind, [options.expectedKind]));
  if (kindErrors.length) return { ok: false, errors: kindErrors };

  const configKind = kind as ConfigKind;
  const apiVersion = head['apiVersion'];
  const accepted = configApiVersions(configKind, options.groupDomain);
  if (apiVersion === undefined || apiVersion === null || apiVersion === '')
    return { ok: false, kind: configKind, errors: [required(FieldPath.root('apiVersion'))] };
  if (typeof apiVersion !== 'string' || !accepted.includes(apiVersion)) {
    return { ok: false, kind: configKind, errors: [notSupported(FieldPath.root('apiVersion'), apiVersion, accepted)] };
  }

  const errors: FieldError[] = [];
  const object = decodeObject(root, shapes[configKind], undefined, errors);
  return errors.length ? { ok: false, kind: configKind, errors } : { ok: true, kind: configKind, object };
}

function childPath(parent: FieldPath | undefined, name: string): FieldPath {
  return parent ? parent.child(name) : FieldPath.root(name);
}

function decodeObject(
  node: Node,
  shape: ObjectShape,
  path: FieldPath | undefined,
  errors: FieldError[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isMap(node)) {
    errors.push(typeInvalid(path ?? '', plain(node), 'expected an object'));
    return out;
  }
  const seen = new Set<string>();
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const p = childPath(path, key);
    if (seen.has(key)) {
      errors.push(new FieldError('FieldValueDuplicate', p, key, `duplicate field "${key}"`));
      continue;
    }
    seen.add(key);
    const fieldShape = shape[key];
    if (!fieldShape) {
      errors.push(forbidden(p, `unknown field "${key}"`));
      continue;
    }
    const value = pair.value as Node | null;
    if (value === null || (isScalar(value) && value.value === null)) continue;
    const decoded = decodeValue(value, fieldShape, p, errors);
    if (decoded !== undefined) out[key] = decoded;
  }
  return out;
}

function decodeValue(node: Node, shape: FieldShape, path: FieldPath, errors: FieldError[]): unknown {
  if (typeof shape === 'object' && 'object' in shape) return decodeObject(node, shape.object, path, errors);
  if (typeof shape === 'object' && 'list' in shape) {
    if (!isSeq(node)) {
      errors.push(typeInvalid(path, plain(node), 'expected a list'));
      return undefined;
    }
    return node.items.map((item, i) => {
      const n = item as Node | null;
      if (n === null || (isScalar(n) && n.value === null)) return typeof shape.list === 'object' ? {} : '';
      return decodeValue(n, shape.list, path.index(i), errors);
    });
  }
  const v = isScalar(node) ? node.value : undefined;
  switch (shape) {
    case 'string':
      if (typeof v === 'string') return v;
      break;
    case 'bool':
      if (typeof v === 'boolean') return v;
      break;
    case 'int32':
      if (typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647) return v;
      break;
    case 'duration': {
      if (typeof v === 'string') {
        const d = parseGoDuration(v);
        if (d.ok) return d.nanos;
        errors.push(typeInvalid(path, v, d.error));
        return undefined;
      }
      break;
    }
  }
  const expected =
    shape === 'int32'
      ? 'an int32'
      : shape === 'duration'
        ? 'a duration string'
        : shape === 'bool'
          ? 'a boolean'
          : 'a string';
  errors.push(typeInvalid(path, plain(node), `expected ${expected}`));
  return undefined;
}

function plain(node: Node | null): unknown {
  if (node === null) return null;
  return isScalar(node) ? node.value : node.toJSON();
}
