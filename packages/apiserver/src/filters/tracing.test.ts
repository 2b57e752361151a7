import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '@kevents/api';
import { requestInfoOf } from '../request/request-info.js';
import type { RequestQuery } from '../request/request-info.js';
import { parseRequestTarget } from '../request/request-target.js';
import { installAuthentication } from './authentication.js';
import { installRequestInfo, rewriteRequestTarget } from './request-info.js';
import {
  installTracingAuthenticated,
  installTracingAuthorized,
  installTracingStart,
  requestSpanName,
  requestTrace,
  traceHandler,
} from './tracing.js';
import type { AuthenticatedRequest, RequestTrace, ServerTracing } from './tracing.js';

const spanName = (method: string, url: string, query: RequestQuery = {}): string =>
  requestSpanName(method, requestInfoOf(method, parseRequestTarget(url), query));

describe('requestSpanName', () => {
  it("names resource requests as kube-apiserver's getSpanNameFromRequestInfo does", () => {
    expect(spanName('POST', '/apis/events.k8s.io/v1/namespaces/ns/events')).toBe(
      'POST /apis/events.k8s.io/v1/namespaces/{:namespace}/events',
    );
    expect(spanName('GET', '/api/v1/namespaces/ns/events/e')).toBe(
      'GET /api/v1/namespaces/{:namespace}/events/{:name}',
    );
    expect(spanName('GET', '/api/v1/events')).toBe('GET /api/v1/events');
    expect(spanName('PUT', '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l/status')).toBe(
      'PUT /apis/coordination.k8s.io/v1/namespaces/{:namespace}/leases/{:name}/status',
    );
    // A namespace read names itself, not a namespace scope.
    expect(spanName('GET', '/api/v1/namespaces/ns')).toBe('GET /api/v1/namespaces/{:name}');
    expect(spanName('GET', '/api/v1/namespaces')).toBe('GET /api/v1/namespaces');
  });

  it('names a non-resource request by its method alone', () => {
    expect(spanName('GET', '/healthz')).toBe('GET');
    expect(spanName('GET', '/apis')).toBe('GET');
  });
});

interface Recorded {
  readonly events: string[];
  readonly attributes: Readonly<Record<string, string>>[];
  readonly authenticated: AuthenticatedRequest[];
}

/** A ServerTracing that records what the server reports; `sampled` false answers no trace. */
function recorder(sampled = true): ServerTracing & Recorded {
  const events: string[] = [];
  const attributes: Readonly<Record<string, string>>[] = [];
  const authenticated: AuthenticatedRequest[] = [];
  const trace: RequestTrace = {
    enter: (next) => {
      events.push('enter');
      next();
    },
    authenticated: (r) => {
      events.push('authenticated');
      authenticated.push(r);
    },
    startFilter: (name) => events.push(`start ${name}`),
    endFilter: () => events.push('end filter'),
    handler: (name, attrs, fn) => {
      events.push(`handler ${name}`);
      attributes.push(attrs);
      return fn();
    },
    end: (code) => events.push(`end ${code}`),
  };
  return {
    events,
    attributes,
    authenticated,
    begin: (req) => {
      events.push(`begin ${req.method}`);
      return sampled ? trace : undefined;
    },
  };
}

const alice: Authenticator = {
  async authenticate(req) {
    return req.headers['authorization'] === 'Bearer a' ? { user: { username: 'alice', groups: [] } } : null;
  },
};

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The filter chain's tracing hooks in build-server's order, and a route that runs its handler traced. */
function build(tracing: ServerTracing): FastifyInstance {
  const a = Fastify({ rewriteUrl: (req) => rewriteRequestTarget(req) });
  installRequestInfo(a);
  installTracingStart(a, tracing);
  installAuthentication(a, { authenticator: alice, anonymous: true });
  installTracingAuthenticated(a);
  installTracingAuthorized(a);
  a.all('/*', (req) =>
    traceHandler(req, async () => ({ traced: requestTrace(req) !== null && requestTrace(req) !== undefined })),
  );
  app = a;
  return a;
}

describe('the tracing filters', () => {
  it('report a sampled request in order, with its span name, target, user and Audit-Id', async () => {
    const t = recorder();
    const res = await build(t).inject({
      method: 'GET',
      url: '/api/v1/namespaces/ns/events?limit=1',
      headers: { authorization: 'Bearer a', 'audit-id': 'given-id' },
    });
    expect(res.json()).toEqual({ traced: true });
    expect(res.headers['audit-id']).toBe('given-id');
    expect(t.events).toEqual([
      'begin GET',
      'enter',
      'authenticated',
      'start authorization',
      'enter',
      'end filter',
      'handler List',
      'end 200',
    ]);
    expect(t.authenticated).toEqual([
      {
        user: { username: 'alice', groups: [] },
        name: 'GET /api/v1/namespaces/{:namespace}/events',
        method: 'GET',
        target: '/api/v1/namespaces/ns/events?limit=1',
        auditId: 'given-id',
      },
    ]);
  });

  it('gives a request without an Audit-Id a new UUID, the same in the answer and the spans', async () => {
    const t = recorder();
    const res = await build(t).inject({ method: 'GET', url: '/healthz', headers: { 'audit-id': '' } });
    const id = res.headers['audit-id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(t.authenticated[0]?.auditId).toBe(id);
    expect(t.authenticated[0]?.name).toBe('GET');
  });

  it('leaves a request nothing can sample untouched: no Audit-Id, no spans, the handler runs plainly', async () => {
    const t = recorder(false);
    const res = await build(t).inject({ method: 'GET', url: '/api/v1/events' });
    expect(res.json()).toEqual({ traced: false });
    expect(res.headers['audit-id']).toBeUndefined();
    expect(t.events).toEqual(['begin GET']);
  });

  it("gives the handler span kube-apiserver's traceFields", async () => {
    const t = recorder();
    const a = build(t);
    const longAgent = 'k'.repeat(300);
    await a.inject({
      method: 'GET',
      url: '/api/v1/namespaces/ns/events/e',
      headers: { 'user-agent': 'kubectl/v1.35' },
    });
    await a.inject({ method: 'GET', url: '/apis/events.k8s.io/v1/namespaces/ns/events?watch=true' });
    await a.inject({ method: 'GET', url: '/apis/events.k8s.io/v1/events', headers: { 'user-agent': longAgent } });
    await a.inject({ method: 'POST', url: '/apis/events.k8s.io/v1/namespaces/ns/events', headers: { accept: 'x/y' } });
    await a.inject({ method: 'DELETE', url: '/api/v1/namespaces/ns/events' });
    await a.inject({ method: 'OPTIONS', url: '/version' });
    expect(t.events.filter((e) => e.startsWith('handler'))).toEqual([
      'handler Get',
      'handler WatchList',
      'handler List',
      'handler Create',
      'handler Delete',
      'handler options',
    ]);
    const [get, watch, list, create, deleteCollection, nonResource] = t.attributes;
    expect(get).toEqual({
      accept: '',
      'audit-id': expect.any(String),
      client: '127.0.0.1',
      'api-group': '',
      'api-version': 'v1',
      name: 'e',
      subresource: '',
      namespace: 'ns',
      protocol: 'HTTP/1.1',
      resource: 'events',
      scope: 'resource',
      url: '/api/v1/namespaces/ns/events/e',
      'user-agent': 'kubectl/v1.35',
      verb: 'GET',
    });
    expect(watch).toMatchObject({ 'api-group': 'events.k8s.io', scope: 'namespace', verb: 'WATCH' });
    expect(list).toMatchObject({ scope: 'cluster', verb: 'LIST', 'user-agent': `${'k'.repeat(256)}...` });
    expect(create).toMatchObject({ scope: 'resource', verb: 'POST', accept: 'x/y', name: '' });
    expect(deleteCollection).toMatchObject({ scope: 'namespace', verb: 'DELETE' });
    expect(nonResource).toMatchObject({ scope: 'cluster', url: '/version', resource: '' });
  });

  it('ends the trace with 499 when the client goes away before the answer', async () => {
    const t = recorder();
    const a = Fastify();
    installRequestInfo(a);
    installTracingStart(a, t);
    let arrived!: () => void;
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    a.get('/*', async () => {
      arrived();
      await new Promise((resolve) => setTimeout(resolve, 10_000).unref());
      return {};
    });
    app = a;
    await a.listen({ port: 0, host: '127.0.0.1' });
    const address = a.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const controller = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}/api/v1/events`, { signal: controller.signal }).catch(
      () => undefined,
    );
    await inHandler;
    controller.abort();
    await request;
    for (let i = 0; i < 100 && !t.events.includes('end 499'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.events).toContain('end 499');
  });
});
