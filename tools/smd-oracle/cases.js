// Random cases for compare.js: a sequence of applies, forced applies and updates by a few
// managers, over values drawn from small domains so that managers overlap, with some values
// of the wrong shape, repeated list keys, and managers given field sets of their own
// (as a client may send managedFields) that name fields below atomic ones.

export { seededRandom as random } from '../lib/seeded-random.js';

const strings = ['a', 'b', 'c'];
const numbers = [1, 2, 3, 1.5, 0];

function wrongShape(r) {
  return r.pick([['x'], { k: 'v' }, 'str', 7, true]);
}

function maybeWrong(r, value) {
  return r.chance(0.02) ? wrongShape(r) : value;
}

function inner(r, depth) {
  const o = {};
  if (r.chance(0.5)) o.x = maybeWrong(r, r.pick(strings));
  if (r.chance(0.4)) o.yy = maybeWrong(r, r.pick(numbers));
  if (depth < 2 && r.chance(0.25)) o.deep = inner(r, depth + 1);
  if (r.chance(0.3)) o.tags = setOf(r, strings);
  return o;
}

function setOf(r, domain) {
  const n = r.int(4);
  const out = [];
  for (let i = 0; i < n; i++) {
    const v = r.pick(domain);
    if (!out.includes(v) || r.chance(0.05)) out.push(v);
  }
  return out;
}

function item(r, depth) {
  const o = { name: r.pick(strings) };
  if (r.chance(0.03)) delete o.name;
  if (r.chance(0.5)) o.value = r.pick(strings);
  if (r.chance(0.25)) o.sub = inner(r, 1);
  if (depth < 1 && r.chance(0.25)) o.subList = items(r, depth + 1);
  return o;
}

function items(r, depth) {
  const n = r.int(4);
  const out = [];
  for (let i = 0; i < n; i++) {
    const it = item(r, depth);
    if (!out.some((o) => o.name === it.name) || r.chance(0.05)) out.push(it);
  }
  return out;
}

function port(r) {
  const o = { port: r.pick([80, 443, 8080]) };
  if (r.chance(0.6)) o.protocol = r.pick(['TCP', 'UDP']);
  if (r.chance(0.4)) o.name = r.pick(strings);
  return o;
}

function ports(r) {
  const n = r.int(4);
  const out = [];
  const key = (p) => `${p.port}/${p.protocol ?? 'TCP'}`;
  for (let i = 0; i < n; i++) {
    const p = port(r);
    if (!out.some((o) => key(o) === key(p)) || r.chance(0.05)) out.push(p);
  }
  return out;
}

function stringMap(r) {
  const o = {};
  for (const k of strings) if (r.chance(0.4)) o[k] = r.pick(strings);
  return o;
}

function deducedValue(r, depth) {
  const k = r.int(depth < 2 ? 5 : 3);
  if (k === 0) return r.pick(strings);
  if (k === 1) return r.pick(numbers);
  if (k === 2) return null;
  if (k === 3) return [deducedValue(r, depth + 1)];
  const o = {};
  for (const key of strings) if (r.chance(0.4)) o[key] = deducedValue(r, depth + 1);
  return o;
}

/** A value of the schema's root type. */
export function object(r) {
  const o = {};
  const field = (p, name, make) => {
    if (r.chance(p)) o[name] = maybeWrong(r, make());
  };
  field(0.3, 's', () => r.pick(strings));
  field(0.3, 'num', () => r.pick(numbers));
  field(0.2, 'flag', () => r.chance(0.5));
  field(0.35, 'struct', () => inner(r, 0));
  field(0.25, 'atomicStruct', () => {
    const a = {};
    if (r.chance(0.6)) a.x = r.pick(strings);
    if (r.chance(0.5)) a.yy = r.pick(numbers);
    return a;
  });
  field(0.35, 'labels', () => stringMap(r));
  field(0.25, 'atomicMap', () => stringMap(r));
  field(0.25, 'mapOfStructs', () => {
    const m = {};
    for (const k of strings) if (r.chance(0.4)) m[k] = inner(r, 1);
    return m;
  });
  field(0.3, 'set', () => setOf(r, strings));
  field(0.15, 'numSet', () => setOf(r, numbers));
  field(0.4, 'items', () => items(r, 0));
  field(0.3, 'ports', () => ports(r));
  field(0.2, 'atomicList', () => setOf(r, strings));
  field(0.15, 'atomicItems', () => items(r, 1));
  field(0.1, 'nested', () => [setOf(r, strings), setOf(r, strings)]);
  field(0.15, 'any', () => deducedValue(r, 0));
  if (r.chance(0.02)) o.unknownField = 'x';
  if (r.chance(0.02)) o.s = null;
  return o;
}

/**
 * A fieldsV1 set as a client might send it: the fields of a value, sometimes with children
 * named below atomic fields and list items that the value never had.
 */
export function fieldsOf(r, version = 'v1') {
  const f = {};
  const take = (name, child) => {
    if (r.chance(0.4)) f[`f:${name}`] = child();
  };
  take(version === 'v1' ? 's' : `s${version}`, () => ({}));
  take('num', () => ({}));
  take('atomicStruct', () => (r.chance(0.5) ? { 'f:x': {} } : {}));
  take('atomicMap', () => (r.chance(0.5) ? { [`f:${r.pick(strings)}`]: {} } : {}));
  take('atomicList', () => (r.chance(0.5) ? { [`v:"${r.pick(strings)}"`]: {} } : {}));
  take('atomicItems', () => (r.chance(0.5) ? { [`k:{"name":"${r.pick(strings)}"}`]: { '.': {}, 'f:name': {} } } : {}));
  take('labels', () => ({ [`f:${r.pick(strings)}`]: {} }));
  take('struct', () => (r.chance(0.5) ? { '.': {}, 'f:x': {} } : { 'f:yy': {} }));
  take('items', () => ({ [`k:{"name":"${r.pick(strings)}"}`]: { '.': {}, 'f:name': {}, 'f:value': {} } }));
  take('set', () => ({ [`v:"${r.pick(strings)}"`]: {} }));
  return f;
}

/** An object at `version`: its top-level `s` is `s<version>` past v1 (the multi-version cases). */
function objectAt(r, version) {
  const o = object(r);
  if (version === 'v1' || !('s' in o)) return o;
  const out = {};
  for (const [k, v] of Object.entries(o)) out[k === 's' ? `s${version}` : k] = v;
  return out;
}

/**
 * One case: managers to start from (sometimes), and one to six operations. With `versions`,
 * operations and managers are at v1, v2 or v3 (which the converter does not serve).
 */
export function testCase(r, versions = false) {
  const pickVersion = () => (versions ? r.pick(['v1', 'v1', 'v2', 'v2', 'v3']) : r.chance(0.15) ? 'v2' : 'v1');
  const managers = {};
  if (r.chance(versions ? 0.4 : 0.25)) {
    const n = 1 + r.int(2);
    for (let i = 0; i < n; i++) {
      const apiVersion = versions ? pickVersion() : r.pick(['v1', 'v2']);
      managers[`pre${i}`] = { apiVersion, applied: r.chance(0.5), fields: fieldsOf(r, versions ? apiVersion : 'v1') };
    }
  }
  const ops = [];
  const n = 1 + r.int(6);
  for (let i = 0; i < n; i++) {
    const op = r.pick(['apply', 'apply', 'forceApply', 'update', 'update']);
    const manager = r.pick(['m1', 'm2', 'm3', ...Object.keys(managers)]);
    const apiVersion = pickVersion();
    ops.push({ op, manager, apiVersion, object: versions ? objectAt(r, apiVersion) : object(r) });
  }
  return { managers, ops };
}
