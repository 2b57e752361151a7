// Random JSON patches and JSON merge patches for compare.js, over small random documents: paths
// to members and elements that exist and to ones that do not (past the end, `-`, negative
// indexes, leading zeros, signs, escapes `~0` `~1` and broken ones, no leading slash, empty
// segments), every operation with its fields missing, of the wrong type or doubled, and values
// of every JSON type.

export { seededRandom as random } from '../lib/seeded-random.js';

const keys = ['a', 'b', 'c', '0', '1', '01', '-', '~', '/', 'a/b', 'a~b', '', ' '];

function scalar(r) {
  return r.pick([null, true, false, 0, 1, -1, 2.5, 1e3, 'x', '', 'a/b', '~1']);
}

/** A JSON value at most `depth` levels deep. */
export function value(r, depth = 3) {
  const k = depth > 0 ? r.int(6) : 0;
  if (k <= 2) return scalar(r);
  if (k === 3) {
    const n = r.int(4);
    return Array.from({ length: n }, () => value(r, depth - 1));
  }
  const o = {};
  const n = r.int(4);
  for (let i = 0; i < n; i++) o[r.pick(keys)] = value(r, depth - 1);
  return o;
}

/** A document: always an object, as kube patches an object's JSON. */
export function documentOf(r) {
  const o = {};
  const n = 1 + r.int(4);
  for (let i = 0; i < n; i++) o[r.pick(keys)] = value(r, 3);
  return o;
}

const escape = (k) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Paths into `doc` that exist, then odd variants of them. */
function pathInto(r, doc) {
  const segs = [];
  let node = doc;
  while (node !== null && typeof node === 'object' && r.chance(0.7)) {
    if (Array.isArray(node)) {
      if (node.length === 0) break;
      const i = r.int(node.length);
      segs.push(String(i));
      node = node[i];
    } else {
      const ks = Object.keys(node);
      if (ks.length === 0) break;
      const k = r.pick(ks);
      segs.push(escape(k));
      node = node[k];
    }
  }
  if (r.chance(0.45)) {
    const len = Array.isArray(node) ? node.length : 0;
    const odd = [
      '-',
      String(len),
      String(len + 1),
      '-1',
      String(-len),
      String(-len - 1),
      '01',
      '+1',
      ' 1',
      '1e0',
      '0x1',
      '~0',
      '~1',
      '~2',
      '~',
      'missing',
      '',
      '00',
      '-0',
      '9999999999999999999999',
    ];
    segs.push(r.pick(odd));
  }
  let path = segs.map((s) => `/${s}`).join('');
  if (r.chance(0.03)) path = path.slice(1);
  if (r.chance(0.02)) path += '/';
  return path;
}

const opNames = ['add', 'remove', 'replace', 'move', 'copy', 'test'];

function operation(r, doc) {
  if (r.chance(0.02)) return r.pick([null, 'add', 1, [], true]);
  const op = {};
  op.op = r.chance(0.03) ? r.pick(['bogus', '', 'ADD', 1, null]) : r.pick(opNames);
  if (r.chance(0.97)) op.path = r.chance(0.02) ? r.pick([1, null, [], {}]) : pathInto(r, doc);
  if (op.op === 'move' || op.op === 'copy' || r.chance(0.03))
    if (r.chance(0.95)) op.from = r.chance(0.02) ? r.pick([1, null]) : pathInto(r, doc);
  if (op.op === 'add' || op.op === 'replace' || op.op === 'test' || r.chance(0.05)) {
    if (r.chance(0.95)) {
      op.value = r.chance(0.2) ? valueAt(r, doc) : value(r, 2);
    }
  }
  if (r.chance(0.02)) op.extra = 1;
  return op;
}

/** A value found in `doc` (so that `test` operations pass at times). */
function valueAt(r, doc) {
  let node = doc;
  while (node !== null && typeof node === 'object' && r.chance(0.6)) {
    const ks = Object.keys(node);
    if (ks.length === 0) break;
    node = node[r.pick(ks)];
  }
  return structuredClone(node);
}

/** A JSON patch for `doc`: usually a list of one to four operations. */
export function jsonPatchFor(r, doc) {
  if (r.chance(0.02)) return r.pick([{}, null, 'x', 1]);
  const n = 1 + r.int(4);
  return Array.from({ length: n }, () => operation(r, doc));
}

/**
 * A merge patch for `doc`: members that delete (null), replace and merge. Always an object: what
 * kube answers for another JSON value is decided after json-patch, by decoding its result.
 */
export function mergePatchFor(r, doc) {
  const merge = (target, depth) => {
    const p = {};
    const ks = target !== null && typeof target === 'object' && !Array.isArray(target) ? Object.keys(target) : [];
    const n = 1 + r.int(3);
    for (let i = 0; i < n; i++) {
      const k = ks.length && r.chance(0.6) ? r.pick(ks) : r.pick(keys);
      const k2 = r.int(4);
      if (k2 === 0) p[k] = null;
      else if (k2 === 1 && depth > 0) p[k] = merge(target?.[k], depth - 1);
      else p[k] = value(r, 2);
    }
    return p;
  };
  return merge(doc, 2);
}

/**
 * `value` as JSON text, spelled as a client might: numbers as `1.0`, `1e0`, `10E-1`, `-0`;
 * now and then a member given twice (an earlier value first: Go keeps the last).
 */
export function spell(r, value) {
  if (typeof value === 'number' && Number.isInteger(value) && r.chance(0.3)) {
    return r.pick([`${value}.0`, `${value}e0`, `${value * 10}E-1`, value === 0 ? '-0' : `${value}.00`]);
  }
  if (Array.isArray(value)) return `[${value.map((v) => spell(r, v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${spell(r, v)}`);
    const keys = Object.keys(value);
    if (keys.length && r.chance(0.05)) members.unshift(`${JSON.stringify(r.pick(keys))}:${spell(r, 'earlier')}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

const uids = ['u1', 'u2', 'u3'];
const finalizerNames = ['a.io/x', 'b.io/y', 'c'];

function ownerReference(r) {
  const o = { apiVersion: 'v1', kind: r.pick(['Pod', 'Node']), name: r.pick(['p', 'q']), uid: r.pick(uids) };
  if (r.chance(0.3)) o.controller = r.chance(0.5);
  return o;
}

function stringMap(r, domain) {
  const o = {};
  for (const k of domain) if (r.chance(0.4)) o[k] = r.pick(['1', '2', '']);
  return o;
}

/** A core/v1 Event as kube-apiserver stores it (the fields strategic merge patches meet). */
export function eventOf(r) {
  const meta = { name: 'e', namespace: 'ns', uid: 'x-1', resourceVersion: '7' };
  if (r.chance(0.6)) meta.labels = stringMap(r, ['a', 'b', 'c']);
  if (r.chance(0.4)) meta.annotations = stringMap(r, ['a', 'b']);
  if (r.chance(0.5)) meta.finalizers = Array.from({ length: r.int(4) }, () => r.pick(finalizerNames));
  if (r.chance(0.5)) {
    const refs = [];
    for (let i = r.int(4); i > 0; i--) {
      const ref = ownerReference(r);
      if (!refs.some((x) => x.uid === ref.uid) || r.chance(0.1)) refs.push(ref);
    }
    meta.ownerReferences = refs;
  }
  if (r.chance(0.2))
    meta.managedFields = [
      { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} },
    ];
  const e = {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: meta,
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns' },
    reason: 'R',
    message: 'm',
    source: { component: 'c' },
    count: 1,
    type: 'Normal',
    reportingComponent: '',
    reportingInstance: '',
  };
  if (r.chance(0.3)) e.series = { count: 2, lastObservedTime: '2026-01-01T00:00:00.000000Z' };
  if (r.chance(0.2)) e.related = { kind: 'Node', name: 'n' };
  return e;
}

function patchValue(r) {
  return r.pick([null, 'v', 1, {}, [], { a: null }, ['x'], true]);
}

/** A list patch for a merging list: items, deletions, directives, a wrong item now and then. */
function ownerReferencesPatch(r) {
  const n = r.int(4);
  const items = [];
  for (let i = 0; i < n; i++) {
    const k = r.int(10);
    if (k === 0) items.push({ uid: r.pick(uids), $patch: 'delete' });
    else if (k === 1) items.push({ $patch: r.pick(['replace', 'delete', 'merge', 'bogus']) });
    else if (k === 2) items.push({ name: 'no-uid' });
    else if (k === 3) items.push(r.pick(['str', 1, null, ['x']]));
    else {
      const ref = r.chance(0.5) ? ownerReference(r) : { uid: r.pick(uids), name: r.pick(['p', 'q', null]) };
      items.push(ref);
    }
  }
  return items;
}

/** A strategic merge patch for an Event: merges, nulls, and every directive, well and badly formed. */
export function strategicPatchFor(r) {
  const p = {};
  const meta = {};
  if (r.chance(0.4))
    meta.labels = r.chance(0.1)
      ? patchValue(r)
      : { ...stringMap(r, ['a', 'b', 'c']), ...(r.chance(0.5) ? { a: null } : {}) };
  if (r.chance(0.2))
    meta.annotations = r.chance(0.2) ? { $patch: r.pick(['replace', 'delete']), a: '9' } : { b: null, z: '1' };
  if (r.chance(0.4))
    meta.finalizers = r.chance(0.1) ? patchValue(r) : Array.from({ length: r.int(3) }, () => r.pick(finalizerNames));
  if (r.chance(0.25))
    meta['$deleteFromPrimitiveList/finalizers'] = r.chance(0.15) ? patchValue(r) : [r.pick(finalizerNames)];
  if (r.chance(0.2))
    meta['$setElementOrder/finalizers'] = r.chance(0.15)
      ? patchValue(r)
      : [r.pick(finalizerNames), r.pick(finalizerNames)];
  if (r.chance(0.4)) meta.ownerReferences = r.chance(0.1) ? patchValue(r) : ownerReferencesPatch(r);
  if (r.chance(0.2))
    meta['$setElementOrder/ownerReferences'] = r.chance(0.15)
      ? patchValue(r)
      : Array.from({ length: 1 + r.int(3) }, () => (r.chance(0.9) ? { uid: r.pick(uids) } : { name: 'x' }));
  if (r.chance(0.1))
    meta.$retainKeys = r.chance(0.2) ? patchValue(r) : ['name', 'labels', r.pick(['namespace', 'uid'])];
  if (r.chance(0.08)) meta.$patch = r.pick(['replace', 'merge', 'delete', 'bogus']);
  if (r.chance(0.1)) meta.managedFields = r.chance(0.5) ? [{ manager: 'x' }] : null;
  if (Object.keys(meta).length || r.chance(0.2)) p.metadata = meta;
  if (r.chance(0.3)) p.count = r.pick([2, null, 'x']);
  if (r.chance(0.25))
    p.series = r.chance(0.2)
      ? null
      : {
          count: 3,
          ...(r.chance(0.3) ? { lastObservedTime: null } : {}),
          ...(r.chance(0.2) ? { $patch: r.pick(['replace', 'delete']) } : {}),
        };
  if (r.chance(0.2))
    p.involvedObject = r.chance(0.2) ? { $retainKeys: ['kind'], kind: 'Node' } : { name: r.pick(['q', null]) };
  if (r.chance(0.1)) p.related = r.pick([null, { kind: 'Pod', $patch: 'replace' }, { name: 'z' }]);
  if (r.chance(0.1)) p.source = r.pick([{ host: 'h' }, { component: null }, null]);
  if (r.chance(0.05)) p.$patch = r.pick(['replace', 'bogus']);
  if (r.chance(0.05)) p.$retainKeys = ['metadata', 'kind', 'apiVersion'];
  return p;
}
