import { describe, expect, it } from '@jest/globals';
import type { RequestAttributes } from '@kevents/api';
import { alwaysAllowGroupsAuthorizer, alwaysAllowPathsAuthorizer } from './delegated.js';

const attrs = (path: string, isResourceRequest = false, groups: string[] = []): RequestAttributes => ({
  user: { username: 'u', groups },
  verb: 'get',
  isResourceRequest,
  path,
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
});

describe('always-allow paths (k8s.io/apiserver path.NewAuthorizer)', () => {
  const a = alwaysAllowPathsAuthorizer(['/healthz', 'readyz', '/metrics/*', '/']);
  it('allows exact paths (leading / ignored) and trailing-* prefixes of non-resource requests only', () => {
    expect(a.authorize(attrs('/healthz'))).toEqual({ decision: 'Allow', reason: '' });
    expect(a.authorize(attrs('/readyz'))).toEqual({ decision: 'Allow', reason: '' });
    expect(a.authorize(attrs('/metrics/slis'))).toEqual({ decision: 'Allow', reason: '' });
    expect(a.authorize(attrs('/metrics/'))).toEqual({ decision: 'Allow', reason: '' });
    expect(a.authorize(attrs('/'))).toEqual({ decision: 'Allow', reason: '' });
    expect(a.authorize(attrs('/metrics'))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(a.authorize(attrs('/healthz/etcd'))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(a.authorize(attrs('/healthz', true))).toEqual({ decision: 'NoOpinion', reason: '' });
  });
  it('refuses a * that is not trailing', () => {
    expect(() => alwaysAllowPathsAuthorizer(['/a*/b'])).toThrow('only trailing * allowed in "a*/b"');
  });
});

describe('always-allow groups', () => {
  it('allows members, no opinion otherwise', () => {
    const a = alwaysAllowGroupsAuthorizer(['system:masters', 'ops']);
    expect(a.authorize(attrs('/x', true, ['ops']))).toEqual({ decision: 'Allow', reason: '' });
    expect(a.authorize(attrs('/x', true, ['dev']))).toEqual({ decision: 'NoOpinion', reason: '' });
  });
});
