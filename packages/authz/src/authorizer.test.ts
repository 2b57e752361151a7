import { describe, expect, it } from '@jest/globals';
import { alwaysAllow, alwaysDeny, authorizerForMode, chain } from './authorizer.js';
import { anonymousUser } from '@kevents/api';
import type { Authorizer, RequestAttributes } from '@kevents/api';

const attrs = (over: Partial<RequestAttributes> = {}): RequestAttributes => ({
  user: anonymousUser,
  verb: 'list',
  isResourceRequest: true,
  path: '/apis/events.k8s.io/v1/namespaces/ns/events',
  apiGroup: 'events.k8s.io',
  apiVersion: 'v1',
  resource: 'events',
  subresource: '',
  namespace: 'ns',
  name: '',
  ...over,
});

describe('authorizers', () => {
  it('AlwaysAllow and AlwaysDeny', async () => {
    expect((await alwaysAllow.authorize(attrs())).decision).toBe('Allow');
    expect(await alwaysDeny.authorize(attrs())).toEqual({ decision: 'Deny', reason: 'Everything is forbidden.' });
    expect(authorizerForMode('AlwaysDeny')).toBe(alwaysDeny);
    expect(() => authorizerForMode('RBAC')).toThrow('unknown authorization mode');
  });

  it('a chain takes the first opinion and denies when nobody has one', async () => {
    const none: Authorizer = { name: 'none', authorize: () => ({ decision: 'NoOpinion', reason: 'no rule' }) };
    expect((await chain([none, alwaysAllow]).authorize(attrs())).decision).toBe('Allow');
    expect(await chain([none, none]).authorize(attrs())).toEqual({ decision: 'Deny', reason: 'no rule, no rule' });
  });
});
