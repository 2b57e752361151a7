import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { anonymousUser } from '@kevents/api';
import type { Authenticator, Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { ApiError } from '../errors/api-error.js';
import { installAuthentication } from './authentication.js';
import { installAuthorization } from './authorization.js';
import {
  impersonatedUser,
  impersonationAttributes,
  impersonationRequests,
  installImpersonation,
  splitServiceAccountUsername,
} from './impersonation.js';
import { installRequestInfo } from './request-info.js';

/** `Bearer alice` is alice (group devs), `Bearer admin` is admin; anything else is anonymous. */
const tokens: Authenticator = {
  authenticate(req) {
    const h = req.headers['authorization'];
    if (h === 'Bearer alice') return { user: { username: 'alice', groups: ['devs', 'system:authenticated'] } };
    if (h === 'Bearer admin') return { user: { username: 'admin', groups: ['system:authenticated'] } };
    return null;
  },
};

type Rule = (a: RequestAttributes) => Decision | Promise<Decision> | undefined;

/** Records every review; the first rule with an answer decides, else NoOpinion. */
class RecordingAuthorizer implements Authorizer {
  readonly name = 'recording';
  readonly asked: RequestAttributes[] = [];
  readonly rules: Rule[];
  constructor(rules: Rule[] = []) {
    this.rules = rules;
  }
  authorize(attrs: RequestAttributes): Decision | Promise<Decision> {
    this.asked.push(attrs);
    for (const r of this.rules) {
      const d = r(attrs);
      if (d) return d;
    }
    return { decision: 'NoOpinion', reason: '' };
  }
  /** The impersonation reviews only, as `resource[/sub] ns/name by user`. */
  impersonations(): string[] {
    return this.asked
      .filter((a) => a.verb === 'impersonate')
      .map(
        (a) =>
          `${a.apiGroup}/${a.apiVersion} ${a.subresource ? `${a.resource}/${a.subresource}` : a.resource} ${a.namespace}/${a.name} by ${a.user.username}`,
      );
  }
}

const allow: Decision = { decision: 'Allow', reason: '' };
/** admin may impersonate anything; everyone may list events (so the request itself passes). */
const adminRules: Rule[] = [
  (a) => (a.verb === 'impersonate' && a.user.username === 'admin' ? allow : undefined),
  (a) => (a.verb === 'list' ? allow : undefined),
];

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function build(o: { authenticator?: Authenticator; authorizer?: Authorizer }): FastifyInstance {
  const a = Fastify();
  installRequestInfo(a);
  installAuthentication(a, { ...(o.authenticator ? { authenticator: o.authenticator } : {}) });
  installImpersonation(a, o.authorizer);
  installAuthorization(a, o.authorizer);
  a.setErrorHandler((err, _req, reply) => {
    if (err instanceof ApiError) return reply.code(err.code).send(err.status);
    return reply.code(500).send({ message: String(err) });
  });
  a.all('/*', async (req) => ({
    user: req.user,
    impersonator: req.impersonator ?? null,
    headers: Object.keys(req.headers).filter((h) => h.startsWith('impersonate-')),
  }));
  app = a;
  return a;
}

const events = '/apis/events.k8s.io/v1/namespaces/ns/events';

describe('impersonation headers', () => {
  it('lists user, groups, extras (key lower-cased, then percent-decoded) and uid, in that order', () => {
    const reqs = impersonationRequests([
      ['impersonate-uid', 'u-1'],
      ['impersonate-extra-scopes', 'view'],
      ['impersonate-group', 'g1'],
      ['impersonate-user', 'bob'],
      ['impersonate-user', 'ignored'],
      ['impersonate-extra-example.com%2fteam', 'a'],
      ['impersonate-group', 'g2'],
      ['impersonate-extra-scopes', 'edit'],
      ['impersonate-uid', 'u-2'],
      ['impersonate-extra-bad%zz', 'x'],
      ['accept', 'application/json'],
    ]);
    expect(reqs.map((r) => [r.kind, r.namespace, r.name, r.apiVersion, r.fieldPath])).toEqual([
      ['User', '', 'bob', '', ''],
      ['Group', '', 'g1', '', ''],
      ['Group', '', 'g2', '', ''],
      ['UserExtra', '', 'view', 'authentication.k8s.io/v1', 'scopes'],
      ['UserExtra', '', 'edit', 'authentication.k8s.io/v1', 'scopes'],
      ['UserExtra', '', 'a', 'authentication.k8s.io/v1', 'example.com/team'],
      ['UserExtra', '', 'x', 'authentication.k8s.io/v1', 'bad%zz'],
      ['UID', '', 'u-1', 'authentication.k8s.io/v1', ''],
    ]);
  });

  it('recognizes the service account form only with a valid namespace and name', () => {
    expect(splitServiceAccountUsername('system:serviceaccount:kube-system:default')).toEqual({
      namespace: 'kube-system',
      name: 'default',
    });
    expect(splitServiceAccountUsername('system:serviceaccount:ns:a.b')).toEqual({ namespace: 'ns', name: 'a.b' });
    for (const u of [
      'system:serviceaccount:ns',
      'system:serviceaccount:ns:a:b',
      'system:serviceaccount:NS:a',
      'x:ns:a',
    ])
      expect(splitServiceAccountUsername(u)).toBeUndefined();
    const [sa] = impersonationRequests([['impersonate-user', 'system:serviceaccount:ns:bot']]);
    expect(sa).toMatchObject({ kind: 'ServiceAccount', namespace: 'ns', name: 'bot' });
    const [user] = impersonationRequests([['impersonate-user', 'system:serviceaccount:ns:Bot']]);
    expect(user).toMatchObject({ kind: 'User', name: 'system:serviceaccount:ns:Bot' });
  });

  it('groups, extras or a uid without a user are a 400 with kube’s text; an empty user is no user', () => {
    const err = (lines: [string, string][]) => {
      try {
        impersonationRequests(lines);
      } catch (e) {
        return [(e as ApiError).code, (e as ApiError).status.reason, (e as ApiError).message];
      }
      return undefined;
    };
    expect(err([['impersonate-group', 'system:masters']])).toEqual([
      400,
      'BadRequest',
      'requested [{Group  system:masters    }] without impersonating a user',
    ]);
    expect(
      err([
        ['impersonate-user', ''],
        ['impersonate-extra-scopes', 'v'],
        ['impersonate-uid', 'u'],
      ]),
    ).toEqual([
      400,
      'BadRequest',
      'requested [{UserExtra  v  authentication.k8s.io/v1  scopes} {UID  u  authentication.k8s.io/v1  }] without impersonating a user',
    ]);
    expect(impersonationRequests([['impersonate-user', '']])).toEqual([]);
  });

  it('asks with verb impersonate on users, serviceaccounts, groups, userextras/<key> and uids', () => {
    const requestor = { username: 'alice', groups: ['devs'] };
    const attrs = impersonationRequests([
      ['impersonate-user', 'system:serviceaccount:ns:bot'],
      ['impersonate-group', 'g'],
      ['impersonate-extra-scopes', 'view'],
      ['impersonate-uid', 'u-1'],
    ]).map((r) => impersonationAttributes(requestor, r));
    expect(attrs).toEqual([
      {
        user: requestor,
        verb: 'impersonate',
        isResourceRequest: true,
        path: '',
        apiGroup: '',
        apiVersion: '',
        resource: 'serviceaccounts',
        subresource: '',
        namespace: 'ns',
        name: 'bot',
      },
      expect.objectContaining({ apiGroup: '', resource: 'groups', subresource: '', namespace: '', name: 'g' }),
      expect.objectContaining({
        apiGroup: 'authentication.k8s.io',
        apiVersion: 'v1',
        resource: 'userextras',
        subresource: 'scopes',
        name: 'view',
      }),
      expect.objectContaining({ apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids', name: 'u-1' }),
    ]);
  });

  it('builds the user: system:authenticated added unless a group says (un)authenticated; SA groups; anonymous', () => {
    const user = (lines: [string, string][]) => impersonatedUser(impersonationRequests(lines));
    expect(user([['impersonate-user', 'bob']])).toEqual({ username: 'bob', groups: ['system:authenticated'] });
    expect(
      user([
        ['impersonate-user', 'bob'],
        ['impersonate-group', 'g'],
        ['impersonate-uid', 'u-1'],
        ['impersonate-extra-scopes', 'a'],
        ['impersonate-extra-scopes', 'b'],
      ]),
    ).toEqual({ username: 'bob', uid: 'u-1', groups: ['g', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
    expect(
      user([
        ['impersonate-user', 'bob'],
        ['impersonate-group', 'system:unauthenticated'],
      ]),
    ).toEqual({ username: 'bob', groups: ['system:unauthenticated'] });
    expect(user([['impersonate-user', 'system:serviceaccount:ns:bot']])).toEqual({
      username: 'system:serviceaccount:ns:bot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'],
    });
    expect(
      user([
        ['impersonate-user', 'system:serviceaccount:ns:bot'],
        ['impersonate-group', 'g'],
      ]),
    ).toEqual({ username: 'system:serviceaccount:ns:bot', groups: ['g', 'system:authenticated'] });
    expect(user([['impersonate-user', 'system:anonymous']])).toEqual({
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    });
    expect(
      user([
        ['impersonate-user', 'system:anonymous'],
        ['impersonate-group', 'system:authenticated'],
      ]),
    ).toEqual({ username: 'system:anonymous', groups: ['system:authenticated', 'system:unauthenticated'] });
  });
});

describe('impersonation filter', () => {
  it('an allowed impersonation replaces the user, keeps the impersonator and removes the headers', async () => {
    const authz = new RecordingAuthorizer(adminRules);
    const a = build({ authenticator: tokens, authorizer: authz });
    const r = await a.inject({
      url: events,
      headers: {
        authorization: 'Bearer admin',
        'Impersonate-User': 'bob',
        'Impersonate-Group': ['g1', 'g2'],
        'Impersonate-Extra-Example.com%2FScopes': ['view', 'edit'],
        'Impersonate-Uid': 'u-1',
        'impersonate-other': 'kept',
      },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      user: {
        username: 'bob',
        uid: 'u-1',
        groups: ['g1', 'g2', 'system:authenticated'],
        extra: { 'example.com/scopes': ['view', 'edit'] },
      },
      impersonator: { username: 'admin', groups: ['system:authenticated'] },
      headers: ['impersonate-other'],
    });
    expect(authz.impersonations()).toEqual([
      '/ users /bob by admin',
      '/ groups /g1 by admin',
      '/ groups /g2 by admin',
      'authentication.k8s.io/v1 userextras/example.com/scopes /view by admin',
      'authentication.k8s.io/v1 userextras/example.com/scopes /edit by admin',
      'authentication.k8s.io/v1 uids /u-1 by admin',
    ]);
    // The request itself is authorized as the impersonated user.
    const last = authz.asked.at(-1)!;
    expect([last.verb, last.user.username, last.user.groups]).toEqual([
      'list',
      'bob',
      ['g1', 'g2', 'system:authenticated'],
    ]);
  });

  it('refuses alice with kube’s 403 text, with the reason, before the request is authorized', async () => {
    const authz = new RecordingAuthorizer([
      ...adminRules,
      (a) => (a.resource === 'users' ? { decision: 'Deny', reason: 'alice may not' } : undefined),
    ]);
    const a = build({ authenticator: tokens, authorizer: authz });
    const r = await a.inject({
      url: events,
      headers: { authorization: 'Bearer alice', 'impersonate-user': 'admin', 'impersonate-group': 'system:masters' },
    });
    expect(r.statusCode).toBe(403);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'users "admin" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: alice may not',
      reason: 'Forbidden',
      details: { name: 'admin', kind: 'users' },
      code: 403,
    });
    // Only the first check was asked: the group and the request itself never were.
    expect(authz.impersonations()).toEqual(['/ users /admin by alice']);
    expect(authz.asked).toHaveLength(1);
  });

  it('refuses a group, an extra, a service account and a uid the authorizer does not allow (no opinion, async)', async () => {
    const authz = new RecordingAuthorizer([
      (a) => (a.verb === 'list' ? allow : undefined),
      (a) =>
        a.verb === 'impersonate' && ['users', 'serviceaccounts'].includes(a.resource) && a.name !== 'nobody'
          ? Promise.resolve(allow)
          : undefined,
      (a) => (a.resource === 'groups' && a.name === 'ok' ? allow : undefined),
    ]);
    const a = build({ authenticator: tokens, authorizer: authz });
    const msg = async (headers: Record<string, string | string[]>) => {
      const r = await a.inject({ url: events, headers: { authorization: 'Bearer alice', ...headers } });
      return [r.statusCode, r.json().message];
    };
    expect(await msg({ 'impersonate-user': 'bob', 'impersonate-group': ['ok', 'system:masters'] })).toEqual([
      403,
      'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    ]);
    expect(await msg({ 'impersonate-user': 'bob', 'impersonate-extra-scopes': 'a<b' })).toEqual([
      403,
      'userextras.authentication.k8s.io "a<b" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    ]);
    expect(await msg({ 'impersonate-user': 'bob', 'impersonate-uid': 'u-1' })).toEqual([
      403,
      'uids.authentication.k8s.io "u-1" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
    ]);
    expect(await msg({ 'impersonate-user': 'system:serviceaccount:kube-system:nobody' })).toEqual([
      403,
      'serviceaccounts "nobody" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
    ]);
    const ok = await a.inject({
      url: events,
      headers: { authorization: 'Bearer alice', 'impersonate-user': 'system:serviceaccount:kube-system:bot' },
    });
    expect(ok.json().user).toEqual({
      username: 'system:serviceaccount:kube-system:bot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    });
  });

  it('an authorizer error, even with Allow, a throw or a rejection refuses with 403', async () => {
    const boom = new Error('webhook down');
    for (const rule of [
      (): Decision => ({ decision: 'Allow', reason: '', error: boom }),
      (): Decision => ({ decision: 'NoOpinion', reason: 'no webhook', error: boom }),
      (): Decision => {
        throw boom;
      },
      (): Promise<Decision> => Promise.reject(boom),
    ]) {
      const authz = new RecordingAuthorizer([(a) => (a.verb === 'impersonate' ? rule() : allow)]);
      const a = build({ authenticator: tokens, authorizer: authz });
      const r = await a.inject({ url: events, headers: { authorization: 'Bearer admin', 'impersonate-user': 'bob' } });
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toMatch(
        /^users "bob" is forbidden: User "admin" cannot impersonate resource "users" in API group "" at the cluster scope(: no webhook)?$/,
      );
      await a.close();
    }
  });

  it('answers 400 for a group without a user, and leaves requests without the headers alone', async () => {
    const authz = new RecordingAuthorizer(adminRules);
    const a = build({ authenticator: tokens, authorizer: authz });
    const r = await a.inject({ url: events, headers: { authorization: 'Bearer admin', 'impersonate-group': 'g' } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      reason: 'BadRequest',
      message: 'requested [{Group  g    }] without impersonating a user',
    });
    expect(authz.asked).toEqual([]);
    const plain = await a.inject({ url: events, headers: { authorization: 'Bearer admin' } });
    expect(plain.json()).toEqual({
      user: { username: 'admin', groups: ['system:authenticated'] },
      impersonator: null,
      headers: [],
    });
  });

  it('without an authorizer (AlwaysAllow) anyone may impersonate, even the anonymous user', async () => {
    const a = build({});
    const r = await a.inject({
      url: events,
      headers: { 'impersonate-user': 'admin', 'impersonate-group': 'system:masters' },
    });
    expect(r.json()).toEqual({
      user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      impersonator: anonymousUser,
      headers: [],
    });
    await a.close();
    const b = build({
      authenticator: tokens,
      authorizer: { name: 'AlwaysAllow', authorize: () => ({ decision: 'Deny', reason: 'never asked' }) },
    });
    const s = await b.inject({ url: events, headers: { authorization: 'Bearer alice', 'impersonate-user': 'bob' } });
    expect(s.json().user).toEqual({ username: 'bob', groups: ['system:authenticated'] });
  });
});
