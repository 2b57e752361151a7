// Writes packages/apiserver/src/encoding/yaml-output.fixtures.json: JSON texts and what
// sigs.k8s.io/yaml's JSONToYAML (the oracle) returns for them, for the YAML writer's Jest test
// (CI has no Go). The texts: each hand-picked string as a value and as a key, each number, the key
// orders, the kube objects, folding at several depths, and a seeded sample of generated ones.
// Texts with a raw DEL, C1 control (but NEL), U+FFFE or U+FFFF, which goyaml's reader refuses
// (kube-apiserver fails those requests), have its emitter's output for the value instead.
// Left out: other texts goyaml refuses, texts whose output varies from run to run (key sets its
// comparison does not order transitively), and texts with keys outside the BMP (their order
// depends on the Unicode version of Go's tables).
//
// Usage: node tools/yaml-oracle/output-fixtures.js [--generated=200] [--seed=7]   (oracle built)

import { writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { askOracle, rawControlError } from './compare-output.js';
import {
  eventList,
  generatedCases,
  goJson,
  hardKeys,
  hardStrings,
  kubeObjects,
  numberTexts,
  rawControlStrings,
} from './output-cases.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const generated = Number(arg('generated', '200'));
const seed = Number(arg('seed', '7'));
const out = new URL('../../packages/apiserver/src/encoding/yaml-output.fixtures.json', import.meta.url);

const long = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt';
const nest = (v, depth) => {
  for (let d = 0; d < depth; d++) v = d % 2 ? [v] : { k: v };
  return v;
};
const cases = [
  ...[...hardStrings, ...rawControlStrings].map((s) => goJson({ k: s })),
  ...[...hardStrings, ...rawControlStrings].map((s) => goJson({ [s]: [s] })),
  ...numberTexts.map((n) => `{"n":${n},"l":[${n}]}`),
  goJson(Object.fromEntries(hardKeys.filter((k) => !/^v\d/.test(k)).map((k, i) => [k, i]))),
  ...kubeObjects.map((o) => goJson(o)),
  goJson(eventList(3)),
  ...[0, 1, 2, 5, 12, 30, 41].flatMap((d) => [
    goJson(nest(long, d)),
    goJson(nest(`${long}\n${long}`, d)),
    goJson(nest({ [long]: `- ${long}` }, d)),
  ]),
  ...generatedCases(generated, seed),
];
const texts = [...new Set(cases)];
// Where goyaml's reader refuses a raw control character, its emitter's output for the value.
const emitted = (answers) => {
  const refused = texts.filter((_, i) => answers[i].err === rawControlError);
  const again = new Map(askOracle(refused, true).map((a, j) => [refused[j], a]));
  return texts.map((t, i) => again.get(t) ?? answers[i]);
};
const runs = [emitted(askOracle(texts)), emitted(askOracle(texts)), emitted(askOracle(texts))];
const astralKey = /"[^"]*[\ud800-\udfff][^"]*":/;
const fixtures = texts
  .map((json, i) => ({ json, yaml: runs[0][i].yaml }))
  .filter((f, i) => f.yaml !== null && runs.every((r) => r[i].yaml === f.yaml) && !astralKey.test(f.json));
const options = { ...(await prettier.resolveConfig(out.pathname)), filepath: out.pathname };
writeFileSync(out, await prettier.format(JSON.stringify(fixtures), options));
console.log(`${fixtures.length} of ${texts.length} texts written to ${out.pathname}`);
