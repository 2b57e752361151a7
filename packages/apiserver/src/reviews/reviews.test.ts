import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import protobuf from 'protobufjs';
import { MemoryStorage } from '@kevents/storage';
import type { Authenticator, Authorizer, Decision, RequestAttributes, VersionInfo } from '@kevents/api';
import { buildApiServer } from '../server/build-server.js';
import type { ApiServer } from '../server/build-server.js';
import { rulesOf } from './reviews.js';

const version = { major: '1', minor: '35', gitVersion: 'v1.35.0' } as VersionInfo;
const asked: RequestAttributes[] = [];
let answer: (a: RequestAttributes) => Decision = () => ({ decision: 'Allow', reason: '' });
const authorizer: Authorizer = {
  name: 'test',
  type: 'Webhook',
  authorize: (a) => {
    asked.push(a);
    return answer(a);
  },
};
const authenticator: Authenticator = {
  authenticate: (req) =>
    req.headers['authorization'] === 'Bearer alice'
      ? {
          user: {
            username: 'alice',
            uid: 'u-1',
            groups: ['dev', 'system:authenticated'],
            extra: { scopes: ['a', 'b'] },
          },
        }
      : null,
};

let srv: ApiServer;
let anonymous: ApiServer;
beforeAll(() => {
  srv = buildApiServer({ storage: new MemoryStorage(), resources: [], version, authorizer, authenticator });
  anonymous = buildApiServer({ storage: new MemoryStorage(), resources: [], version });
});
afterAll(async () => {
  await srv.app.close();
  await anonymous.app.close();
});

const post = (s: ApiServer, url: string, body: unknown, headers: Record<string, string> = {}) =>
  s.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', authorization: 'Bearer alice', ...headers },
    payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
const ssar = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const ssrr = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const ssr = (v = 'v1') => `/apis/authentication.k8s.io/${v}/selfsubjectreviews`;

describe('SelfSubjectAccessReview', () => {
  it('asks the server authorizer about the request user, after asking it about the review itself', async () => {
    asked.length = 0;
    answer = (a) =>
      a.resource === 'events' ? { decision: 'Deny', reason: 'events are kept' } : { decision: 'Allow', reason: '' };
    const res = await post(srv, ssar, {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'ns', verb: 'delete', group: 'events.k8s.io', resource: 'events' } },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toBe(
      '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"ns","verb":"delete","group":"events.k8s.io","resource":"events"}},"status":{"allowed":false,"denied":true,"reason":"events are kept"}}\n',
    );
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({
      verb: 'create',
      resource: 'selfsubjectaccessreviews',
      apiGroup: 'authorization.k8s.io',
    });
    expect(asked[1]).toEqual({
      user: { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } },
      verb: 'delete',
      isResourceRequest: true,
      path: '',
      apiGroup: 'events.k8s.io',
      apiVersion: '*',
      resource: 'events',
      subresource: '',
      namespace: 'ns',
      name: '',
    });
  });

  it('non-resource attributes, selectors, no opinion and an authorizer error', async () => {
    asked.length = 0;
    answer = (a) =>
      a.resource === 'events'
        ? { decision: 'NoOpinion', reason: 'not mine', error: new Error('webhook down') }
        : { decision: 'Allow', reason: '' };
    const res = await post(srv, ssar, {
      spec: {
        resourceAttributes: {
          verb: 'list',
          resource: 'events',
          fieldSelector: { rawSelector: 'reason=X' },
          labelSelector: { rawSelector: 'a in (' },
        },
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toEqual({
      allowed: false,
      reason: 'not mine',
      evaluationError: 'webhook down; spec.resourceAttributes.labelSelector ignored due to parse error',
    });
    expect(asked[1]!.fieldSelector).toEqual([{ key: 'reason', operator: 'In', values: ['X'] }]);
    expect(asked[1]!.labelSelector).toBeUndefined();
    answer = () => ({ decision: 'Allow', reason: '' });
    const nr = await post(srv, ssar, { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } });
    expect(nr.json().status).toEqual({ allowed: true });
    expect(asked[3]).toMatchObject({ isResourceRequest: false, path: '/healthz', verb: 'get' });
  });

  it('is invalid without exactly one of the attributes or with metadata (Kubernetes texts)', async () => {
    const none = await post(srv, ssar, { spec: {} });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    const both = await post(srv, ssar, {
      metadata: { name: 'x' },
      spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { verb: 'get' } },
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().details.causes.map((c: { field: string }) => c.field)).toEqual([
      'spec.nonResourceAttributes',
      'metadata',
    ]);
  });

  it('a 403 when the authorizer refuses the review itself; the wrong kind, media type or method', async () => {
    answer = (a) =>
      a.resource === 'selfsubjectaccessreviews'
        ? { decision: 'NoOpinion', reason: '' }
        : { decision: 'Allow', reason: '' };
    const refused = await post(srv, ssar, { spec: { resourceAttributes: {} } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
    answer = () => ({ decision: 'Allow', reason: '' });
    const kind = await post(srv, ssar, { kind: 'SelfSubjectRulesReview', spec: {} });
    expect(kind.statusCode).toBe(400);
    expect(kind.json().message).toBe(
      'the kind in the data (SelfSubjectRulesReview) does not match the expected kind (SelfSubjectAccessReview)',
    );
    expect((await post(srv, ssar, 'x', { 'content-type': 'text/plain' })).statusCode).toBe(415);
    expect((await srv.app.inject({ method: 'GET', url: ssar })).statusCode).toBe(405);
  });

  it('decodes a Kubernetes protobuf body, as kubectl 1.34+ sends it, and answers JSON', async () => {
    // The bytes kubectl 1.35 sends for `kubectl auth can-i get events` (-n default).
    const body = Buffer.from(
      '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123e0a100a0012001a0022002a0032003800420012200a1e0a0764656661756c7412036765741a0022002a066576656e747332003a001a08080012001a0020001a002200',
      'hex',
    );
    asked.length = 0;
    const res = await post(srv, ssar, body, {
      'content-type': 'application/vnd.kubernetes.protobuf',
      accept: 'application/vnd.kubernetes.protobuf,application/json',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'events' } },
      status: { allowed: true },
    });
    expect(asked[1]).toMatchObject({ verb: 'get', resource: 'events', namespace: 'default', apiVersion: '*' });
    const pbOnly = await post(srv, ssar, body, {
      'content-type': 'application/vnd.kubernetes.protobuf',
      accept: 'application/vnd.kubernetes.protobuf',
    });
    expect(pbOnly.statusCode).toBe(406);
    const garbage = await post(srv, ssar, Buffer.from('nope'), {
      'content-type': 'application/vnd.kubernetes.protobuf',
    });
    expect(garbage.statusCode).toBe(400);
  });
});

describe('a protobuf review of many fields', () => {
  const varint = (n: number): Buffer => {
    const out: number[] = [];
    for (; n > 127; n = Math.floor(n / 128)) out.push((n & 127) | 128);
    out.push(n);
    return Buffer.from(out);
  };
  const ld = (no: number, ...parts: Buffer[]): Buffer => {
    const b = Buffer.concat(parts);
    return Buffer.concat([varint((no << 3) | 2), varint(b.length), b]);
  };
  const s = (text: string): Buffer => Buffer.from(text);
  const envelope = (raw: Buffer): Buffer =>
    Buffer.concat([
      s('k8s\0'),
      ld(1, ld(1, s('authorization.k8s.io/v1')), ld(2, s('SelfSubjectAccessReview'))),
      ld(2, raw),
    ]);
  /** A review whose label selector requirement lists `values` values, and whose metadata holds `labels` labels. */
  const review = (values: number, labels = 0): Buffer => {
    const requirement = ld(2, ld(1, s('a')), ld(2, s('In')), ...Array.from({ length: values }, () => ld(3, s('v'))));
    const attributes = ld(1, ld(2, s('get')), ld(5, s('events')), ld(9, requirement));
    const meta = ld(1, ...Array.from({ length: labels }, (_, i) => ld(11, ld(1, s(`k${i}`)), ld(2, s('')))));
    return envelope(Buffer.concat([meta, ld(2, attributes)]));
  };
  const send = (body: Buffer) =>
    post(srv, ssar, body, { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' });

  it('is refused as a JSON body of as many values is (protobufjs decoded 250,000 labels in 1.5-2 s)', async () => {
    answer = () => ({ decision: 'Allow', reason: '' });
    const ok = await send(review(5_000));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().spec.resourceAttributes.labelSelector.requirements[0].values).toHaveLength(5_000);
    for (const body of [review(20_000), review(0, 20_000), review(5_000, 6_000)]) {
      const res = await send(body);
      expect([res.statusCode, res.json().message]).toEqual([
        413,
        'Request entity too large: limit is 10000 values (object members and array elements) in one object',
      ]);
    }
    // the JSON body of the same review
    const json = await post(srv, ssar, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          verb: 'get',
          resource: 'events',
          labelSelector: { requirements: [{ key: 'a', operator: 'In', values: Array<string>(20_000).fill('v') }] },
        },
      },
    });
    expect(json.statusCode).toBe(413);
    // bytes that are no review are still the decoder's 400
    expect((await send(envelope(Buffer.from([0x0a, 0xff])))).statusCode).toBe(400);
  });
});

describe('SelfSubjectRulesReview', () => {
  it('answers incomplete for an authorizer that cannot list rules, everything for AlwaysAllow', async () => {
    const res = await post(srv, ssrr, { spec: { namespace: 'ns' } });
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe(
      '{"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{},"status":{"resourceRules":[],"nonResourceRules":[],"incomplete":true}}\n',
    );
    const all = await post(anonymous, ssrr, { spec: { namespace: 'ns' } });
    expect(all.json().status).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    const none = await post(srv, ssrr, { spec: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('no namespace on request');
  });

  it('asks an authorizer that resolves rules', async () => {
    const user = { username: 'u', groups: [] };
    const resolver = {
      name: 'rbac',
      authorize: () => ({ decision: 'NoOpinion' as const, reason: '' }),
      rulesFor: (_u: unknown, ns: string) => ({
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: [`pods-in-${ns}`] }],
        nonResourceRules: [],
        incomplete: false,
      }),
    };
    expect((await rulesOf(resolver, user, 'a')).resourceRules).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods-in-a'] },
    ]);
    expect(
      await rulesOf(
        { name: 'alwaysdeny', type: 'AlwaysDeny', authorize: () => ({ decision: 'Deny', reason: '' }) },
        user,
        'a',
      ),
    ).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
    });
  });
});

describe('SelfSubjectReview', () => {
  it.each(['v1', 'v1beta1', 'v1alpha1'])('%s: the request user', async (v) => {
    const res = await post(srv, ssr(v), {
      kind: 'SelfSubjectReview',
      apiVersion: `authentication.k8s.io/${v}`,
      metadata: { creationTimestamp: null },
      status: { userInfo: {} },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: `authentication.k8s.io/${v}`,
      metadata: { creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
      status: {
        userInfo: {
          username: 'alice',
          uid: 'u-1',
          groups: ['dev', 'system:authenticated'],
          extra: { scopes: ['a', 'b'] },
        },
      },
    });
  });

  it('anonymous, and through protobuf (kubectl 1.35 auth whoami)', async () => {
    const body = Buffer.from(
      '6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a0032003800420012060a040a0012001a002200',
      'hex',
    );
    const res = await post(anonymous, ssr(), body, { 'content-type': 'application/vnd.kubernetes.protobuf' });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toEqual({
      userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
  });

  it('rejects a protobuf envelope of another kind', async () => {
    const root = protobuf.parse(
      'syntax = "proto2"; message TypeMeta { optional string apiVersion = 1; optional string kind = 2; } message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2; }',
    ).root;
    const Unknown = root.lookupType('Unknown');
    const env = Unknown.encode(
      Unknown.fromObject({ typeMeta: { apiVersion: 'v1', kind: 'Pod' }, raw: Buffer.alloc(0) }),
    ).finish();
    const res = await post(anonymous, ssr(), Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0]), env]), {
      'content-type': 'application/vnd.kubernetes.protobuf',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('the kind in the data (Pod) does not match the expected kind (SelfSubjectReview)');
  });
});

describe('discovery and OpenAPI', () => {
  it('lists the reviews in legacy and aggregated discovery, create only', async () => {
    const list = (await anonymous.app.inject({ url: '/apis/authorization.k8s.io/v1' })).json();
    expect(list.resources).toEqual([
      {
        name: 'selfsubjectaccessreviews',
        singularName: 'selfsubjectaccessreview',
        namespaced: false,
        kind: 'SelfSubjectAccessReview',
        verbs: ['create'],
      },
      {
        name: 'selfsubjectrulesreviews',
        singularName: 'selfsubjectrulesreview',
        namespaced: false,
        kind: 'SelfSubjectRulesReview',
        verbs: ['create'],
      },
    ]);
    const group = (await anonymous.app.inject({ url: '/apis/authentication.k8s.io' })).json();
    expect(group.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1beta1', 'v1alpha1']);
    expect(group.preferredVersion.version).toBe('v1');
    const agg = (
      await anonymous.app.inject({
        url: '/apis',
        headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
      })
    ).json();
    const authz = agg.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'authorization.k8s.io');
    expect(
      authz.versions[0].resources.map((r: { resource: string; verbs: string[] }) => [r.resource, r.verbs]),
    ).toEqual([
      ['selfsubjectaccessreviews', ['create']],
      ['selfsubjectrulesreviews', ['create']],
    ]);
  });

  it('describes them in OpenAPI v2 and v3 as kube-apiserver does', async () => {
    const v2 = (await anonymous.app.inject({ url: '/openapi/v2' })).json();
    const op = v2.paths['/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'].post;
    expect(op.operationId).toBe('createAuthorizationV1SelfSubjectAccessReview');
    expect(op['x-kubernetes-group-version-kind']).toEqual({
      group: 'authorization.k8s.io',
      version: 'v1',
      kind: 'SelfSubjectAccessReview',
    });
    expect(v2.paths['/apis/authentication.k8s.io/v1/selfsubjectreviews'].post.operationId).toBe(
      'createAuthenticationV1SelfSubjectReview',
    );
    expect(Object.keys(v2.definitions)).toEqual(
      expect.arrayContaining([
        'io.k8s.api.authorization.v1.SelfSubjectAccessReview',
        'io.k8s.api.authorization.v1.SubjectRulesReviewStatus',
        'io.k8s.api.authentication.v1.SelfSubjectReview',
        'io.k8s.api.authentication.v1beta1.SelfSubjectReview',
        'io.k8s.api.authentication.v1.UserInfo',
      ]),
    );
    const v3 = (await anonymous.app.inject({ url: '/openapi/v3/apis/authorization.k8s.io/v1' })).json();
    expect(Object.keys(v3.paths)).toEqual([
      '/apis/authorization.k8s.io/v1',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    ]);
  });
});
