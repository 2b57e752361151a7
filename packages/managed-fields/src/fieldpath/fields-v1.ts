import { goJSONString } from '../value/go-json.js';
import { isJsonObject } from '../value/json-value.js';
import type { JsonObject } from '../value/json-value.js';
import { comparePathElements } from './path-element.js';
import type { PathElement } from './path-element.js';
import {
  PathElementSyntaxError,
  UnknownPathElementTypeError,
  deserializePathElement,
  serializePathElement,
} from './serialize-path-element.js';
import { FieldSet } from './set.js';
import type { SetNode } from './set.js';

/**
 * Walks a set in FieldsV1 order (`emitContentsV1`): members and children merged by path element
 * order; an element that is both a member and a parent carries `".": {}` first in its object.
 */
function emit(
  set: FieldSet,
  includeSelf: boolean,
  visit: (key: string, child: FieldSet | undefined, self: boolean) => void,
): void {
  if (includeSelf && !(set.members.length === 0 && set.children.length === 0)) visit('.', undefined, false);
  const m = set.members;
  const c = set.children;
  let mi = 0;
  let ci = 0;
  while (mi < m.length && ci < c.length) {
    const d = comparePathElements(m[mi]!, c[ci]!.pe);
    if (d < 0) visit(serializePathElement(m[mi++]!), undefined, false);
    else if (d > 0) {
      visit(serializePathElement(c[ci]!.pe), c[ci]!.set, false);
      ci++;
    } else {
      visit(serializePathElement(c[ci]!.pe), c[ci]!.set, true);
      mi++;
      ci++;
    }
  }
  while (mi < m.length) visit(serializePathElement(m[mi++]!), undefined, false);
  while (ci < c.length) {
    visit(serializePathElement(c[ci]!.pe), c[ci]!.set, false);
    ci++;
  }
}

/**
 * The FieldsV1 object of a set (`metadata.managedFields[].fieldsV1`), keys in the order
 * structured-merge-diff writes them. Keys always carry a `x:` prefix or are `.`, so JavaScript
 * keeps their insertion order.
 */
export function setToFieldsV1(set: FieldSet): JsonObject {
  const build = (s: FieldSet, includeSelf: boolean): JsonObject => {
    const out: JsonObject = {};
    emit(s, includeSelf, (key, child, isMember) => {
      out[key] = child ? build(child, isMember) : {};
    });
    return out;
  };
  return build(set, false);
}

/**
 * The FieldsV1 JSON text of a set byte for byte as structured-merge-diff's `Set.ToJSON` writes
 * it (json-iterator's HTML-safe escaping of keys); `JSON.stringify(setToFieldsV1(s))` differs
 * only for keys holding `<`, `>`, `&`, U+2028 or U+2029.
 */
export function setToFieldsV1JSON(set: FieldSet): string {
  const write = (s: FieldSet, includeSelf: boolean): string => {
    const parts: string[] = [];
    emit(s, includeSelf, (key, child, isMember) => {
      parts.push(goJSONString(key, 'jsoniter') + ':' + (child ? write(child, isMember) : '{}'));
    });
    return '{' + parts.join(',') + '}';
  };
  return write(set, false);
}

/** A FieldsV1 value that cannot be read as a field set. */
export class FieldsV1Error extends Error {
  override readonly name = 'FieldsV1Error';
}

/**
 * Reads a FieldsV1 object into a set (`Set.FromJSON`): `.` marks the enclosing element as a
 * member, an element whose object is empty is a member, keys of unknown element types are
 * dropped, malformed keys are an error.
 */
export function fieldsV1ToSet(fields: unknown): FieldSet {
  if (!isJsonObject(fields)) throw new FieldsV1Error('FieldsV1 must be a JSON object');
  const read = (obj: JsonObject): { children: FieldSet | undefined; isMember: boolean } => {
    // Collected, then sorted once: inserting each into the sorted lists cost a splice per key
    // (a FieldsV1 of 200,000 keys held the event loop 35 s).
    const members: PathElement[] = [];
    const nodes: SetNode[] = [];
    let isMember = false;
    for (const [key, value] of Object.entries(obj)) {
      if (key === '.') {
        isMember = true;
        continue;
      }
      let pe;
      try {
        pe = deserializePathElement(key);
      } catch (err) {
        if (err instanceof UnknownPathElementTypeError) continue;
        if (err instanceof PathElementSyntaxError)
          throw new FieldsV1Error(`parsing key as path element: ${err.message}`);
        throw err;
      }
      if (!isJsonObject(value)) throw new FieldsV1Error(`value of ${JSON.stringify(key)} must be a JSON object`);
      const sub = read(value);
      if (sub.isMember) members.push(pe);
      if (sub.children) nodes.push({ pe, set: sub.children });
    }
    if (members.length === 0 && nodes.length === 0) return { children: undefined, isMember: true };
    const children = new FieldSet();
    children.members = sortedUnique(members);
    children.children = mergedNodes(nodes);
    return { children, isMember };
  };
  return read(fields).children ?? new FieldSet();
}

/** Path elements sorted, each once (different keys may read as the same element). */
function sortedUnique(members: PathElement[]): PathElement[] {
  members.sort(comparePathElements);
  return members.filter((pe, i) => i === 0 || comparePathElements(members[i - 1]!, pe) !== 0);
}

/** Child sets sorted by element, those under the same element united. */
function mergedNodes(nodes: SetNode[]): SetNode[] {
  nodes.sort((a, b) => comparePathElements(a.pe, b.pe));
  const out: SetNode[] = [];
  for (const n of nodes) {
    const last = out[out.length - 1];
    if (last && comparePathElements(last.pe, n.pe) === 0)
      out[out.length - 1] = { pe: last.pe, set: last.set.union(n.set) };
    else out.push(n);
  }
  return out;
}
