import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
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

const dir = mkdtempSync(join(tmpdir(), 'kevents-authz-e2e-'));
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
let token: string;
let authzFile: string;
const metrics = new ServerMetrics();

type Spec = {
  user?: string;
  resourceAttributes?: { verb?: string; resource?: string };
  nonResourceAttributes?: object;
};
/** The webhook's policy: oidc:alice may read everything; deletes are refused; leases may only be watched. */
function policy(r: ReceivedReview) {
  const spec = r.review.spec as Spec;
  if (spec.user !== 'oidc:alice') return { status: { allowed: false } };
  if (spec.nonResourceAttributes) return { status: { allowed: true } };
  const ra = spec.resourceAttributes ?? {};
  if (ra.verb === 'delete')
    return { status: { allowed: false, denied: true, reason: 'deletes are reviewed by a human' } };
  if (ra.resource === 'leases') return { status: { allowed: ra.verb === 'watch' } };
  return { status: { allowed: ['get', 'list', 'watch', 'create'].includes(ra.verb ?? '') } };
}

const authzConfig = (extra: object[] = []) =>
  stringify({
    apiVersion: 'apiserver.config.k8s.io/v1beta1',
    kind: 'AuthorizationConfiguration',
    authorizers: [
      ...extra,
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
  });

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
  authzFile = write('authz.yaml', authzConfig());
  const servingCA = await generateCA('kevents serving CA');
  const serving = await generateServingCert(servingCA);
  serverCAPem = servingCA.cert;
  serverCA = write('server-ca.crt', servingCA.cert);
  authz = await startAuthorization({
    options: apiserverOptions(),
    file: authzFile,
    metrics,
    log: silent,
    reload: { pollMs: 50 },
  });
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
  token = await issuer.mint({ sub: 'alice', aud: 'kevents' });
  await srv.storage.create({ resource: 'events', namespace: 'ns', name: 'x' }, sampleEvent('x', 'ns') as never);
  await srv.storage.create({ resource: 'leases', namespace: 'ns', name: 'l' }, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'l', namespace: 'ns' },
    spec: {},
  } as never);
});
afterAll(async () => {
  authz?.close();
  authn?.close();
  await srv?.close();
  await webhook?.close();
  await issuer?.stop();
});

const k = (...args: string[]) => kubectl.run([`--certificate-authority=${serverCA}`, `--token=${token}`, ...args], '');

/** A GET with alice's token; resolves with the status and the body (only the status for a watch). */
function get(path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${srv.url}${path}`,
      { ca: serverCAPem, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        const done = () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, text });
        };
        res.on('data', (c: string) => {
          text += c;
          if (res.statusCode === 200 && text.includes('\n')) done();
        });
        res.on('end', done);
      },
    );
    req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
    req.end();
  });
}

describe('kubectl with a JWT user and a webhook authorizer', () => {
  it('lists what the webhook allows', async () => {
    const r = await k('get', 'events.events.k8s.io', '-n', 'ns');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^LAST SEEN|^NAME/);
    expect(r.code).toBe(0);
    const seen = webhook.received.map((x) => (x.review.spec as Spec).resourceAttributes?.verb).filter(Boolean);
    expect(seen).toContain('list');
  });

  it('prints Kubernetes’ 403 text for a forbidden delete, with the webhook’s reason', async () => {
    const r = await k('delete', 'events.events.k8s.io', '-n', 'ns', 'x');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error from server (Forbidden): events.events.k8s.io "x" is forbidden: User "oidc:alice" cannot delete resource "events" in API group "events.k8s.io" in the namespace "ns": deletes are reviewed by a human\n',
    );
    expect(await srv.storage.get({ resource: 'events', namespace: 'ns', name: 'x' })).toBeDefined();
  });

  it.each(['true', 't', '1'])('authorizes ?watch=%s as the verb watch', async (w) => {
    const before = webhook.calls;
    const r = await get(`/apis/coordination.k8s.io/v1/namespaces/ns/leases?watch=${w}`);
    expect(r.status).toBe(200);
    const verbs = webhook.received.slice(before).map((x) => (x.review.spec as Spec).resourceAttributes?.verb);
    expect(verbs).toEqual(['watch']);
    const list = await get('/apis/coordination.k8s.io/v1/namespaces/ns/leases?watch=false');
    expect(list.status).toBe(403);
  });

  it('kubectl get --watch is authorized as watch', async () => {
    const before = webhook.calls;
    const r = await kubectl.run(
      [
        `--certificate-authority=${serverCA}`,
        `--token=${token}`,
        'get',
        'events.events.k8s.io',
        '-n',
        'ns',
        '--watch',
        '--request-timeout=2s',
      ],
      '',
    );
    expect(r.stdout).toMatch(/Testing/);
    const verbs = webhook.received.slice(before).map((x) => (x.review.spec as Spec).resourceAttributes?.verb);
    expect(verbs).toContain('watch');
  });

  it('answers 500 with the error when a failurePolicy Deny webhook fails', async () => {
    const saved = webhook.answer;
    webhook.answer = () => ({ http: 200, body: 'not json' });
    try {
      const r = await get('/apis/events.k8s.io/v1/namespaces/ns/events?limit=1&x=<b>&y="');
      expect(r.status).toBe(500);
      expect(r.text).toBe(
        `Internal Server Error: "/apis/events.k8s.io/v1/namespaces/ns/events?limit=1&amp;x=%3Cb%3E&amp;y=%22": couldn't decode the webhook's answer: Unexpected token 'o', "not json" is not valid JSON\n`,
      );
    } finally {
      webhook.answer = saved;
    }
  });

  it('a reload changes the decision without a restart; an invalid file keeps the running chain', async () => {
    const until = async (check: () => Promise<boolean>) => {
      const deadline = Date.now() + 10_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error('condition not met in 10s');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // Replaced whole, as an editor or a ConfigMap mount does: writeFileSync truncates first, and a
    // poll between the truncation and the write reads an empty file (one more failed reload).
    const replace = (text: string): void => {
      writeFileSync(`${authzFile}.next`, text);
      renameSync(`${authzFile}.next`, authzFile);
    };
    replace(authzConfig([{ type: 'AlwaysDeny', name: 'lockdown' }]));
    await until(async () => (await get('/apis/events.k8s.io/v1/namespaces/ns/events')).status === 403);
    // AlwaysDeny also forbids discovery: ask for the object without it.
    const r = await k('get', '--raw', '/apis/events.k8s.io/v1/namespaces/ns/events/x');
    expect(r.stderr).toBe(
      'Error from server (Forbidden): events.events.k8s.io "x" is forbidden: User "oidc:alice" cannot get resource "events" in API group "events.k8s.io" in the namespace "ns": Everything is forbidden.\n',
    );
    replace(
      'kind: AuthorizationConfiguration\napiVersion: apiserver.config.k8s.io/v1beta1\nauthorizers: [{type: RBAC}]\n',
    );
    await until(async () => (await metrics.text()).includes('automatic_reloads_total{status="failure"} 1'));
    expect((await get('/apis/events.k8s.io/v1/namespaces/ns/events')).status).toBe(403);
    replace(authzConfig());
    await until(async () => (await get('/apis/events.k8s.io/v1/namespaces/ns/events')).status === 200);
    const text = await metrics.text();
    expect(text).toMatch(/apiserver_authorization_config_controller_automatic_reloads_total\{status="success"\} 2/);
    expect(text).toMatch(
      /apiserver_authorization_decisions_total\{type="AlwaysDeny",name="lockdown",decision="denied"\} \d+/,
    );
    expect(text).toMatch(/apiserver_authorization_attempts_total\{result="allowed"\} \d+/);
    expect(text).toMatch(/apiserver_authorization_webhook_evaluations_total\{name="policy",result="success"\} \d+/);
  });
});
