import { compareStrings, compareValues, equalValues } from '../value/compare.js';
import { goValueString } from '../value/go-format.js';
import type { JsonValue } from '../value/json-value.js';

/** One field of an associative list key (`k:{"name":"x"}`). */
export interface KeyField {
  readonly name: string;
  readonly value: JsonValue;
}

/**
 * How to select a child of a value (structured-merge-diff's `fieldpath.PathElement`): a map or
 * struct field (`f:`), an associative list item by its key fields (`k:`), a set item by its
 * value (`v:`), or an atomic list item by index (`i:`; never in a field set built from a schema,
 * but decoded when found).
 */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  /** Key fields sorted by name (`value.FieldList.Sort`). */
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

/** A field name element. */
export function fieldElement(name: string): PathElement {
  return { kind: 'field', name };
}

/** A key element; the fields are sorted by name (stable, as `FieldList.Sort`). */
export function keyElement(fields: readonly KeyField[]): PathElement {
  const sorted = [...fields].sort((a, b) => compareStrings(a.name, b.name));
  return { kind: 'key', fields: sorted };
}

/** A key element from a plain object of key fields (`{name: 'a', port: 80}`). */
export function keyElementOf(fields: Readonly<Record<string, JsonValue>>): PathElement {
  return keyElement(Object.entries(fields).map(([name, value]) => ({ name, value })));
}

/** A value (set item) element. */
export function valueElement(value: JsonValue): PathElement {
  return { kind: 'value', value };
}

/** An index element. */
export function indexElement(index: number): PathElement {
  return { kind: 'index', index };
}

const order = { field: 0, key: 1, value: 2, index: 3 } as const;

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i]!.name, b[i]!.name);
    if (c !== 0) return c;
    const v = compareValues(a[i]!.value, b[i]!.value);
    if (v !== 0) return v;
  }
}

/** `PathElement.Compare`: fields < keys < values < indexes, then within each kind. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return order[a.kind] < order[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeys(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index < j ? -1 : a.index > j ? 1 : 0;
    }
  }
}

/** `PathElement.Equals` (numbers compare numerically). */
export function pathElementsEqual(a: PathElement, b: PathElement): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'field':
      return a.name === (b as typeof a).name;
    case 'key': {
      const f = (b as typeof a).fields;
      if (a.fields.length !== f.length) return false;
      return a.fields.every((k, i) => k.name === f[i]!.name && equalValues(k.value, f[i]!.value));
    }
    case 'value':
      return equalValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index === (b as typeof a).index;
  }
}

/** `PathElement.String`: `.name`, `[k=v,k2=v2]`, `[=v]`, `[3]`, as conflict messages print them. */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return '.' + pe.name;
    case 'key':
      return '[' + pe.fields.map((f) => `${f.name}=${goValueString(f.value)}`).join(',') + ']';
    case 'value':
      return `[=${goValueString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}
