#!/usr/bin/env node
// A tiny authorization webhook for kevents (and kube-apiserver): it answers SubjectAccessReviews
// (v1 and v1beta1) from a JSON rules file. Each rule allows some users and/or groups some verbs
// on some resources (or non-resource paths); `"*"` matches anything. A request no rule allows gets
// "no opinion", so the next authorizer in the chain decides. Rules are re-read on every change.
import { readFileSync, watchFile } from 'node:fs';
import { createServer } from 'node:https';
import { parseArgs } from 'node:util';
import { generate } from 'selfsigned';

const usage = `Usage: node tools/example-webhook/main.js --rules FILE [flags]

Serves POST /authorize over HTTPS and answers each SubjectAccessReview from the rules file.

Flags:
  --rules FILE            JSON: [{"users": [...], "groups": [...], "verbs": [...],
                          "resources": [...], "namespaces": [...], "paths": [...],
                          "deny": false, "reason": "..."}]; every list is optional, "*" matches all.
                          A rule with "deny": true denies (stops the chain) instead of allowing.
  --port N                port (default 9443)
  --bind-address ADDR     address (default 127.0.0.1)
  --tls-cert-file FILE    serving certificate (PEM); with --tls-private-key-file
  --tls-private-key-file FILE
                          without them a self-signed pair for localhost/127.0.0.1 is generated
                          and its certificate printed: put it in the kubeconfig's
                          certificate-authority-data (base64) or file.
  --token TOKEN           require "Authorization: Bearer TOKEN" (the kubeconfig user's token)
  -h, --help              this help
`;

const { values } = parseArgs({
  options: {
    rules: { type: 'string' },
    port: { type: 'string', default: '9443' },
    'bind-address': { type: 'string', default: '127.0.0.1' },
    'tls-cert-file': { type: 'string' },
    'tls-private-key-file': { type: 'string' },
    token: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
if (!values.rules) {
  process.stderr.write(`--rules is required\n\n${usage}`);
  process.exit(2);
}

let rules = [];
const loadRules = () => {
  try {
    rules = JSON.parse(readFileSync(values.rules, 'utf8'));
    if (!Array.isArray(rules)) throw new Error('the rules file must hold a JSON array');
    process.stdout.write(`loaded ${rules.length} rule(s) from ${values.rules}\n`);
  } catch (e) {
    process.stderr.write(`kept the previous rules: ${e.message}\n`);
  }
};
loadRules();
watchFile(values.rules, { interval: 500 }, loadRules);

const matches = (list, value) => list === undefined || list.includes('*') || list.includes(value);

/** The status for one review's spec: the first matching rule decides; none is no opinion. */
function decide(spec) {
  const groups = spec.groups ?? spec.group ?? []; // v1 says groups, v1beta1 group
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  for (const r of rules) {
    const who =
      (r.users === undefined && r.groups === undefined) ||
      (r.users ?? []).some((u) => u === '*' || u === spec.user) ||
      (r.groups ?? []).some((g) => g === '*' || groups.includes(g));
    if (!who) continue;
    const verb = ra ? ra.verb : nra?.verb;
    if (!matches(r.verbs, verb)) continue;
    if (ra) {
      if (r.paths !== undefined && r.resources === undefined) continue;
      const resource = ra.subresource ? `${ra.resource}/${ra.subresource}` : ra.resource;
      if (!matches(r.resources, resource) || !matches(r.namespaces, ra.namespace ?? '')) continue;
    } else if (!matches(r.paths, nra?.path) || r.paths === undefined) continue;
    const reason = r.reason ?? '';
    return r.deny ? { allowed: false, denied: true, reason } : { allowed: true, reason };
  }
  return { allowed: false, reason: 'no rule of the example webhook matches' };
}

let cert = values['tls-cert-file'] && readFileSync(values['tls-cert-file'], 'utf8');
let key = values['tls-private-key-file'] && readFileSync(values['tls-private-key-file'], 'utf8');
if (!cert || !key) {
  const pair = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  cert = pair.cert;
  key = pair.private;
  process.stdout.write(`generated a self-signed serving certificate:\n${cert}`);
}

const server = createServer({ cert, key }, (req, res) => {
  const reply = (code, body) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method !== 'POST' || req.url !== '/authorize') return reply(404, { message: 'POST /authorize' });
  if (values.token && req.headers.authorization !== `Bearer ${values.token}`)
    return reply(401, { message: 'Unauthorized' });
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let review;
    try {
      review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return reply(400, { message: 'not JSON' });
    }
    const status = decide(review.spec ?? {});
    reply(200, { apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status });
  });
});
server.listen(Number(values.port), values['bind-address'], () => {
  const { port } = server.address();
  process.stdout.write(`example webhook listening on https://${values['bind-address']}:${port}/authorize\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
process.once('SIGINT', () => server.close(() => process.exit(0)));
