#!/usr/bin/env node
// The JSON patch body readers in process, shape by shape (lib/json-patch-bodies.js, ~3 MiB each):
// how long each scanner (excessiveNesting, countMemberNames, scanJsonShape, the strict JSON patch
// reader), JSON.parse, and the whole of readPatch (all of them, as a PATCH under the default
// fieldValidation=Warn runs them) hold the thread. With --old=<checkout> (built), the same
// functions of that checkout are timed too, alternated with this one's, so that both see the same
// machine; each figure is the best of --rounds. A refusal (a 413 or 400) ends readPatch early, as
// it ends the request; the table says which. Where the checkout has the JSON patch thread
// (patch/json-patch-thread.js), `offLoop` is the longest the event loop went without running a
// 1 ms timer while a patch was read and applied there (applyJSONPatchOffLoop, to a small Event).
// Usage: npm run build && node --expose-gc tools/bench/body-scanners.js [--old=/path/to/checkout]
//          [--rounds=7] [--shapes=digits,empty-ops] [--mib=3]
import './lib/help.js';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { numberArg, stringArg } from './lib/args.js';
import { bodyBytes, jsonPatchShapes } from './lib/json-patch-bodies.js';

const rounds = numberArg('rounds', 7);
const oldRoot = stringArg('old', '');
const only = stringArg('shapes', '');
const bytes = Math.round(numberArg('mib', 0) * 1024 * 1024) || bodyBytes;
const here = resolve(import.meta.dirname, '../..');

/** The functions timed, from the built apiserver package of the checkout at `root`. */
async function load(root) {
  const dist = (p) => import(pathToFileURL(resolve(root, 'packages/apiserver/dist/handlers', p)).href);
  const [depth, dup, shape, strict, apply] = await Promise.all([
    dist('json-depth.js'),
    dist('json-duplicates.js'),
    dist('json-shape.js'),
    dist('patch/json-patch-strict.js'),
    dist('patch/apply.js'),
  ]);
  const quiet = (f) => (text) => {
    try {
      return f(text);
    } catch (err) {
      return err;
    }
  };
  const thread = await dist('patch/json-patch-thread.js').catch(() => undefined);
  return {
    offLoop: thread && ((t) => held(() => thread.applyJSONPatchOffLoop(t, live, 'Warn', limits))),
    depth: (t) => depth.excessiveNesting(t),
    names: (t) => dup.countMemberNames(t),
    scanShape: (t) => shape.scanJsonShape(t),
    strict: quiet((t) => strict.strictJSONPatchErrors(t)),
    parse: (t) => JSON.parse(t),
    readPatch: quiet((t) => apply.readPatch(t, 'application/json-patch+json', 'Warn')),
  };
}

const live = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'patched', namespace: 'default', resourceVersion: '1' },
  reason: 'Patched',
};
const { defaultValueLimits: limits } = await import(
  pathToFileURL(resolve(here, 'packages/apiserver/dist/registry/value-limits.js')).href
);

/** The longest gap between runs of a 1 ms timer while `work()` settles, in ms. */
async function held(work) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

const sets = [['new', await load(here)]];
if (oldRoot) sets.unshift(['old', await load(resolve(oldRoot))]);
const stages = ['offLoop', 'depth', 'names', 'scanShape', 'strict', 'parse', 'readPatch'];

async function time(stage, f, text) {
  globalThis.gc?.();
  if (stage === 'offLoop') return f ? [await f(text), undefined] : [NaN, undefined];
  const t0 = process.hrtime.bigint();
  const out = f(text);
  return [Number(process.hrtime.bigint() - t0) / 1e6, out];
}

const outcome = (out) => (out instanceof Error ? `${out.code ?? ''} ${out.message.slice(0, 40)}`.trim() : 'read');

const rows = [];
for (const [name, make] of Object.entries(jsonPatchShapes)) {
  if (only && !only.split(',').includes(name)) continue;
  const text = make(bytes);
  const best = {};
  let answer = '';
  for (let r = 0; r < rounds; r++) {
    for (const stage of stages) {
      // Alternated: old then new, new then old.
      const order = r % 2 === 0 ? sets : [...sets].reverse();
      for (const [label, fns] of order) {
        const [ms, out] = await time(stage, fns[stage], text);
        const key = `${label}.${stage}`;
        if (!Number.isNaN(ms)) best[key] = Math.min(best[key] ?? Infinity, ms);
        if (stage === 'readPatch' && label === 'new') answer = outcome(out);
      }
    }
  }
  const row = { shape: name, MiB: (text.length / 1048576).toFixed(2) };
  for (const stage of stages)
    row[stage] = sets.map(([label]) => best[`${label}.${stage}`]?.toFixed(1) ?? '-').join(' → ');
  row.answer = answer;
  rows.push(row);
  console.error(`${name} done`);
}
console.log(`best of ${rounds}${oldRoot ? `; old (${oldRoot}) → new (${here})` : ''}; ms`);
console.table(rows);
process.exit(0);
