// Compares kevents' YAML writer (jsonToYaml, packages/apiserver) with the one kube-apiserver
// answers Accept: application/yaml with, sigs.k8s.io/yaml v1.4.0's JSONToYAML (goyaml v2), on
// hand-picked and generated JSON texts (output-cases.js), and prints each class of difference
// with its shortest example. A class is where the first differing line of the two outputs
// differs, its letters and digits blurred, or the oracle's error. A development check, not a
// test: it needs Go and the oracle built (README.md).
//
// Usage: node tools/yaml-oracle/compare-output.js [--generated=5000] [--seed=1] [--examples=3]
//        [--oracle=tools/yaml-oracle/oracle/oracle]   (after npm run build)

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { jsonToYaml } from '../../packages/apiserver/dist/encoding/yaml-output.js';
import { generatedCases, handPickedCases } from './output-cases.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const oracle = arg('oracle', new URL('./oracle/oracle', import.meta.url).pathname);
const generated = Number(arg('generated', '5000'));
const seed = Number(arg('seed', '1'));
const examples = Number(arg('examples', '3'));
if (!existsSync(oracle)) {
  console.error(`no oracle at ${oracle}: build it first (tools/yaml-oracle/README.md)`);
  process.exit(2);
}

/** The error goyaml's reader gives a raw DEL, C1 control (but NEL), U+FFFE or U+FFFF. */
export const rawControlError = 'yaml: control characters are not allowed';

/**
 * Each JSON text's JSONToYAML answer, {yaml, err}; with `escapeControls`, the oracle first writes
 * the characters goyaml's reader refuses raw as \u escapes: the answer is then what goyaml's
 * emitter writes for the value (kube-apiserver's encoder writes them raw, and the request fails).
 */
export function askOracle(texts, escapeControls = false) {
  const run = spawnSync(oracle, [], {
    input: `${texts.map((t) => JSON.stringify({ json2yaml: t, ...(escapeControls ? { escapeControls } : {}) })).join('\n')}\n`,
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`the oracle failed: ${run.stderr}`);
  return run.stdout
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

if (import.meta.url === `file://${process.argv[1]}`) main();

function main() {
  const handPicked = handPickedCases();
  const inputs = [...new Set([...handPicked, ...generatedCases(generated, seed)])];
  const answers = askOracle(inputs);
  // What goyaml's emitter writes where its reader refuses a raw control character.
  const refusedRaw = inputs.filter((_, i) => answers[i].err === rawControlError);
  const emitted = new Map(askOracle(refusedRaw, true).map((a, j) => [refusedRaw[j], a]));

  const blur = (line) =>
    line
      .replace(/\p{L}+/gu, 'a')
      .replace(/\p{N}+/gu, '0')
      .replace(/ {2,}/g, '  ')
      .slice(0, 60);
  const classes = new Map();
  const note = (cls, text, go, kv) => {
    if (!classes.has(cls)) classes.set(cls, []);
    classes.get(cls).push({ text, go, kv });
  };
  // goyaml sorts a map's keys, which Go hands it in random order, with a comparison that is not
  // transitive for some keys (v1, v2, v10, v1beta1): its output then varies from run to run. Texts
  // whose outputs differ are asked again to tell those apart.
  const again = (() => {
    const differing = inputs.filter((t, i) => answers[i].err === null && answers[i].yaml !== tryYaml(t));
    const seen = new Map(differing.map((t) => [t, new Set()]));
    for (let r = 0; r < 12 && differing.length > 0; r++) {
      askOracle(differing).forEach((a, j) => seen.get(differing[j]).add(a.yaml));
    }
    return seen;
  })();
  function tryYaml(text) {
    try {
      return jsonToYaml(text);
    } catch {
      return undefined;
    }
  }

  let same = 0;
  let goErrors = 0;
  let varying = 0;
  inputs.forEach((text, i) => {
    const go = answers[i];
    let kv;
    try {
      kv = jsonToYaml(text);
    } catch (err) {
      return note(`kevents throws: ${err.name}`, text, go.yaml ?? go.err, err.message);
    }
    const emitter = emitted.get(text);
    if (emitter !== undefined && emitter.err === null) {
      goErrors++;
      if (emitter.yaml === kv)
        return note("goyaml's reader refuses a raw control; kevents writes its emitter's output", text, go.err, kv);
      return note("goyaml's reader refuses a raw control; kevents differs from its emitter", text, emitter.yaml, kv);
    }
    if (go.err !== null) {
      goErrors++;
      return note(`goyaml refuses: ${go.err.replace(/line \d+/, 'line N').replace(/`.*`/s, '`…`')}`, text, go.err, kv);
    }
    if (go.yaml === kv) return same++;
    const outputs = again.get(text);
    if (outputs !== undefined && outputs.size > 1) {
      varying++;
      if (outputs.has(kv))
        return note('goyaml varies (key order), kevents writes one of its outputs', text, go.yaml, kv);
      return note(`goyaml varies (key order), kevents writes none of ${outputs.size} seen`, text, go.yaml, kv);
    }
    const gl = go.yaml.split('\n');
    const kl = kv.split('\n');
    const unlisted = (lines) =>
      lines
        .map((l) => l.replace(/^((?:  |- )*)- /, (m, pre) => pre.replaceAll('- ', '  ') + '  '))
        .toSorted()
        .join('\n');
    if (gl.length === kl.length && unlisted(gl) === unlisted(kl)) {
      // Letters and digits that Go's Unicode tables (13.0 in Go 1.19, 15.0 from Go 1.21) and
      // Node's ICU disagree about sort differently.
      return note('the same lines in another order (key order)', text, go.yaml, kv);
    }
    let k = 0;
    while (k < gl.length && gl[k] === kl[k]) k++;
    note(
      `differs at: ${JSON.stringify(blur(gl[k] ?? '<end>'))} vs ${JSON.stringify(blur(kl[k] ?? '<end>'))}`,
      text,
      go.yaml,
      kv,
    );
  });

  console.log(
    `${inputs.length} JSON texts (${handPicked.length} hand-picked, seed ${seed}): ${same} the same, ` +
      `${goErrors} refused by goyaml, ${varying} where goyaml varies, ${inputs.length - same - goErrors - varying} different`,
  );
  for (const [cls, list] of [...classes].sort((a, b) => b[1].length - a[1].length)) {
    list.sort((a, b) => a.text.length - b.text.length);
    console.log(`\n${cls}: ${list.length}`);
    for (const d of list.slice(0, examples)) {
      console.log(
        `  ${JSON.stringify(d.text)}\n    kube:    ${JSON.stringify(d.go)}\n    kevents: ${JSON.stringify(d.kv)}`,
      );
    }
  }
}
