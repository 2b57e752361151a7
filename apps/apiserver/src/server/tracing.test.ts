import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ServerMetrics } from '@kevents/apiserver';
import { OidcIssuer } from '@kevents/authn/testing';
import { MemoryStorage } from '@kevents/storage';
import type { OtlpTraceReceiver, ReceivedSpan } from '@kevents/tracing/testing';
import { Registry } from 'prom-client';
import { KonnectivityServer } from '@kevents/egress/testing';
import { WebhookServer } from '@kevents/authz/testing';
import { startAuthorization } from './authorization.js';
import { startAuthentication } from './authentication.js';
import { startEgress } from './egress.js';
import type { AuthenticationSetup } from './authentication.js';
import { startTracing } from './tracing.js';
import type { TracingSetup } from './tracing.js';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiserverOptions } from '../cli/flags.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-tracing-'));
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
let n = 0;
const tracingFile = (o: { endpoint?: string; samplingRatePerMillion?: number }): string => {
  const p = join(dir, `tracing-${n++}.yaml`);
  writeFileSync(p, stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'TracingConfiguration', ...o }));
  return p;
};

let receiver: OtlpTraceReceiver;
let issuer: OidcIssuer;
let authn: AuthenticationSetup;
let mastersToken: string;
let aliceToken: string;

beforeAll(async () => {
  // Imported as the server does (the SDK is loaded only when tracing is configured).
  const { OtlpTraceReceiver } = await import('@kevents/tracing/testing');
  receiver = await OtlpTraceReceiver.start();
  issuer = await OidcIssuer.start({ alg: 'ES256' });
  const configFile = join(dir, 'authn.yaml');
  writeFileSync(
    configFile,
    stringify({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthenticationConfiguration',
      jwt: [
        {
          issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
          claimMappings: { username: { claim: 'sub', prefix: 'oidc:' }, groups: { claim: 'groups', prefix: '' } },
        },
      ],
      anonymous: { enabled: true },
    }),
  );
  authn = await startAuthentication({
    options: apiserverOptions(),
    file: configFile,
    authorizer: 'AlwaysAllow',
    metrics: new ServerMetrics(),
    log: silent,
  });
  mastersToken = await issuer.mint({ sub: 'root', aud: 'kevents', groups: ['system:masters'] });
  aliceToken = await issuer.mint({ sub: 'alice', aud: 'kevents', groups: ['dev'] });
});
afterAll(async () => {
  authn?.close();
  await issuer?.stop();
  await receiver?.close();
});

/** A server traced per `config`, its spans to the test receiver. */
async function tracedServer(config: { samplingRatePerMillion?: number }): Promise<{
  srv: TestServer;
  tracing: TracingSetup;
  close(): Promise<void>;
}> {
  const tracing = await startTracing({ file: tracingFile({ endpoint: receiver.endpoint, ...config }) });
  const srv = await startTestServer({
    storage: tracing.storage(new MemoryStorage()),
    ...(authn.authenticator ? { authenticator: authn.authenticator } : {}),
    ...(tracing.server ? { tracing: tracing.server } : {}),
  });
  return {
    srv,
    tracing,
    close: async () => {
      await srv.close();
      await tracing.shutdown();
    },
  };
}

const traceparent = (traceId: string, spanId: string, sampled = true): string =>
  `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
const hex = (bytes: number): string =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
const byAudit = (auditId: string) => (s: ReceivedSpan) => s.attributes['audit-id'] === auditId;

describe('tracing of requests (OTLP gRPC to a real receiver)', () => {
  it('a create exports the request, filter, handler and storage spans with their links and attributes', async () => {
    receiver.clear();
    const t = await tracedServer({ samplingRatePerMillion: 1_000_000 });
    try {
      const r = await request(`${t.srv.url}/apis/events.k8s.io/v1/namespaces/ns1/events`, {
        method: 'POST',
        body: sampleEvent('e1', 'ns1'),
        headers: { authorization: `Bearer ${aliceToken}`, 'user-agent': 'tracing-test/1' },
      });
      expect(r.status).toBe(201);
      const auditId = r.headers.get('audit-id')!;
      expect(auditId).toMatch(/^[0-9a-f-]{36}$/);
      await t.tracing.shutdown(); // flushes the batch
      const name = 'POST /apis/events.k8s.io/v1/namespaces/{:namespace}/events';
      await receiver.waitFor((spans) => spans.some((s) => s.name === 'Create etcd3'));
      const req = receiver.spans.find((s) => s.name === name)!;
      expect(req).toBeDefined();
      expect(req.kind).toBe(2); // SERVER
      expect(req.parentSpanId).toBe(''); // alice is not privileged: a new root
      expect(req.attributes).toMatchObject({
        'http.target': '/apis/events.k8s.io/v1/namespaces/ns1/events',
        'audit-id': auditId,
        'http.response.status_code': 201,
      });
      expect(req.resource).toMatchObject({ 'service.name': 'kevents-apiserver' });
      expect(typeof req.resource['service.instance.id']).toBe('string');
      expect(Object.keys(req.resource).sort()).toEqual(['service.instance.id', 'service.name']);
      const inTrace = receiver.spans.filter((s) => s.traceId === req.traceId);
      const child = (n: string, parent: ReceivedSpan): ReceivedSpan => {
        const s = inTrace.find((x) => x.name === n);
        expect(s).toBeDefined();
        expect(s!.parentSpanId).toBe(parent.spanId);
        return s!;
      };
      const authz = child('authorization', req);
      expect(authz.scope).toBe('k8s.op/apiserver/pkg/endpoints/filterlatency');
      const create = child('Create', req);
      expect(create.scope).toBe('k8s.io/component-base/tracing');
      expect(create.attributes).toMatchObject({
        'audit-id': auditId,
        'api-group': 'events.k8s.io',
        'api-version': 'v1',
        namespace: 'ns1',
        resource: 'events',
        scope: 'resource',
        verb: 'POST',
        url: '/apis/events.k8s.io/v1/namespaces/ns1/events',
        'user-agent': 'tracing-test/1',
        protocol: 'HTTP/1.1',
      });
      const storage = child('Create etcd3', create);
      expect(storage.attributes).toMatchObject({ 'audit-id': auditId, key: '/events/ns1/e1', resource: 'events' });
      // Spans nest in time too.
      expect(create.startTimeUnixNano).toBeGreaterThanOrEqual(req.startTimeUnixNano);
      expect(storage.endTimeUnixNano).toBeLessThanOrEqual(create.endTimeUnixNano);
      // authentication precedes the request span, as in kube-apiserver: its own root.
      const authnSpans = receiver.spans.filter((s) => s.name === 'authentication');
      expect(authnSpans.length).toBe(1);
      expect(authnSpans[0]!.parentSpanId).toBe('');
      expect(authnSpans[0]!.startTimeUnixNano).toBeLessThanOrEqual(req.startTimeUnixNano + 1_000_000n);
    } finally {
      await t.close();
    }
  });

  it('a non-resource request span is named by its method alone; a GET and a list get Get and List', async () => {
    receiver.clear();
    const t = await tracedServer({ samplingRatePerMillion: 1_000_000 });
    try {
      const base = `${t.srv.url}/apis/events.k8s.io/v1/namespaces/ns1/events`;
      expect((await request(base, { method: 'POST', body: sampleEvent('e2', 'ns1') })).status).toBe(201);
      const get = await request(`${base}/e2`);
      const list = await request(base);
      const version = await request(`${t.srv.url}/version`);
      await t.tracing.shutdown();
      const named = (auditId: string, name: string) =>
        receiver.spans.find((s) => s.name === name && byAudit(auditId)(s));
      await receiver.waitFor(() => named(list.headers.get('audit-id')!, 'List(recursive=true) etcd3') !== undefined);
      expect(
        named(get.headers.get('audit-id')!, 'GET /apis/events.k8s.io/v1/namespaces/{:namespace}/events/{:name}'),
      ).toBeDefined();
      expect(named(get.headers.get('audit-id')!, 'Get')).toBeDefined();
      expect(named(list.headers.get('audit-id')!, 'List')).toBeDefined();
      expect(named(version.headers.get('audit-id')!, 'GET')).toBeDefined();
    } finally {
      await t.close();
    }
  });

  it('rate 0 exports nothing; 1,000,000 exports every request; 250,000 about a quarter', async () => {
    const requests = 400;
    const count = async (rate: number): Promise<number> => {
      receiver.clear();
      const t = await tracedServer({ samplingRatePerMillion: rate });
      try {
        for (let i = 0; i < requests; i++) {
          const r = await request(`${t.srv.url}/apis/events.k8s.io/v1/namespaces/ns1/events`);
          expect(r.status).toBe(200);
        }
        await t.tracing.shutdown(); // every queued span is exported before this resolves
        return receiver.spans.filter((s) => s.name === 'GET /apis/events.k8s.io/v1/namespaces/{:namespace}/events')
          .length;
      } finally {
        await t.close();
      }
    };
    expect(await count(0)).toBe(0);
    expect(await count(1_000_000)).toBe(requests);
    // Binomial(400, 0.25): mean 100, sd 8.7; [40, 160] is ±6.9 sd (a false failure about 1 in 10^11).
    const quarter = await count(250_000);
    expect(quarter).toBeGreaterThanOrEqual(40);
    expect(quarter).toBeLessThanOrEqual(160);
  });

  it('an incoming traceparent is the parent only for system:masters; others start a new root linked to it', async () => {
    const t = await tracedServer({ samplingRatePerMillion: 1_000_000 });
    const url = `${t.srv.url}/apis/events.k8s.io/v1/namespaces/ns1/events`;
    const name = 'GET /apis/events.k8s.io/v1/namespaces/{:namespace}/events';
    try {
      receiver.clear();
      const [anonTrace, anonSpan, rootTrace, rootSpan] = [hex(16), hex(8), hex(16), hex(8)];
      const anon = await request(url, { headers: { traceparent: traceparent(anonTrace, anonSpan) } });
      const root = await request(url, {
        headers: { traceparent: traceparent(rootTrace, rootSpan), authorization: `Bearer ${mastersToken}` },
      });
      expect([anon.status, root.status]).toEqual([200, 200]);
      await t.tracing.shutdown();
      const a = receiver.spans.find((s) => s.name === name && byAudit(anon.headers.get('audit-id')!)(s))!;
      const m = receiver.spans.find((s) => s.name === name && byAudit(root.headers.get('audit-id')!)(s))!;
      expect(a.traceId).not.toBe(anonTrace);
      expect(a.parentSpanId).toBe('');
      expect(a.links).toEqual([{ traceId: anonTrace, spanId: anonSpan }]);
      expect(m.traceId).toBe(rootTrace);
      expect(m.parentSpanId).toBe(rootSpan);
      expect(m.links).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('at rate 0 a sampled traceparent forces sampling for system:masters only', async () => {
    receiver.clear();
    const t = await tracedServer({ samplingRatePerMillion: 0 });
    const url = `${t.srv.url}/apis/events.k8s.io/v1/namespaces/ns1/events`;
    try {
      const rootTrace = hex(16);
      const anon = await request(url, { headers: { traceparent: traceparent(hex(16), hex(8)) } });
      const alice = await request(url, {
        headers: { traceparent: traceparent(hex(16), hex(8)), authorization: `Bearer ${aliceToken}` },
      });
      const root = await request(url, {
        headers: { traceparent: traceparent(rootTrace, hex(8)), authorization: `Bearer ${mastersToken}` },
      });
      expect([anon.status, alice.status, root.status]).toEqual([200, 200, 200]);
      await t.tracing.shutdown();
      expect(
        receiver.spans
          .filter((s) => s.traceId === rootTrace)
          .map((s) => s.name)
          .sort(),
      ).toEqual([
        'GET /apis/events.k8s.io/v1/namespaces/{:namespace}/events',
        'List',
        'List(recursive=true) etcd3',
        'authorization',
      ]);
      expect(receiver.spans.every((s) => s.traceId === rootTrace)).toBe(true);
      expect(receiver.spans.filter(byAudit(anon.headers.get('audit-id')!))).toEqual([]);
      expect(receiver.spans.filter(byAudit(alice.headers.get('audit-id')!))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('tracing of webhook authorizer calls', () => {
  it('each SubjectAccessReview is an HTTP POST client span in the request trace, its context sent to the webhook', async () => {
    receiver.clear();
    const webhook = await WebhookServer.start();
    const tracing = await startTracing({
      file: tracingFile({ endpoint: receiver.endpoint, samplingRatePerMillion: 1_000_000 }),
    });
    const kubeconfig = join(dir, 'webhook.kubeconfig');
    writeFileSync(kubeconfig, webhook.kubeconfig());
    const authzFile = join(dir, 'authz.yaml');
    writeFileSync(
      authzFile,
      stringify({
        apiVersion: 'apiserver.config.k8s.io/v1beta1',
        kind: 'AuthorizationConfiguration',
        authorizers: [
          {
            type: 'Webhook',
            name: 'traced',
            webhook: {
              timeout: '3s',
              subjectAccessReviewVersion: 'v1',
              matchConditionSubjectAccessReviewVersion: 'v1',
              failurePolicy: 'Deny',
              authorizedTTL: '0s',
              unauthorizedTTL: '0s',
              cacheAuthorizedRequests: false,
              cacheUnauthorizedRequests: false,
              connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
            },
          },
        ],
      }),
    );
    const authz = await startAuthorization({
      options: apiserverOptions(),
      file: authzFile,
      metrics: new ServerMetrics(),
      log: silent,
      build: { wrapTransport: tracing.webhookTransport },
    });
    const srv = await startTestServer({
      storage: tracing.storage(new MemoryStorage()),
      authorizer: authz.authorizer,
      ...(authn.authenticator ? { authenticator: authn.authenticator } : {}),
      ...(tracing.server ? { tracing: tracing.server } : {}),
    });
    try {
      const r = await request(`${srv.url}/apis/events.k8s.io/v1/namespaces/ns1/events`, {
        method: 'POST',
        body: sampleEvent('hooked', 'ns1'),
        headers: { authorization: `Bearer ${aliceToken}` },
      });
      expect(r.status).toBe(201);
      await tracing.shutdown();
      await receiver.waitFor((spans) => spans.some((s) => s.name === 'HTTP POST'));
      const req = receiver.spans.find((s) => byAudit(r.headers.get('audit-id')!)(s) && s.name.startsWith('POST '))!;
      expect(req).toBeDefined();
      const posts = receiver.spans.filter((s) => s.name === 'HTTP POST');
      expect(posts).toHaveLength(1);
      const post = posts[0]!;
      expect(post.traceId).toBe(req.traceId);
      const authzSpan = receiver.spans.find((s) => s.name === 'authorization' && s.traceId === req.traceId);
      expect([req.spanId, authzSpan?.spanId]).toContain(post.parentSpanId);
      expect(post.kind).toBe(3); // CLIENT
      expect(post.attributes).toMatchObject({ 'url.full': webhook.url, 'http.response.status_code': 200 });
      expect(webhook.received).toHaveLength(1);
      expect(webhook.received[0]!.headers['traceparent']).toBe(`00-${post.traceId}-${post.spanId}-01`);
    } finally {
      await srv.close();
      authz.close();
      await webhook.close();
    }
  });
});

describe('the exporter dials through the egress controlplane selection', () => {
  // Through a konnectivity server: with an HTTP CONNECT proxy, the collector's HTTP/2 SETTINGS frame
  // (the server speaks first) can arrive with the 200 and the dialer refuses it as Go's does.
  it('spans reach the receiver through a konnectivity server (GRPC over a Unix socket)', async () => {
    const proxy = await KonnectivityServer.start(join(dir, 'konnectivity.sock'));
    const egressFile = join(dir, 'egress.yaml');
    writeFileSync(
      egressFile,
      stringify({
        apiVersion: 'apiserver.k8s.io/v1beta1',
        kind: 'EgressSelectorConfiguration',
        egressSelections: [
          {
            name: 'controlplane',
            connection: { proxyProtocol: 'GRPC', transport: { uds: { udsName: join(dir, 'konnectivity.sock') } } },
          },
        ],
      }),
    );
    const egress = await startEgress({ file: egressFile, registry: new Registry(), log: silent });
    receiver.clear();
    const tracing = await startTracing({
      file: tracingFile({ endpoint: receiver.endpoint, samplingRatePerMillion: 1_000_000 }),
      ...(egress.selector ? { egress: egress.selector } : {}),
    });
    expect(tracing.summary).toContain('egress controlplane');
    const srv = await startTestServer({ ...(tracing.server ? { tracing: tracing.server } : {}) });
    try {
      expect((await request(`${srv.url}/version`)).status).toBe(200);
      await tracing.shutdown();
      await receiver.waitFor((spans) => spans.some((s) => s.name === 'GET'));
      expect(proxy.dials).toContain(receiver.endpoint);
    } finally {
      await srv.close();
      await proxy.close();
    }
  });
});
