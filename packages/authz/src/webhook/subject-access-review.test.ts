import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
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
});
