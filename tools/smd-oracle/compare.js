#!/usr/bin/env node
// Runs random server-side apply cases (cases.js) through @kevents/managed-fields' Updater and
// through structured-merge-diff's merge.Updater (the Go oracle in ./oracle), and prints every
// operation whose result differs: the live object, each manager's fields, apiVersion and applied
// flag, the conflicts, or whether the operation failed. A development check, not part of
// `npm test`: it needs Go (README.md).
// Usage: node tools/smd-oracle/compare.js [--cases=2000] [--seed=1] [--show=5] [--versions] (after npm run build)
// --versions: operations at v1, v2 (the top-level field s renamed sv2) and v3 (not served), through
// a renaming converter on both sides.
import { canonicalJSON } from '../lib/canonical-json.js';
import { numberOption, startOracle } from '../lib/oracle-process.js';
import { parse as parseYAML } from 'yaml';
import {
  ConflictsError,
  Updater,
  fieldsV1ToSet,
  fromSMDSchema,
  identityConverter,
  MissingVersionError,
  pathString,
  setToFieldsV1,
  validate,
} from '@kevents/managed-fields';
import { random, testCase } from './cases.js';
import { schemaYAML, typeName, versionTypes } from './schema.js';

const count = numberOption('cases', 2000);
const seed = numberOption('seed', 1);
const show = numberOption('show', 5);

const schemaDoc = parseYAML(schemaYAML);
const type = fromSMDSchema(schemaDoc, typeName);
const typesByVersion = new Map(Object.entries(versionTypes).map(([v, name]) => [v, fromSMDSchema(schemaDoc, name)]));
const fieldOf = (version) => (version === 'v1' ? 's' : `s${version}`);

/** The oracle's renaming converter: the top-level `s` is `s<version>` past v1; v3 is not served. */
const renamingConverter = {
  convert(object, version) {
    const target = typesByVersion.get(version);
    if (!target) throw new MissingVersionError(`no corresponding type for ${version}`);
    let value = object.value;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const out = {};
      for (const [k, v] of Object.entries(value)) {
        const renamed = [...typesByVersion.keys()].some((from) => k === fieldOf(from)) ? fieldOf(version) : k;
        out[renamed] = v;
      }
      value = out;
    }
    return { value, type: target };
  },
};

/** The same steps as the oracle: structured-merge-diff's internal/fixture State. */
function runJS(tc) {
  const converter = tc.types ? renamingConverter : identityConverter;
  const updater = new Updater({ converter });
  const typeOf = (version) => (tc.types ? (typesByVersion.get(version) ?? type) : type);
  let live = { value: null, type };
  let managers = new Map(
    Object.entries(tc.managers).map(([name, m]) => [
      name,
      { set: fieldsV1ToSet(m.fields), apiVersion: m.apiVersion, applied: m.applied },
    ]),
  );
  const outs = [];
  for (const op of tc.ops) {
    const out = {};
    const value = structuredClone(op.object);
    const type = typeOf(op.apiVersion);
    try {
      validate(value, type, op.op === 'update' ? { allowDuplicates: true } : {});
      try {
        live = converter.convert(live, op.apiVersion);
      } catch (err) {
        throw Object.assign(new Error(`convert: ${err.message}`), { name: 'TypedValueError' });
      }
      if (op.op === 'update') {
        managers = updater.updateManagers(live, { value, type }, op.apiVersion, managers, op.manager);
        live = { value, type };
      } else {
        const result = updater.apply(
          live,
          { value, type },
          op.apiVersion,
          managers,
          op.manager,
          op.op === 'forceApply',
        );
        managers = result.managers;
        if (result.object) live = result.object;
        else out.noop = true;
      }
    } catch (err) {
      if (err instanceof ConflictsError) {
        out.error = 'conflicts';
        out.conflicts = err.conflicts.map((c) => `${c.manager} ${pathString(c.path)}`).sort();
      } else out.error = err.name === 'TypedValueError' ? `invalid: ${err.message}` : `${err.name}: ${err.message}`;
    }
    out.live = live.value ?? null;
    out.managers = Object.fromEntries(
      [...managers].map(([name, m]) => [
        name,
        { apiVersion: m.apiVersion, applied: m.applied, fields: setToFieldsV1(m.set) },
      ]),
    );
    outs.push(out);
  }
  return outs;
}

function differences(js, go) {
  const diffs = [];
  const kind = (o) =>
    o.error === undefined
      ? 'ok'
      : o.error.startsWith('invalid')
        ? 'invalid'
        : o.error === 'conflicts'
          ? 'conflicts'
          : 'error';
  if (kind(js) !== kind(go)) diffs.push(`outcome: kevents ${js.error ?? 'ok'} | smd ${go.error ?? 'ok'}`);
  if (canonicalJSON(js.conflicts ?? []) !== canonicalJSON(go.conflicts ?? []))
    diffs.push(`conflicts: kevents ${JSON.stringify(js.conflicts)} | smd ${JSON.stringify(go.conflicts)}`);
  if (canonicalJSON(js.live) !== canonicalJSON(go.live))
    diffs.push(`live: kevents ${canonicalJSON(js.live)} | smd ${canonicalJSON(go.live)}`);
  if (canonicalJSON(js.managers) !== canonicalJSON(go.managers))
    diffs.push(`managers: kevents ${canonicalJSON(js.managers)} | smd ${canonicalJSON(go.managers)}`);
  if (!!js.noop !== !!go.noop) diffs.push(`noop: kevents ${!!js.noop} | smd ${!!go.noop}`);
  return diffs;
}

const oracle = startOracle(new URL('./oracle/oracle', import.meta.url));
const r = random(seed);
const multiVersion = process.argv.includes('--versions');
const byKind = new Map();
let differing = 0;
let shown = 0;
for (let i = 0; i < count; i++) {
  const tc = { ...testCase(r, multiVersion), ...(multiVersion ? { types: versionTypes } : {}) };
  const go = await oracle.ask({ schema: schemaYAML, type: typeName, ...tc });
  const js = runJS(tc);
  for (let k = 0; k < tc.ops.length; k++) {
    const diffs = differences(js[k], go.ops[k]);
    if (diffs.length === 0) continue;
    differing++;
    for (const d of diffs) {
      const key = d.slice(0, d.indexOf(':'));
      byKind.set(key, (byKind.get(key) ?? 0) + 1);
    }
    if (shown++ < show) {
      console.log(`case ${i} op ${k}: ${JSON.stringify(tc)}`);
      for (const d of diffs) console.log(`  ${d}`);
    }
    break;
  }
}
oracle.close();
console.log(
  `${count} cases (seed ${seed}): ${differing} differ${differing ? ` (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`,
);
process.exitCode = differing ? 1 : 0;
