import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Authorizer, Decision, RequestAttributes } from '@kevents/api';
import { alwaysAllow, alwaysDeny } from './authorizer.js';
import { authorizerForModes } from './build.js';
import { union, privilegedGroupsAuthorizer } from './union.js';
import { backoffDelays, defaultRetryBackoff } from './webhook/backoff.js';
import { ExpiringLRU } from './webhook/cache.js';
import { loadWebhookConnection } from './webhook/kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-authz-build-'));
const attrs = (groups: string[] = []): RequestAttributes => ({
  user: { username: 'u', groups },
  verb: 'get',
  isResourceRequest: false,
  path: '/version',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
});
const fixed = (d: Decision, async = false): Authorizer => ({
  name: 'x',
  authorize: () => (async ? Promise.resolve(d) : d),
});

describe('union', () => {
  it('answers synchronously while every authorizer does, and the same asynchronously', async () => {
    const none = { decision: 'NoOpinion', reason: 'r' } as const;
    const sync = union([fixed(none), fixed(none)]).authorize(attrs());
    expect(sync).toEqual({ decision: 'NoOpinion', reason: 'r\nr' });
    const mixed = union([fixed(none), fixed(none, true), fixed({ decision: 'Deny', reason: 'no' })]).authorize(attrs());
    expect(mixed).toBeInstanceOf(Promise);
    expect(await mixed).toEqual({ decision: 'Deny', reason: 'no' });
    const errors = await union([
      fixed({ decision: 'NoOpinion', reason: '', error: new Error('e1') }, true),
      fixed({ decision: 'NoOpinion', reason: '', error: new Error('e2') }),
    ]).authorize(attrs());
    expect(errors.error?.message).toBe('[e1, e2]');
  });

  it('puts system:masters first in the legacy modes; a lone AlwaysAllow is itself', async () => {
    expect(authorizerForModes('AlwaysAllow')).toBe(alwaysAllow);
    const deny = authorizerForModes('AlwaysDeny');
    expect(await deny.authorize(attrs(['system:masters']))).toEqual({ decision: 'Allow', reason: '' });
    expect(await deny.authorize(attrs())).toEqual(alwaysDeny.authorize(attrs()));
    expect(await authorizerForModes('AlwaysAllow,AlwaysDeny').authorize(attrs())).toEqual({
      decision: 'Allow',
      reason: '',
    });
    expect(() => authorizerForModes('RBAC')).toThrow('unknown authorization mode "RBAC"');
    expect(() => authorizerForModes('AlwaysDeny,AlwaysDeny')).toThrow('more than once');
    expect(privilegedGroupsAuthorizer.authorize(attrs(['system:mastersx']))).toEqual({
      decision: 'NoOpinion',
      reason: '',
    });
  });
});

describe('connection files', () => {
  const write = (name: string, doc: object | string): string => {
    const f = join(dir, name);
    writeFileSync(f, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return f;
  };
  const kc = (cluster: object, user: object = {}, current = 'c') => ({
    clusters: [{ name: 'cl', cluster }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'c', context: { cluster: 'cl', user: 'u' } }],
    'current-context': current,
  });

  it('reads the current context, relative paths against the file, -data as base64', () => {
    writeFileSync(join(dir, 'ca.pem'), 'CA PEM');
    writeFileSync(join(dir, 'tok'), 'abc');
    const f = write(
      'good.yaml',
      kc(
        { server: 'https://h:1/x', 'certificate-authority': 'ca.pem', 'tls-server-name': 'n' },
        {
          'client-certificate-data': Buffer.from('CERT').toString('base64'),
          'client-key-data': Buffer.from('KEY').toString('base64'),
          tokenFile: 'tok',
        },
      ),
    );
    expect(loadWebhookConnection(f)).toEqual({
      server: 'https://h:1/x',
      ca: 'CA PEM',
      insecureSkipTLSVerify: false,
      tlsServerName: 'n',
      clientCertificate: 'CERT',
      clientKey: 'KEY',
      tokenFile: join(dir, 'tok'),
    });
  });

  it('refuses files client-go would refuse', () => {
    expect(() => loadWebhookConnection(write('nocur.yaml', kc({ server: 'https://h' }, {}, '')))).toThrow(
      'no current-context is set',
    );
    expect(() => loadWebhookConnection(write('noserver.yaml', kc({})))).toThrow('no server found for cluster "cl"');
    expect(() => loadWebhookConnection(write('badurl.yaml', kc({ server: 'ftp://h' })))).toThrow('unsupported scheme');
    expect(() =>
      loadWebhookConnection(write('halfcert.yaml', kc({ server: 'https://h' }, { 'client-certificate-data': 'eA==' }))),
    ).toThrow('client-certificate and client-key must be given together');
    expect(() => loadWebhookConnection(write('notyaml.yaml', '{{'))).toThrow('invalid kubeconfig');
  });
});

describe('backoff and cache', () => {
  it('sleeps 0.5 s ×1.5 four times with up to 20% jitter', () => {
    expect(backoffDelays(defaultRetryBackoff, () => 0)).toEqual([500, 750, 1125, 1687.5]);
    expect(backoffDelays(defaultRetryBackoff, () => 1)).toEqual([600, 900, 1350, 2025]);
  });

  it('evicts the least recently used entry and expires entries', () => {
    let now = 0;
    const c = new ExpiringLRU<number>(2, () => now);
    c.set('a', 1, 10);
    c.set('b', 2, 10);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3, 10);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    now = 10;
    expect(c.get('a')).toBe(1); // served while now is not after the expiry
    now = 11;
    expect(c.get('a')).toBeUndefined();
    c.set('z', 1, 0);
    expect(c.get('z')).toBeUndefined();
  });

  it('keeps the least-recently-used order when the newest entry is read again and again', () => {
    const c = new ExpiringLRU<number>(2, () => 0);
    c.set('a', 1, 10);
    c.set('b', 2, 10);
    expect(c.get('b')).toBe(2); // already the newest: nothing moves
    expect(c.get('a')).toBe(1); // a becomes the newest
    expect(c.get('a')).toBe(1);
    c.set('c', 3, 10); // evicts b, the least recently used
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    c.set('d', 4, 10); // evicts a: c was read after it
    expect(c.get('a')).toBeUndefined();
  });
});
