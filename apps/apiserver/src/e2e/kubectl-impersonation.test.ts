import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ServerMetrics } from '@kevents/apiserver';
import { OidcIssuer, generateCA, generateServingCert } from '@kevents/authn/testing';
import { WebhookServer } from '@kevents/authz/testing';
import type { ReceivedReview } from '@kevents/authz/testing';
import { startAuthentication } from '../server/authentication.js';
import type { AuthenticationSetup } from '../server/authentication.js';
import { startAuthorization } from '../server/authorization.js';
import type { AuthorizationSetup } from '../server/authorization.js';
import { Kubectl, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiserverOptions } from '../cli/flags.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-impersonation-e2e-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let issuer: OidcIssuer;
let webhook: WebhookServer;
let srv: TestServer;
let authn: AuthenticationSetup;
let authz: AuthorizationSetup;
let kubectl: Kubectl;
let serverCA: string;
let serverCAPem: string;
const tokens: Record<string, string> = {};

type Attrs = { verb?: string; resource?: string; namespace?: string; name?: string; group?: string };
type Spec = { user?: string; groups?: string[]; resourceAttributes?: Attrs; nonResourceAttributes?: object };
const spec = (r: ReceivedReview) => r.review.spec as Spec;

/**
 * The webhook's policy: oidc:admin may do anything, impersonation included; oidc:alice may read
 * and may impersonate the user bob only; bob and the service account ns/bot may read; a member of
 * system:masters is let through by the authorizer chain before the webhook is asked.
 */
function policy(r: ReceivedReview) {
  const s = spec(r);
  const ra = s.resourceAttributes ?? {};
  if (s.user === 'oidc:admin') return { status: { allowed: true } };
  const reads = s.nonResourceAttributes !== undefined || ['get', 'list', 'watch'].includes(ra.verb ?? '');
  if (s.user === 'oidc:alice') {
    if (ra.verb === 'impersonate')
      return ra.resource === 'users' && ra.name === 'bob'
        ? { status: { allowed: true } }
        : { status: { allowed: false, reason: 'alice may impersonate bob only' } };
    return { status: { allowed: reads } };
  }
  if (s.user === 'bob' || s.user === 'system:serviceaccount:ns:bot') return { status: { allowed: reads } };
  return { status: { allowed: false } };
}

beforeAll(async () => {
  issuer = await OidcIssuer.start();
  webhook = await WebhookServer.start({ token: 'apiserver-secret' });
  webhook.answer = policy;
  write('webhook.kubeconfig', webhook.kubeconfig({ token: 'apiserver-secret' }));
  const authnFile = write(
    'authn.yaml',
    stringify({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthenticationConfiguration',
      jwt: [
        {
          issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert },
          claimMappings: { username: { claim: 'sub', prefix: 'oidc:' } },
        },
      ],
    }),
  );
  const authzFile = write(
    'authz.yaml',
    stringify({
      apiVersion: 'apiserver.config.k8s.io/v1beta1',
      kind: 'AuthorizationConfiguration',
      authorizers: [
        {
          type: 'Webhook',
          name: 'policy',
          webhook: {
            timeout: '3s',
            subjectAccessReviewVersion: 'v1',
            failurePolicy: 'Deny',
            cacheAuthorizedRequests: false,
            cacheUnauthorizedRequests: false,
            connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: join(dir, 'webhook.kubeconfig') },
          },
        },
      ],
    }),
  );
  const servingCA = await generateCA('kevents serving CA');
  const serving = await generateServingCert(servingCA);
  serverCAPem = servingCA.cert;
  serverCA = write('server-ca.crt', servingCA.cert);
  const metrics = new ServerMetrics();
  authz = await startAuthorization({ options: apiserverOptions(), file: authzFile, metrics, log: silent });
  authn = await startAuthentication({
    options: apiserverOptions(),
    file: authnFile,
    authorizer: authz.authorizer.name,
    metrics,
    log: silent,
  });
  srv = await startTestServer({
    https: { cert: serving.cert, key: serving.key },
    ...(authn.authenticator ? { authenticator: authn.authenticator } : {}),
    authorizer: authz.authorizer,
    metrics,
  });
  kubectl = new Kubectl(srv.url);
  for (const who of ['alice', 'admin']) tokens[who] = await issuer.mint({ sub: who, aud: 'kevents' });
  await srv.storage.create({ resource: 'events', namespace: 'ns', name: 'x' }, sampleEvent('x', 'ns') as never);
});
afterAll(async () => {
  authz?.close();
  authn?.close();
  await srv?.close();
  await webhook?.close();
  await issuer?.stop();
});

const as = (who: string, ...args: string[]) =>
  kubectl.run([`--certificate-authority=${serverCA}`, `--token=${tokens[who]}`, ...args], '');
const rawEvents = ['get', '--raw', '/apis/events.k8s.io/v1/namespaces/ns/events'];
/** The reviews the webhook received while `fn` ran. */
async function reviews(fn: () => Promise<unknown>): Promise<Spec[]> {
  const before = webhook.calls;
  await fn();
  return webhook.received.slice(before).map(spec);
}

/** A GET with a user's token and extra headers: the status and the body. */
function get(who: string, path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${srv.url}${path}`,
      { ca: serverCAPem, headers: { authorization: `Bearer ${tokens[who]}`, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('kubectl --as with a webhook authorizer', () => {
  it('admin --as=bob: the impersonation is reviewed for admin, the request for bob', async () => {
    let r = { code: -1, stdout: '', stderr: '' };
    const seen = await reviews(
      async () => (r = await as('admin', '--as=bob', 'get', 'events.events.k8s.io', '-n', 'ns')),
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^LAST SEEN|^NAME/);
    expect(r.code).toBe(0);
    expect(seen).toContainEqual({
      user: 'oidc:admin',
      groups: ['system:authenticated'],
      resourceAttributes: { verb: 'impersonate', resource: 'users', name: 'bob' },
    });
    expect(seen).toContainEqual({
      user: 'bob',
      groups: ['system:authenticated'],
      resourceAttributes: { namespace: 'ns', verb: 'list', group: 'events.k8s.io', version: 'v1', resource: 'events' },
    });
    expect(seen.filter((s) => s.user === 'oidc:admin' && s.resourceAttributes?.verb !== 'impersonate')).toEqual([]);
  });

  it('admin --as=bob --as-group=devs: a delete is refused for bob, with kubectl’s text', async () => {
    const r = await as('admin', '--as=bob', '--as-group=devs', 'delete', 'events.events.k8s.io', '-n', 'ns', 'x');
    expect(r.stderr).toBe(
      'Error from server (Forbidden): events.events.k8s.io "x" is forbidden: User "bob" cannot delete resource "events" in API group "events.k8s.io" in the namespace "ns"\n',
    );
    expect(r.code).toBe(1);
  });

  it('admin --as a service account: reviewed as serviceaccounts in its namespace, served with its groups', async () => {
    let r = { code: -1, stdout: '', stderr: '' };
    const seen = await reviews(async () => (r = await as('admin', '--as=system:serviceaccount:ns:bot', ...rawEvents)));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).items).toHaveLength(1);
    expect(seen).toContainEqual({
      user: 'oidc:admin',
      groups: ['system:authenticated'],
      resourceAttributes: { namespace: 'ns', verb: 'impersonate', resource: 'serviceaccounts', name: 'bot' },
    });
    expect(seen).toContainEqual(
      expect.objectContaining({
        user: 'system:serviceaccount:ns:bot',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'],
      }),
    );
  });

  it('alice --as=admin is refused with a 403 and the webhook’s reason', async () => {
    const r = await as('alice', '--as=admin', ...rawEvents);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'Error from server (Forbidden): users "admin" is forbidden: User "oidc:alice" cannot impersonate resource "users" in API group "" at the cluster scope: alice may impersonate bob only\n',
    );
    expect(r.code).toBe(1);
  });

  it('alice --as=admin --as-group=system:masters is refused, and nothing runs as system:masters', async () => {
    let r = { code: -1, stdout: '', stderr: '' };
    const seen = await reviews(
      async () => (r = await as('alice', '--as=admin', '--as-group=system:masters', ...rawEvents)),
    );
    expect(r.stderr).toBe(
      'Error from server (Forbidden): users "admin" is forbidden: User "oidc:alice" cannot impersonate resource "users" in API group "" at the cluster scope: alice may impersonate bob only\n',
    );
    expect(r.code).toBe(1);
    // Only alice's impersonation of admin was reviewed (kubectl may retry it): no request ran as admin.
    expect(seen.length).toBeGreaterThan(0);
    for (const x of seen)
      expect(x).toEqual({
        user: 'oidc:alice',
        groups: ['system:authenticated'],
        resourceAttributes: { verb: 'impersonate', resource: 'users', name: 'admin' },
      });
    // The same with the raw headers.
    const h = await get('alice', '/apis/events.k8s.io/v1/namespaces/ns/events', {
      'Impersonate-User': 'admin',
      'Impersonate-Group': 'system:masters',
    });
    expect(h.status).toBe(403);
    expect(JSON.parse(h.text)).toMatchObject({ reason: 'Forbidden', details: { name: 'admin', kind: 'users' } });
  });

  it('alice --as=bob --as-group=system:masters: the user is allowed, the group is not', async () => {
    const r = await as('alice', '--as=bob', '--as-group=system:masters', ...rawEvents);
    expect(r.stderr).toBe(
      'Error from server (Forbidden): groups "system:masters" is forbidden: User "oidc:alice" cannot impersonate resource "groups" in API group "" at the cluster scope: alice may impersonate bob only\n',
    );
    expect(r.code).toBe(1);
    const ok = await as('alice', '--as=bob', ...rawEvents);
    expect(ok.code).toBe(0);
  });

  it('a group without a user is a 400', async () => {
    const r = await get('admin', '/apis/events.k8s.io/v1/namespaces/ns/events', { 'Impersonate-Group': 'devs' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: 'requested [{Group  devs    }] without impersonating a user',
    });
  });
});
