import { describe, expect, it } from '@jest/globals';
import { anonymousUser } from '@kevents/api';
import type { RequestAttributes } from '@kevents/api';
import { forbiddenMessage } from './authorization.js';

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

describe('forbiddenMessage', () => {
  it('words 403s like kube-apiserver', () => {
    expect(forbiddenMessage(attrs())).toBe(
      'User "system:anonymous" cannot list resource "events" in API group "events.k8s.io" in the namespace "ns"',
    );
    expect(forbiddenMessage(attrs({ namespace: '', verb: 'watch' }))).toBe(
      'User "system:anonymous" cannot watch resource "events" in API group "events.k8s.io" at the cluster scope',
    );
    expect(forbiddenMessage(attrs({ isResourceRequest: false, verb: 'get', path: '/healthz' }))).toBe(
      'User "system:anonymous" cannot get path "/healthz"',
    );
  });
  it('names a subresource after its resource', () => {
    expect(forbiddenMessage(attrs({ subresource: 'status', verb: 'update' }))).toBe(
      'User "system:anonymous" cannot update resource "events/status" in API group "events.k8s.io" in the namespace "ns"',
    );
  });
});
