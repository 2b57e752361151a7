import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { frozenUser, isFrozenUser } from '@kevents/api';
import type { RequestAttributes, SelectorRequirement } from '@kevents/api';
import { subjectAccessReviewKey, subjectAccessReviewSpec } from './subject-access-review.js';

// Few, short values (with the characters a key uses: digits, ':' and ';') so that equal and
// nearly equal attributes are drawn often.
const s = fc.constantFrom('', 'a', 'b', '1:a', 'a;', ':', '0;', 'ab');
const list = fc.array(s, { maxLength: 3 });
const requirement: fc.Arbitrary<SelectorRequirement> = fc.record(
  { key: s, operator: fc.constantFrom('In', 'NotIn', 'Exists'), values: list },
  { requiredKeys: ['key', 'operator'] },
);
const attributes: fc.Arbitrary<RequestAttributes> = fc.record(
  {
    user: fc.record(
      { username: s, uid: s, groups: list, extra: fc.dictionary(s, list, { maxKeys: 2 }) },
      { requiredKeys: ['username', 'groups'] },
    ),
    verb: s,
    isResourceRequest: fc.boolean(),
    path: s,
    apiGroup: s,
    apiVersion: s,
    resource: s,
    subresource: s,
    namespace: s,
    name: s,
    fieldSelector: fc.array(requirement, { maxLength: 2 }),
    labelSelector: fc.array(requirement, { maxLength: 2 }),
  },
  {
    requiredKeys: [
      'user',
      'verb',
      'isResourceRequest',
      'path',
      'apiGroup',
      'apiVersion',
      'resource',
      'subresource',
      'namespace',
      'name',
    ],
  },
);

const specJSON = (a: RequestAttributes): string => JSON.stringify(subjectAccessReviewSpec(a));

describe('subjectAccessReviewKey', () => {
  it('property: two requests share a key exactly when their SubjectAccessReview specs are equal', () => {
    fc.assert(
      fc.property(attributes, attributes, (a, b) => {
        expect(subjectAccessReviewKey(a) === subjectAccessReviewKey(b)).toBe(specJSON(a) === specJSON(b));
      }),
      { numRuns: 5000 },
    );
  });

  it('property: the same spec built another way (extra keys in another order, a copy) has the same key', () => {
    fc.assert(
      fc.property(attributes, (a) => {
        const extra = a.user.extra ? Object.fromEntries(Object.entries(a.user.extra).reverse()) : undefined;
        const b = { ...a, user: { ...a.user, ...(extra ? { extra } : {}) } };
        expect(subjectAccessReviewKey(b)).toBe(subjectAccessReviewKey(a));
      }),
    );
  });

  it('tells apart values that only a separator would confuse', () => {
    const base: RequestAttributes = {
      user: { username: 'a', groups: ['b', 'c'] },
      verb: 'get',
      isResourceRequest: true,
      path: '/x',
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'events',
      subresource: '',
      namespace: 'n',
      name: '',
    };
    const joined = { ...base, user: { username: 'a', groups: ['b;1:c'] } };
    const moved = { ...base, namespace: '', name: 'n' };
    expect(subjectAccessReviewKey(joined)).not.toBe(subjectAccessReviewKey(base));
    expect(subjectAccessReviewKey(moved)).not.toBe(subjectAccessReviewKey(base));
  });

  it('property: a user object asking again and again gets the key a copy of it would, request by request', () => {
    // The key is kept per user object (its part, and its previous request's): a sequence of
    // requests over a few shared user objects keys each as a fresh copy of its user does.
    const plain = fc.tuple(attributes, fc.boolean()).map(([a, bare]): RequestAttributes => {
      if (!bare) return a;
      const { fieldSelector: _f, labelSelector: _l, ...rest } = a;
      return rest;
    });
    const copy = (a: RequestAttributes): RequestAttributes => ({
      ...a,
      user: {
        ...a.user,
        groups: [...a.user.groups],
        ...(a.user.extra
          ? { extra: Object.fromEntries(Object.entries(a.user.extra).map(([k, v]) => [k, [...v]])) }
          : {}),
      },
    });
    fc.assert(
      fc.property(
        fc.array(
          attributes.map((a) => a.user),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(fc.tuple(fc.nat(), plain), { maxLength: 12 }),
        (users, requests) => {
          for (const [i, a] of requests) {
            const shared = { ...a, user: frozenUser(users[i % users.length]!) };
            expect(subjectAccessReviewKey(shared)).toBe(subjectAccessReviewKey(copy(shared)));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a user object that asked about one request gets another key for another request, and back', () => {
    const user = frozenUser({ username: 'alice', groups: ['devs'] });
    const base: RequestAttributes = {
      user,
      verb: 'create',
      isResourceRequest: true,
      path: '/apis/events.k8s.io/v1/namespaces/a/events',
      apiGroup: 'events.k8s.io',
      apiVersion: 'v1',
      resource: 'events',
      subresource: '',
      namespace: 'a',
      name: '',
    };
    const k1 = subjectAccessReviewKey(base);
    const k2 = subjectAccessReviewKey({ ...base, namespace: 'b' });
    const k3 = subjectAccessReviewKey({ ...base, isResourceRequest: false });
    expect(new Set([k1, k2, k3]).size).toBe(3);
    expect(subjectAccessReviewKey({ ...base })).toBe(k1);
    expect(subjectAccessReviewKey({ ...base, user: { username: 'bob', groups: ['devs'] } })).not.toBe(k1);
  });

  it('a user object that is not frozen is keyed as it is now, not as it was', () => {
    const user = { username: 'alice', groups: ['devs'], extra: { scopes: ['read'] } };
    const attrs: RequestAttributes = {
      user,
      verb: 'get',
      isResourceRequest: true,
      path: '/apis/events.k8s.io/v1/namespaces/a/events/x',
      apiGroup: 'events.k8s.io',
      apiVersion: 'v1',
      resource: 'events',
      subresource: '',
      namespace: 'a',
      name: 'x',
    };
    const before = subjectAccessReviewKey(attrs);
    user.groups.push('admins');
    const afterGroup = subjectAccessReviewKey(attrs);
    user.extra.scopes.push('write');
    const afterExtra = subjectAccessReviewKey(attrs);
    expect(new Set([before, afterGroup, afterExtra]).size).toBe(3);
    expect(afterExtra).toBe(subjectAccessReviewKey({ ...attrs, user: frozenUser(user) }));
    expect(isFrozenUser(user)).toBe(false);
  });
});

describe('subjectAccessReviewKey of large requests', () => {
  const base: RequestAttributes = {
    user: { username: 'alice', groups: ['dev'] },
    verb: 'list',
    isResourceRequest: true,
    path: '/api/v1/events',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'events',
    subresource: '',
    namespace: '',
    name: '',
  };
  const selector = (last: string): SelectorRequirement[] => [
    ...Array.from({ length: 900 }, (_, k) => ({
      key: 'metadata.name',
      operator: 'NotIn' as const,
      values: [`${'v'.repeat(60)}${k}`],
    })),
    { key: 'type', operator: 'In' as const, values: [last] },
  ];

  it('is at most 1,024 characters (a hash past that), and still tells reviews apart', () => {
    const k1 = subjectAccessReviewKey({ ...base, fieldSelector: selector('a') });
    const k2 = subjectAccessReviewKey({ ...base, fieldSelector: selector('b') });
    const k3 = subjectAccessReviewKey({ ...base, labelSelector: selector('a') });
    expect(k1.length).toBeLessThanOrEqual(1024);
    expect(new Set([k1, k2, k3]).size).toBe(3);
    expect(subjectAccessReviewKey({ ...base, fieldSelector: selector('a') })).toBe(k1);
    const frozen = frozenUser({ username: 'bob', groups: ['g'.repeat(2000)] });
    expect(subjectAccessReviewKey({ ...base, user: frozen }).length).toBeLessThanOrEqual(1024);
    expect(subjectAccessReviewKey({ ...base, user: frozen })).toBe(
      subjectAccessReviewKey({ ...base, user: { username: 'bob', groups: ['g'.repeat(2000)] } }),
    );
  });
});
