#!/usr/bin/env node
// Resolves random requests (cases.js) with kevents' RequestInfo (the request target as
// parseRequestTarget reads it, the query as the router reads it (parseGoQuery), then
// requestInfoOf) and with kube-apiserver's RequestInfoFactory.NewRequestInfo after Go's net/http
// has read the target (url.ParseRequestURI, URL.Query()) (the Go oracle in ./oracle), and prints
// every request whose RequestInfo differs: what the authorizer is asked about (verb, API group
// and version, namespace, resource, subresource, name, whether it is a resource request). Targets
// one side refuses are counted apart (kevents refuses empty inner segments with a 404 before
// authorization, Go's server some percent-encodings). A development check, not part of
// `npm test`: it needs Go (README.md).
// Usage: node tools/request-info-oracle/compare.js [--cases=20000] [--seed=1] [--show=5] (after npm run build)
import { numberOption, startOracle } from '../lib/oracle-process.js';
import { requestInfoOf } from '../../packages/apiserver/dist/request/request-info.js';
import { parseRequestTarget } from '../../packages/apiserver/dist/request/request-target.js';
import { parseGoQuery } from '../../packages/apiserver/dist/request/go-query.js';
import { random, requestOf } from './cases.js';

const count = numberOption('cases', 20000);
const seed = numberOption('seed', 1);
const show = numberOption('show', 5);

const fields = [
  'isResourceRequest',
  'verb',
  'apiPrefix',
  'apiGroup',
  'apiVersion',
  'namespace',
  'resource',
  'subresource',
  'name',
];

function runJS(method, target) {
  const t = parseRequestTarget(target);
  if (t.error) return { refused: `${t.error.status.code} ${t.error.status.message}` };
  const q = target.indexOf('?');
  const raw = q < 0 ? '' : target.slice(q + 1);
  const query = parseGoQuery(raw);
  const info = requestInfoOf(method, t, query);
  return { info: Object.fromEntries(fields.map((f) => [f, info[f]])) };
}

const goInfo = (i) => ({
  isResourceRequest: i.IsResourceRequest,
  verb: i.Verb,
  apiPrefix: i.APIPrefix,
  apiGroup: i.APIGroup,
  apiVersion: i.APIVersion,
  namespace: i.Namespace,
  resource: i.Resource,
  subresource: i.Subresource,
  name: i.Name,
});

const oracle = startOracle(new URL('./oracle/oracle', import.meta.url));
const r = random(seed);
const byKind = new Map();
const count1 = (k) => byKind.set(k, (byKind.get(k) ?? 0) + 1);
let differing = 0;
let shown = 0;
for (let i = 0; i < count; i++) {
  const { method, target } = requestOf(r);
  const go = await oracle.ask({ method, target });
  const js = runJS(method, target);
  if (go.refused !== undefined || js.refused !== undefined) {
    count1(
      go.refused !== undefined && js.refused !== undefined
        ? 'refused by both'
        : go.refused
          ? 'refused by Go only'
          : 'refused by kevents only',
    );
    continue;
  }
  if (go.error !== undefined) {
    // NewRequestInfo failed (a legacy watch/ or proxy/ path with nothing after it): kube-apiserver
    // answers 500 there; kevents must only not, which its own tests check.
    count1('kube-apiserver 500');
    continue;
  }
  const want = goInfo(go.info);
  const diffs = fields.filter((f) => js.info[f] !== want[f]);
  if (diffs.length === 0) continue;
  differing++;
  count1(`differ in ${diffs.join('+')}`);
  if (shown++ < show) {
    console.log(`case ${i}: ${method} ${target}`);
    for (const f of diffs) console.log(`  ${f}: kevents ${JSON.stringify(js.info[f])} | go ${JSON.stringify(want[f])}`);
  }
}
oracle.close();
console.log(
  `${count} requests (seed ${seed}): ${differing} differ; ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`,
);
process.exitCode = differing ? 1 : 0;
