#!/usr/bin/env node
// The aggregated path's filters in isolation, in one process: the authentication, impersonation
// and authorization hooks kevents installs, called directly on a create's request as a front
// proxy sends it (a real IncomingMessage with X-Remote-User/X-Remote-Group, a TLS socket whose
// client certificate chains to the request-header CA, the same socket for every request as on
// one keep-alive connection) with the chain and the delegating authorizer the server builds
// (metrics on, the SubjectAccessReview cache warm from a stand-in webhook). The same loop with
// nothing configured (what the anonymous server installs) is the baseline; the difference is the
// filters' cost per request. Batches alternate between the two; the result is the median batch.
// Usage: node tools/bench/aggregated-filters.js [--iterations=200000] [--batches=10] [--groups=1]
//        (after npm run build)
import './lib/help.js';
import { IncomingMessage } from 'node:http';
import { X509Certificate } from 'node:crypto';
import { Registry } from 'prom-client';
import { AuthenticationChain, AuthenticationMetrics } from '@kevents/authn';
import { generateCA, generateClientCert } from '@kevents/authn/testing';
import { AuthorizationMetrics, delegatingAuthorizer } from '@kevents/authz';
import { WebhookServer, subjectAccessReviewPath } from '@kevents/authz/testing';
import { ServerMetrics } from '@kevents/apiserver';
import { installAuthentication } from '../../packages/apiserver/dist/filters/authentication.js';
import { installAuthorization } from '../../packages/apiserver/dist/filters/authorization.js';
import { installImpersonation } from '../../packages/apiserver/dist/filters/impersonation.js';
import { median, numberArg } from './lib/args.js';

const iterations = numberArg('iterations', 200_000);
const batches = numberArg('batches', 10);
const groups = numberArg('groups', 1);

/** The hooks an install function adds, and a request prototype with its decorations. */
function filters(install) {
  const hooks = [];
  const decorations = {};
  const app = {
    addHook: (name, fn) => {
      if (name !== 'onRequest') throw new Error(`unexpected hook ${name}`);
      hooks.push(fn);
    },
    decorateRequest: (name, value) => {
      decorations[name] = value;
    },
  };
  install(app);
  return { hooks, decorations };
}

class FakeRequest {
  constructor(raw) {
    this.raw = raw;
    this.method = 'POST';
    this.url = '/apis/events.k8s.io/v1/namespaces/bench/events';
    this.query = {};
    this.user = null;
    this.requestInfo = {
      isResourceRequest: true,
      path: this.url,
      verb: 'create',
      apiPrefix: 'apis',
      apiGroup: 'events.k8s.io',
      apiVersion: 'v1',
      namespace: 'bench',
      resource: 'events',
      subresource: '',
      name: '',
      parts: ['namespaces', 'bench', 'events'],
    };
  }
  get headers() {
    return this.raw.headers;
  }
}

const reply = { raw: { destroyed: false, on() {}, off() {} }, header: () => reply, code: () => reply };

const ca = await generateCA('front-proxy-ca');
const proxy = await generateClientCert(ca, 'front-proxy-client');
const der = new X509Certificate(proxy.cert).raw;
const peer = { raw: der };
peer.issuerCertificate = peer;
const socket = { getPeerCertificate: () => peer, encrypted: true };
const sar = await WebhookServer.start({ token: 'delegator', path: subjectAccessReviewPath });

const registry = new Registry();
const chain = new AuthenticationChain({
  requestHeader: { clientCA: ca.cert, allowedNames: ['front-proxy-client'] },
  anonymousFlag: true,
  metrics: new AuthenticationMetrics(registry, 'bench'),
});
const authorizer = delegatingAuthorizer({
  connection: { server: new URL(sar.url).origin, ca: sar.ca.cert, insecureSkipTLSVerify: false, token: 'delegator' },
  alwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
  alwaysAllowGroups: ['system:masters'],
  authorizedTTLMs: 3_600_000,
  unauthorizedTTLMs: 3_600_000,
  metrics: new AuthorizationMetrics(registry),
});
const serverMetrics = new ServerMetrics();

const aggregated = filters((app) => {
  installAuthentication(app, { authenticator: chain, anonymous: true });
  installImpersonation(app, authorizer);
  installAuthorization(app, authorizer, serverMetrics);
});
const anonymous = filters((app) => {
  installAuthentication(app, {});
  installImpersonation(app, undefined);
  installAuthorization(app, undefined, serverMetrics);
});

const common = [
  'Host',
  '127.0.0.1:6443',
  'Content-Type',
  'application/json',
  'Content-Length',
  '420',
  'Connection',
  'keep-alive',
];
const front = ['X-Remote-User', 'alice'];
for (let g = 0; g < groups; g++) front.push('X-Remote-Group', g === 0 ? 'devs' : `group-${g}`);
const rawHeaders = { aggregated: [...common, ...front], anonymous: common };

function request(kind) {
  const raw = new IncomingMessage(socket);
  // As Node's parser hands them; `headers` is computed from `rawHeaders` on first read.
  raw._addHeaderLines(rawHeaders[kind], rawHeaders[kind].length);
  return new FakeRequest(raw);
}

/** Runs the hooks on one request; resolves when one answered asynchronously. */
function run(set, req) {
  let pending;
  for (const hook of set.hooks) {
    let called = false;
    let error;
    hook(req, reply, (err) => {
      called = true;
      error = err;
    });
    if (!called) {
      pending = true;
      break;
    }
    if (error) throw error;
  }
  return pending;
}

// Warm the SubjectAccessReview cache (the first create asks the stand-in) and check the answer.
for (;;) {
  const req = request('aggregated');
  if (!run(aggregated, req)) {
    if (req.user?.username !== 'alice') throw new Error(`authenticated as ${JSON.stringify(req.user)}`);
    if (req.headers['x-remote-user'] !== undefined) throw new Error('front-proxy headers left on the request');
    break;
  }
  await new Promise((r) => setTimeout(r, 50));
}

function batch(set, kind) {
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < iterations; i++) {
    const req = request(kind);
    if (run(set, req)) throw new Error('an answer was not synchronous');
    sink += req.headers['content-length'].length;
  }
  const ns = Number(process.hrtime.bigint() - start) / iterations;
  if (sink === 0) throw new Error('unreachable');
  return ns;
}

const results = { anonymous: [], aggregated: [], difference: [] };
for (let b = 0; b < batches; b++) {
  const order = b % 2 === 0 ? ['anonymous', 'aggregated'] : ['aggregated', 'anonymous'];
  const round = {};
  for (const kind of order) round[kind] = batch(kind === 'aggregated' ? aggregated : anonymous, kind);
  results.anonymous.push(round.anonymous);
  results.aggregated.push(round.aggregated);
  results.difference.push(round.aggregated - round.anonymous);
  process.stderr.write(
    `batch ${b + 1}: anonymous ${round.anonymous.toFixed(0)} ns, aggregated ${round.aggregated.toFixed(0)} ns per request\n`,
  );
}
await sar.close();
const m = (xs) => median(xs.slice(1)); // the first batch warms up
process.stdout.write(
  `${JSON.stringify({ iterations, batches, groups, anonymousNs: m(results.anonymous), aggregatedNs: m(results.aggregated), differenceNs: m(results.difference), subjectAccessReviews: sar.calls })}\n`,
);
