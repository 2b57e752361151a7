#!/usr/bin/env node
// Parses random label and field selectors (cases.js) with kevents' parsers
// (packages/apiserver/src/selectors) and with k8s.io/apimachinery's labels.Parse and
// fields.ParseSelector (the Go oracle in ./oracle), and prints every selector whose outcome
// differs: the requirements (key, operator and value set; in any order for label selectors,
// which Go sorts by key) or the error text, and whether a label selector matches a random label
// set (labels.Selector.Matches). A development check, not part of `npm test`: it
// needs Go (README.md).
// --kind=names checks strings as DNS-1123 labels and subdomains, label keys and label values
// (validation.IsDNS1123Label, IsDNS1123Subdomain, IsQualifiedName, IsValidLabelValue): their messages.
// Usage: node tools/selector-oracle/compare.js [--cases=20000] [--seed=1] [--show=5] [--kind=label,field,names]
//        (after npm run build)
import { numberOption, option, startOracle } from '../lib/oracle-process.js';
import { parseFieldSelector } from '../../packages/apiserver/dist/selectors/field-selector.js';
import { parseLabelSelector } from '../../packages/apiserver/dist/selectors/label-selector.js';
import { fieldSelector, labelSelector, labelSet, nameText, random } from './cases.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '@kevents/validation';

const count = numberOption('cases', 20000);
const seed = numberOption('seed', 1);
const show = numberOption('show', 5);
const kinds = option('kind', 'label,field,names').split(',');

/** Requirements as comparable text: values as a sorted set, label requirements sorted too. */
function requirementsText(kind, reqs) {
  const texts = reqs.map((q) => JSON.stringify([q.key, q.op, [...new Set(q.values)].sort()]));
  return (kind === 'label' ? texts.sort() : texts).join(' ');
}

function runJS(kind, s, labels) {
  if (kind === 'names') {
    return {
      names: {
        dns1123Label: isDNS1123Label(s),
        dns1123Subdomain: isDNS1123Subdomain(s),
        qualifiedName: isQualifiedName(s),
        labelValue: isValidLabelValue(s),
      },
    };
  }
  try {
    if (kind === 'label') {
      const sel = parseLabelSelector(s);
      return { requirements: sel.requirements, matches: sel.matches(labels) };
    }
    return {
      requirements: parseFieldSelector(s).requirements.map((q) => ({ key: q.field, op: q.op, values: [q.value] })),
    };
  } catch (err) {
    return { error: err.name === 'SelectorParseError' ? err.message : `${err.name}: ${err.message}` };
  }
}

const oracle = startOracle(new URL('./oracle/oracle', import.meta.url));
const r = random(seed);
const byKind = new Map();
let differing = 0;
let shown = 0;
for (let i = 0; i < count; i++) {
  const kind = r.pick(kinds);
  const selector = kind === 'label' ? labelSelector(r) : kind === 'field' ? fieldSelector(r) : nameText(r);
  const labels = kind === 'label' ? labelSet(r) : undefined;
  const go = await oracle.ask({ kind, selector, labels });
  const js = runJS(kind, selector, labels);
  let diff;
  if (kind === 'names') {
    for (const [check, got] of Object.entries(js.names)) {
      const want = go.names[check] ?? [];
      if (JSON.stringify(got) !== JSON.stringify(want))
        diff = `${check}: kevents ${JSON.stringify(got)} | go ${JSON.stringify(want)}`;
    }
  } else if (go.error !== undefined || js.error !== undefined) {
    if (go.error !== js.error) diff = `error: kevents ${js.error ?? 'ok'} | go ${go.error ?? 'ok'}`;
  } else {
    const a = requirementsText(kind, js.requirements);
    const b = requirementsText(kind, go.requirements ?? []);
    if (a !== b) diff = `requirements: kevents ${a} | go ${b}`;
    else if (kind === 'label' && js.matches !== go.matches)
      diff = `matches ${JSON.stringify(labels)}: kevents ${js.matches} | go ${go.matches}`;
  }
  if (diff === undefined) continue;
  differing++;
  const key = `${kind} ${diff.slice(0, diff.indexOf(':'))}`;
  byKind.set(key, (byKind.get(key) ?? 0) + 1);
  if (shown++ < show) console.log(`case ${i} (${kind}): ${JSON.stringify(selector)}\n  ${diff}`);
}
oracle.close();
console.log(
  `${count} cases (seed ${seed}): ${differing} differ${differing ? ` (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`,
);
process.exitCode = differing ? 1 : 0;
