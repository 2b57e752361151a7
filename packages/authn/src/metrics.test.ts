import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { AuthenticationMetrics, compressUsername } from './metrics.js';

describe('authenticated_user_requests', () => {
  it('compresses usernames as kube-apiserver does: known identities, email_id, other', () => {
    for (const known of ['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default'])
      expect(compressUsername(known)).toBe(known);
    expect(compressUsername('jane@example.com')).toBe('email_id');
    expect(compressUsername('oidc:jane@example.com')).toBe('email_id');
    for (const other of ['system:anonymous', 'system:serviceaccount:kube-system:coredns', 'oidc:jane', 'Admin', ''])
      expect(compressUsername(other)).toBe('other');
  });

  it('counts successes only, by compressed username, with no real names in the output', async () => {
    const registry = new Registry();
    const m = new AuthenticationMetrics(registry);
    expect(await registry.metrics()).not.toMatch(/^authenticated_user_requests\{/m);
    m.observeSuccess(0.0001, 'kubelet');
    m.observeSuccess(0.0001, 'alice@example.com');
    m.observe('success', 0.0001, 'bob@example.com');
    m.observe('success', 0.0001, 'system:anonymous');
    m.observe('failure', 0.0001);
    m.observe('error', 0.0001, 'mallory@example.com');
    const text = await registry.metrics();
    expect(text).toContain('# TYPE authenticated_user_requests counter');
    expect(text).toContain(
      '# HELP authenticated_user_requests Counter of authenticated requests broken out by username.',
    );
    expect(text).toMatch(/^authenticated_user_requests\{username="kubelet"\} 1$/m);
    expect(text).toMatch(/^authenticated_user_requests\{username="email_id"\} 2$/m);
    expect(text).toMatch(/^authenticated_user_requests\{username="other"\} 1$/m);
    expect(text).not.toMatch(/alice|bob|mallory/);
    expect(text).toMatch(/^authentication_attempts\{result="success"\} 4$/m);
  });
});
