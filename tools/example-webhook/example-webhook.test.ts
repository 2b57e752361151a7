import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthorizationConfiguration, RequestAttributes } from '@kevents/api';
import { buildAuthorizer } from '@kevents/authz';
import { generateCA, generateLeaf } from '@kevents/authz/testing';

const dir = mkdtempSync(join(tmpdir(), 'kevents-example-webhook-'));
let child: ChildProcess;
let url: string;
let caPem: string;

const attrs = (user: string, verb: string, over: Partial<RequestAttributes> = {}): RequestAttributes => ({
  user: { username: user, groups: ['system:authenticated'] },
  verb,
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

beforeAll(async () => {
  const ca = await generateCA('example-webhook-test');
  const serving = await generateLeaf(ca, 'server', ['localhost']);
  caPem = ca.cert;
  writeFileSync(join(dir, 'tls.crt'), serving.cert);
  writeFileSync(join(dir, 'tls.key'), serving.key);
  writeFileSync(
    join(dir, 'rules.json'),
    JSON.stringify([
      { users: ['alice'], verbs: ['delete'], resources: ['events'], deny: true, reason: 'ask an admin' },
      { groups: ['system:authenticated'], verbs: ['get', 'list', 'watch'], resources: ['*'] },
      { groups: ['system:authenticated'], verbs: ['get'], paths: ['*'] },
    ]),
  );
  child = spawn(
    process.execPath,
    [
      'tools/example-webhook/main.js',
      `--rules=${join(dir, 'rules.json')}`,
      '--port=0',
      `--tls-cert-file=${join(dir, 'tls.crt')}`,
      `--tls-private-key-file=${join(dir, 'tls.key')}`,
      '--token=hook-token',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l, i, all) => i < all.length - 1 && l.includes('listening on '));
      if (line) resolve(line.slice(line.indexOf('https://')));
    });
    child.once('exit', (code) => reject(new Error(`example webhook exited with ${code}: ${out}`)));
  });
});
afterAll(() => {
  child?.kill('SIGTERM');
});

describe('tools/example-webhook', () => {
  it('answers kevents’ SubjectAccessReviews from its rules', async () => {
    const kubeconfig = join(dir, 'webhook.kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'hook',
            cluster: { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') },
          },
        ],
        users: [{ name: 'kevents', user: { token: 'hook-token' } }],
        contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'kevents' } }],
        'current-context': 'hook',
      }),
    );
    for (const version of ['v1', 'v1beta1']) {
      const a = buildAuthorizer({
        apiVersion: 'apiserver.config.k8s.io/v1beta1',
        kind: 'AuthorizationConfiguration',
        authorizers: [
          {
            type: 'Webhook',
            name: 'example',
            webhook: {
              timeout: 3e9,
              authorizedTTL: 300e9,
              unauthorizedTTL: 30e9,
              subjectAccessReviewVersion: version,
              failurePolicy: 'Deny',
              connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
            },
          },
        ],
      } as AuthorizationConfiguration);
      expect(await a.authorize(attrs('bob', 'list'))).toEqual({ decision: 'Allow', reason: '' });
      expect(await a.authorize(attrs('alice', 'delete', { name: 'x' }))).toEqual({
        decision: 'Deny',
        reason: 'ask an admin',
      });
      expect(await a.authorize(attrs('bob', 'create'))).toEqual({
        decision: 'NoOpinion',
        reason: 'no rule of the example webhook matches',
      });
      expect(
        (await a.authorize(attrs('bob', 'get', { isResourceRequest: false, path: '/version', apiGroup: '' }))).decision,
      ).toBe('Allow');
    }
  });
});
