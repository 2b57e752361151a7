#!/usr/bin/env node
// Applies random JSON patches and JSON merge patches (cases.js) to random documents with
// kevents' PATCH code (`applyPatch` of packages/apiserver, as a PATCH with fieldValidation=Ignore
// runs it) and with gopkg.in/evanphx/json-patch.v4 v4.12.0, which kube-apiserver applies them
// with (the Go oracle in ./oracle), and prints every case whose outcome differs: the patched
// document (members in any order), or the error text (kevents' 422 message without kube's
// "the server rejected our request..." prefix, its 400s as they are). A development check, not
// part of `npm test`: it needs Go (README.md).
// Usage: node tools/patch-oracle/compare.js [--cases=5000] [--seed=1] [--show=5] [--kind=json|merge]
//        [--spell] (after npm run build). --spell writes the patch's numbers as 1.0, 1e0, 10E-1 or -0
//        and now and then gives a member twice.
import { canonicalJSON } from '../lib/canonical-json.js';
import { numberOption, option, startOracle } from '../lib/oracle-process.js';
import { applyPatch } from '../../packages/apiserver/dist/handlers/patch/apply.js';
import { documentOf, eventOf, jsonPatchFor, mergePatchFor, random, spell, strategicPatchFor } from './cases.js';

const count = numberOption('cases', 5000);
const seed = numberOption('seed', 1);
const show = numberOption('show', 5);
const kinds = option('kind', 'json,merge,strategic').split(',');
const spelled = process.argv.includes('--spell');

const mediaTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};
const prefix = 'the server rejected our request due to an error in our request: ';

function runJS(kind, doc, patchText) {
  try {
    return { result: applyPatch(mediaTypes[kind], doc, patchText, 'Ignore') };
  } catch (err) {
    const message = err.status?.message ?? `${err.name}: ${err.message}`;
    return { error: message.startsWith(prefix) ? message.slice(prefix.length) : message, code: err.status?.code };
  }
}

/** The json-patch oracle (JSON and merge patches) and the strategic merge patch one. */
const jsonOracle = startOracle(new URL('./oracle/oracle', import.meta.url));
const oracles = {
  json: jsonOracle,
  merge: jsonOracle,
  strategic: kinds.includes('strategic') ? startOracle(new URL('./strategic/oracle', import.meta.url)) : undefined,
};

const r = random(seed);
const byKind = new Map();
let differing = 0;
let shown = 0;
for (let i = 0; i < count; i++) {
  const kind = r.pick(kinds);
  const doc = kind === 'strategic' ? eventOf(r) : documentOf(r);
  const patch =
    kind === 'json' ? jsonPatchFor(r, doc) : kind === 'merge' ? mergePatchFor(r, doc) : strategicPatchFor(r);
  const docText = JSON.stringify(doc);
  const patchText = spelled ? spell(r, patch) : JSON.stringify(patch);
  const go = await oracles[kind].ask({ kind, doc: docText, patch: patchText });
  const js = runJS(kind, structuredClone(doc), patchText);
  let diff;
  if (go.error?.startsWith('panic: ')) {
    // kube-apiserver answers 500 where json-patch panics; kevents must answer without a 5xx.
    if (js.code === undefined || js.code < 500) continue;
    diff = `error: kevents ${js.code} ${js.error} | go ${go.error}`;
  } else if (go.error !== undefined || js.error !== undefined) {
    if (go.error !== js.error)
      diff = `error: kevents ${js.error === undefined ? 'ok' : `${js.code} ${js.error}`} | go ${go.error ?? 'ok'}`;
  } else {
    const a = canonicalJSON(js.result);
    const b = canonicalJSON(JSON.parse(go.result));
    if (a !== b) diff = `result: kevents ${a} | go ${b}`;
  }
  if (diff === undefined) continue;
  differing++;
  const key = `${kind} ${diff.slice(0, diff.indexOf(':'))}`;
  byKind.set(key, (byKind.get(key) ?? 0) + 1);
  if (shown++ < show) console.log(`case ${i} (${kind}): doc ${docText}\n  patch ${patchText}\n  ${diff}`);
}
for (const o of new Set(Object.values(oracles))) o?.close();
console.log(
  `${count} cases (seed ${seed}): ${differing} differ${differing ? ` (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`,
);
process.exitCode = differing ? 1 : 0;
