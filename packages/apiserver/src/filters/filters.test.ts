import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { anonymousUser } from '@kevents/api';
import type { Authenticator, Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { ApiError } from '../errors/api-error.js';
import { installAuthentication } from './authentication.js';
import { alwaysAllowPaths, forbiddenMessage, installAuthorization, requestAttributes } from './authorization.js';
import { installRequestInfo, rewriteRequestTarget } from './request-info.js';

/** A token authenticator: `Bearer good` is alice, `Bearer broken` fails, no header is not claimed. */
const tokens: Authenticator & { seen: { path: string; method: string }[] } = {
  seen: [],
  async authenticate(req) {
    tokens.seen.push({ path: req.path, method: req.method });
    const h = req.headers['authorization'];
    if (h === 'Bearer good') return { user: { username: 'alice', groups: ['devs'] } };
    if (h === 'Bearer broken') throw new Error('backend down');
    return null;
  },
};

/** Allows alice to list events in ns; denies with a reason for bob; no opinion otherwise. */
class TableAuthorizer implements Authorizer {
  readonly name: string;
  readonly asked: RequestAttributes[] = [];
  constructor(name = 'table') {
    this.name = name;
  }
  authorize(attrs: RequestAttributes): Decision {
    this.asked.push(attrs);
    if (attrs.user.username === 'alice' && attrs.verb === 'list') return { decision: 'Allow', reason: '' };
    if (attrs.user.username === 'alice') return { decision: 'Deny', reason: 'not in the table' };
    return { decision: 'NoOpinion', reason: '' };
  }
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function build(o: { authenticator?: Authenticator; anonymous?: boolean; authorizer?: Authorizer }): FastifyInstance {
  const a = Fastify();
  installRequestInfo(a);
  installAuthentication(a, { authenticator: o.authenticator, anonymous: o.anonymous });
  installAuthorization(a, o.authorizer);
  a.setErrorHandler((err, _req, reply) => {
    if (err instanceof ApiError) return reply.code(err.code).send(err.status);
    return reply.code(500).send({ message: String(err) });
  });
  a.all('/*', async (req) => ({ info: req.requestInfo, user: req.user, attrs: requestAttributes(req) }));
  app = a;
  return a;
}

describe('request-info filter', () => {
  it('answers a target it cannot read before any other filter, closing an HTTP/1.1 connection', async () => {
    const a = Fastify({ rewriteUrl: (req) => rewriteRequestTarget(req) });
    installRequestInfo(a);
    installAuthentication(a, { authenticator: tokens });
    let handled = 0;
    a.all('/*', async () => ++handled);
    app = a;
    tokens.seen.length = 0;
    const bad = await a.inject({ url: '/api/v1/events%zz' });
    expect([bad.statusCode, bad.headers['connection'], bad.json().message]).toEqual([
      400,
      'close',
      'invalid URL escape "%zz"',
    ]);
    const empty = await a.inject({ url: '/api//events' });
    expect([empty.statusCode, empty.json().reason]).toEqual([404, 'NotFound']);
    expect([handled, tokens.seen]).toEqual([0, []]);
    const ok = await a.inject({ url: '/api/v1/events' });
    expect([ok.statusCode, ok.headers['connection']]).toEqual([200, 'keep-alive']);
  });

  it('resolves RequestInfo from method, URL and query', async () => {
    const a = build({});
    const r = await a.inject({ method: 'GET', url: '/apis/events.k8s.io/v1/namespaces/ns/events?watch=1' });
    expect(r.json().info).toEqual({
      isResourceRequest: true,
      path: '/apis/events.k8s.io/v1/namespaces/ns/events',
      verb: 'watch',
      apiPrefix: 'apis',
      apiGroup: 'events.k8s.io',
      apiVersion: 'v1',
      namespace: 'ns',
      resource: 'events',
      subresource: '',
      name: '',
      parts: ['events'],
    });
    const d = await a.inject({ method: 'DELETE', url: '/api/v1/namespaces/ns/events/e' });
    expect(d.json().info.verb).toBe('delete');
    const f = await a.inject({ method: 'GET', url: '/api/v1/events?fieldSelector=metadata.name%3Dx' });
    expect([f.json().info.verb, f.json().info.name]).toEqual(['list', 'x']);
  });
});

describe('authentication filter', () => {
  it('without an authenticator every request is anonymous, or 401 when anonymous is off', async () => {
    const a = build({});
    expect((await a.inject({ url: '/healthz' })).json().user).toEqual(anonymousUser);
    await a.close();
    const b = build({ anonymous: false });
    const r = await b.inject({ url: '/healthz' });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Unauthorized',
      code: 401,
      message: 'Unauthorized',
    });
  });

  it('asks the authenticator with the path; unclaimed requests are anonymous unless anonymous is off', async () => {
    tokens.seen.length = 0;
    const a = build({ authenticator: tokens });
    const ok = await a.inject({ url: '/api/v1/pods?limit=1', headers: { authorization: 'Bearer good' } });
    expect(ok.json().user).toEqual({ username: 'alice', groups: ['devs'] });
    expect(tokens.seen).toEqual([{ path: '/api/v1/pods', method: 'GET' }]);
    expect((await a.inject({ url: '/x' })).json().user).toEqual(anonymousUser);
    const broken = await a.inject({ url: '/x', headers: { authorization: 'Bearer broken' } });
    expect([broken.statusCode, broken.json().reason]).toEqual([401, 'Unauthorized']);
    await a.close();
    const strict = build({ authenticator: tokens, anonymous: false });
    expect((await strict.inject({ url: '/x' })).statusCode).toBe(401);
    expect((await strict.inject({ url: '/x', headers: { authorization: 'Bearer good' } })).statusCode).toBe(200);
    await strict.close();
    const explicit = build({ authenticator: tokens, anonymous: true });
    expect((await explicit.inject({ url: '/x' })).json().user).toEqual(anonymousUser);
  });
});

describe('authorization filter', () => {
  it('passes the request attributes and answers a denied request with a 403 Status', async () => {
    const authz = new TableAuthorizer();
    const a = build({ authenticator: tokens, authorizer: authz });
    const ok = await a.inject({
      url: '/apis/events.k8s.io/v1/namespaces/ns/events',
      headers: { authorization: 'Bearer good' },
    });
    expect(ok.statusCode).toBe(200);
    expect(authz.asked[0]).toEqual({
      user: { username: 'alice', groups: ['devs'] },
      verb: 'list',
      isResourceRequest: true,
      path: '/apis/events.k8s.io/v1/namespaces/ns/events',
      apiGroup: 'events.k8s.io',
      apiVersion: 'v1',
      resource: 'events',
      subresource: '',
      namespace: 'ns',
      name: '',
    });
    expect(ok.json().attrs).toEqual(authz.asked[0]);
    const denied = await a.inject({
      method: 'DELETE',
      url: '/apis/events.k8s.io/v1/namespaces/ns/events/e1',
      headers: { authorization: 'Bearer good' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message:
        'events.events.k8s.io "e1" is forbidden: User "alice" cannot delete resource "events" in API group "events.k8s.io" in the namespace "ns": not in the table',
      details: { name: 'e1', group: 'events.k8s.io', kind: 'events' },
    });
    const anon = await a.inject({ url: '/api/v1/nodes' });
    expect(anon.statusCode).toBe(403);
    expect(anon.json().message).toBe(
      'nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    const path = await a.inject({ url: '/metrics' });
    expect(path.statusCode).toBe(403);
    expect(path.json().message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
    expect(path.json().details).toEqual({});
    for (const p of ['/healthz', '/readyz', '/livez']) expect((await a.inject({ url: p })).statusCode).toBe(200);
    expect((await a.inject({ url: '/healthz/ping' })).statusCode).toBe(403);
    expect([...alwaysAllowPaths].sort()).toEqual(['/healthz', '/livez', '/readyz']);
  });

  it('installs nothing for AlwaysAllow or no authorizer', async () => {
    const authz = new TableAuthorizer('AlwaysAllow');
    const a = build({ authorizer: authz });
    expect((await a.inject({ url: '/api/v1/nodes' })).statusCode).toBe(200);
    expect(authz.asked).toEqual([]);
    await a.close();
    const b = build({});
    expect((await b.inject({ url: '/api/v1/nodes' })).statusCode).toBe(200);
  });

  it('an async authorizer', async () => {
    const asyncAuthz: Authorizer = { name: 'async', authorize: async () => ({ decision: 'Allow', reason: '' }) };
    const a = build({ authorizer: asyncAuthz });
    expect((await a.inject({ url: '/api/v1/nodes' })).statusCode).toBe(200);
  });
});

describe('forbiddenMessage', () => {
  const base: RequestAttributes = {
    user: { username: 'u', groups: [] },
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/ns/pods/p/status',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: 'status',
    namespace: 'ns',
    name: 'p',
  };
  it('names the subresource, the namespace or the cluster scope, or the path', () => {
    expect(forbiddenMessage(base)).toBe(
      'User "u" cannot get resource "pods/status" in API group "" in the namespace "ns"',
    );
    expect(forbiddenMessage({ ...base, subresource: '', namespace: '' })).toBe(
      'User "u" cannot get resource "pods" in API group "" at the cluster scope',
    );
    expect(forbiddenMessage({ ...base, isResourceRequest: false, verb: 'post', path: '/x' })).toBe(
      'User "u" cannot post path "/x"',
    );
  });
});
