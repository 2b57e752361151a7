import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { ResultMetrics } from '@kevents/metrics';
import { ApiError } from '../errors/api-error.js';
import { installAuthentication } from './authentication.js';
import {
  fieldSelectorRequirements,
  installAuthorization,
  internalErrorText,
  labelSelectorRequirements,
  requestAttributes,
} from './authorization.js';
import { installRequestInfo, rewriteRequestTarget } from './request-info.js';

describe('selector requirements for a SubjectAccessReview', () => {
  it('reads a field selector as In and NotIn requirements; none for an empty or unparsable one', () => {
    expect(fieldSelectorRequirements('metadata.name=a,type!=Normal')).toEqual([
      { key: 'metadata.name', operator: 'In', values: ['a'] },
      { key: 'type', operator: 'NotIn', values: ['Normal'] },
    ]);
    expect(fieldSelectorRequirements('a==b')).toEqual([{ key: 'a', operator: 'In', values: ['b'] }]);
    for (const none of [undefined, '', 'a', ','] as const) expect(fieldSelectorRequirements(none)).toBeUndefined();
  });

  it("reads a label selector with Kubernetes' operators, dropping gt and lt", () => {
    expect(labelSelectorRequirements('a=x,b==y,c in (p,q),d!=z,e notin (r),f,!g,h>3,i<4')).toEqual([
      { key: 'a', operator: 'In', values: ['x'] },
      { key: 'b', operator: 'In', values: ['y'] },
      { key: 'c', operator: 'In', values: ['p', 'q'] },
      { key: 'd', operator: 'NotIn', values: ['z'] },
      { key: 'e', operator: 'NotIn', values: ['r'] },
      { key: 'f', operator: 'Exists' },
      { key: 'g', operator: 'DoesNotExist' },
    ]);
    for (const none of [undefined, '', 'h>3', 'a in (', '!'] as const)
      expect(labelSelectorRequirements(none)).toBeUndefined();
  });
});

describe('internalErrorText', () => {
  it("is responsewriters' plain 500 text, HTML-escaped", () => {
    expect(internalErrorText('/api?x=<a>&b', new Error('a & b'))).toBe(
      'Internal Server Error: "/api?x=&lt;a&gt;&amp;b": a &amp; b',
    );
  });
});

/** Answers with the decision `decide` gives, and records the attributes; `async` answers in a promise. */
function authorizer(
  decide: (a: RequestAttributes) => Decision,
  async = false,
): Authorizer & { asked: RequestAttributes[] } {
  const asked: RequestAttributes[] = [];
  return {
    name: 'test',
    asked,
    authorize(a) {
      asked.push(a);
      return async ? Promise.resolve().then(() => decide(a)) : decide(a);
    },
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function build(authz: Authorizer, metrics?: ResultMetrics): FastifyInstance {
  const a = Fastify({ rewriteUrl: (req) => rewriteRequestTarget(req) });
  installRequestInfo(a);
  installAuthentication(a, { anonymous: true });
  installAuthorization(a, authz, metrics ? { authorization: metrics } : undefined);
  a.setErrorHandler((err, _req, reply) => {
    if (err instanceof ApiError) return reply.code(err.code).send(err.status);
    return reply.code(599).send({ message: String(err) });
  });
  a.all('/*', async (req) => ({ attrs: requestAttributes(req) }));
  app = a;
  return a;
}

const metrics = () =>
  new ResultMetrics(
    undefined,
    { name: 'apiserver_authorization_attempts_total', help: 'h' },
    { name: 'apiserver_authorization_duration_seconds', help: 'h', buckets: [0.001, 1] },
  );

describe('the authorization filter', () => {
  it('gives the authorizer the selectors of resource requests (the first of repeated ones), none for paths', async () => {
    const authz = authorizer(() => ({ decision: 'Allow', reason: '' }));
    const a = build(authz);
    await a.inject({ url: '/api/v1/events?fieldSelector=type%3DWarning&fieldSelector=x%3Dy&labelSelector=app' });
    await a.inject({ url: '/api/v1/events?labelSelector=app%3Dweb' });
    await a.inject({ url: '/metrics?fieldSelector=type%3DWarning&labelSelector=app' });
    expect(authz.asked.map((x) => [x.fieldSelector, x.labelSelector])).toEqual([
      [[{ key: 'type', operator: 'In', values: ['Warning'] }], [{ key: 'app', operator: 'Exists' }]],
      [undefined, [{ key: 'app', operator: 'In', values: ['web'] }]],
      [undefined, undefined],
    ]);
  });

  it('counts each result in apiserver_authorization_attempts_total, with its duration', async () => {
    const m = metrics();
    const decisions: Record<string, Decision> = {
      allow: { decision: 'Allow', reason: '' },
      deny: { decision: 'Deny', reason: 'no' },
      none: { decision: 'NoOpinion', reason: '' },
      error: { decision: 'NoOpinion', reason: '', error: new Error('down') },
    };
    const a = build(
      authorizer((x) => decisions[x.namespace]!),
      m,
    );
    for (const ns of ['allow', 'deny', 'none', 'error', 'allow'])
      await a.inject({ url: `/api/v1/namespaces/${ns}/events` });
    const counts = Object.fromEntries(
      ['allowed', 'denied', 'no-opinion', 'error'].map((r) => [r, [m.series(r).count, m.series(r).sum]]),
    );
    expect(Object.fromEntries(Object.entries(counts).map(([r, [n]]) => [r, n]))).toEqual({
      allowed: 2,
      denied: 1,
      'no-opinion': 1,
      error: 1,
    });
    for (const [, sum] of Object.values(counts)) {
      expect(sum).toBeGreaterThanOrEqual(0);
      expect(sum).toBeLessThan(5);
    }
  });

  it('answers a decision with an error as a plain-text 500, escaped, and a denial as a 403 with nosniff', async () => {
    const a = build(
      authorizer((x) =>
        x.namespace === 'broken'
          ? { decision: 'Deny', reason: 'x', error: new Error('webhook <down>') }
          : { decision: 'Deny', reason: '' },
      ),
    );
    const failed = await a.inject({ url: '/api/v1/namespaces/broken/events?q=1&r=2' });
    expect(failed.statusCode).toBe(500);
    expect(failed.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(failed.headers['x-content-type-options']).toBe('nosniff');
    expect(failed.body).toBe(
      'Internal Server Error: "/api/v1/namespaces/broken/events?q=1&amp;r=2": webhook &lt;down&gt;\n',
    );
    const denied = await a.inject({ url: '/api/v1/namespaces/ns/events' });
    expect(denied.statusCode).toBe(403);
    expect(denied.headers['x-content-type-options']).toBe('nosniff');
    expect(denied.json().message).toBe(
      'events is forbidden: User "system:anonymous" cannot list resource "events" in API group "" in the namespace "ns"',
    );
  });

  it('answers an authorizer that throws or rejects, with anything, as an error decision', async () => {
    const thrown: unknown[] = [new Error('sync'), 'a string'];
    const sync = build({
      name: 'sync',
      authorize: () => {
        throw thrown.shift();
      },
    });
    const first = await sync.inject({ url: '/api/v1/events' });
    const second = await sync.inject({ url: '/api/v1/events' });
    expect([first.statusCode, first.body]).toEqual([500, 'Internal Server Error: "/api/v1/events": sync\n']);
    expect([second.statusCode, second.body]).toEqual([500, 'Internal Server Error: "/api/v1/events": a string\n']);
    await app?.close();
    const rejected = build({ name: 'async', authorize: () => Promise.reject(new Error('later')) });
    const r = await rejected.inject({ url: '/api/v1/events' });
    expect([r.statusCode, r.body]).toEqual([500, 'Internal Server Error: "/api/v1/events": later\n']);
  });

  it('passes an async Allow on, and answers an async denial', async () => {
    const a = build(authorizer((x) => ({ decision: x.verb === 'list' ? 'Allow' : 'Deny', reason: 'r' }), true));
    expect((await a.inject({ url: '/api/v1/events' })).statusCode).toBe(200);
    const denied = await a.inject({ method: 'DELETE', url: '/api/v1/namespaces/ns/events/e' });
    expect([denied.statusCode, denied.json().message]).toEqual([
      403,
      'events "e" is forbidden: User "system:anonymous" cannot delete resource "events" in API group "" in the namespace "ns": r',
    ]);
  });
});
