import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerMetrics } from '@kevents/apiserver';
import { generateCA, generateClientCert, generateServingCert, startFrontProxy } from '@kevents/authn/testing';
import type { FrontProxy, KeyPair } from '@kevents/authn/testing';
import { WebhookServer, subjectAccessReviewPath } from '@kevents/authz/testing';
import { startAuthentication } from '../server/authentication.js';
import type { AuthenticationSetup } from '../server/authentication.js';
import { startAuthorization } from '../server/authorization.js';
import type { AuthorizationSetup } from '../server/authorization.js';
import { Kubectl, sampleEvent, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiserverOptions } from '../cli/flags.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-aggregated-e2e-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('kubectl through a stand-in aggregator (front-proxy headers, delegated authorization)', () => {
  let sar: WebhookServer;
  let authn: AuthenticationSetup;
  let authz: AuthorizationSetup;
  let kevents: TestServer;
  let proxy: FrontProxy;
  let kubectl: Kubectl;
  let auth: string[];
  let clusterCA: KeyPair;

  beforeAll(async () => {
    const frontProxyCA = await generateCA('front-proxy-ca');
    clusterCA = await generateCA('cluster-ca');
    const servingCA = await generateCA('serving-ca');
    sar = await WebhookServer.start({ token: 'delegator', path: subjectAccessReviewPath });
    // dana may do anything; everyone may read discovery (the cluster's system:discovery role).
    sar.answer = (r) => {
      const spec = r.review.spec as { user?: string; nonResourceAttributes?: unknown };
      return { status: { allowed: spec.user === 'dana' || spec.nonResourceAttributes !== undefined } };
    };
    const kubeconfig = write(
      'authorization.kubeconfig',
      JSON.stringify({
        clusters: [
          {
            name: 'c',
            cluster: {
              server: new URL(sar.url).origin,
              'certificate-authority-data': Buffer.from(sar.ca.cert).toString('base64'),
            },
          },
        ],
        users: [{ name: 'u', user: { token: 'delegator' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const metrics = new ServerMetrics();
    authz = await startAuthorization({
      options: apiserverOptions({ authorizationKubeconfig: kubeconfig }),
      metrics,
      log: silent,
    });
    authn = await startAuthentication({
      options: apiserverOptions({
        requestheaderClientCaFile: write('front-proxy-ca.crt', frontProxyCA.cert),
        requestheaderAllowedNames: ['front-proxy-client'],
      }),
      authorizer: authz.authorizer.name,
      metrics,
      log: silent,
    });
    const serving = await generateServingCert(servingCA);
    kevents = await startTestServer({
      https: { cert: serving.cert, key: serving.key, ...authn.tls },
      authenticator: authn.authenticator!,
      authorizer: authz.authorizer,
      metrics,
    });
    proxy = await startFrontProxy({
      serving: await generateServingCert(clusterCA),
      clusterClientCA: clusterCA.cert,
      frontProxyClient: await generateClientCert(frontProxyCA, 'front-proxy-client'),
      backend: kevents.url,
    });
    const dana = await generateClientCert(clusterCA, 'dana', ['sre']);
    auth = [
      `--certificate-authority=${write('cluster-ca.crt', clusterCA.cert)}`,
      `--client-certificate=${write('dana.crt', dana.cert)}`,
      `--client-key=${write('dana.key', dana.key)}`,
    ];
    kubectl = new Kubectl(proxy.url);
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await kevents?.close();
    authn?.close();
    authz?.close();
    await sar?.close();
  });

  it('creates, lists (Table), gets and watches Events as the cluster user', async () => {
    const created = await kubectl.run([...auth, 'create', '-f', '-'], JSON.stringify(sampleEvent('first', 'ns1')));
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('event.events.k8s.io/first created\n');
    const list = await kubectl.run([...auth, 'get', 'events.events.k8s.io', '-A']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^NAMESPACE\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE/);
    expect(list.stdout).toContain('event first');
    const one = await kubectl.run([...auth, 'get', 'events.events.k8s.io', 'first', '-n', 'ns1', '-o', 'name']);
    expect(one.stdout).toBe('event.events.k8s.io/first\n');
    const watch = kubectl.spawn([...auth, 'get', 'events.events.k8s.io', '-n', 'ns1', '-w', '--output-watch-events']);
    try {
      const seen = waitForOutput(watch, (out) => out.includes('event first') && out.includes('event second'));
      await waitForOutput(watch, (out) => out.includes('event first'));
      const c2 = await kubectl.run([...auth, 'create', '-f', '-'], JSON.stringify(sampleEvent('second', 'ns1')));
      expect(c2.stdout).toBe('event.events.k8s.io/second created\n');
      await seen;
    } finally {
      watch.kill('SIGTERM');
    }
    const users = new Set(sar.received.map((r) => (r.review.spec as { user?: string }).user));
    expect(users).toEqual(new Set(['dana']));
    const verbs = new Set(
      sar.received.map((r) => (r.review.spec as { resourceAttributes?: { verb?: string } }).resourceAttributes?.verb),
    );
    for (const v of ['create', 'list', 'get', 'watch']) expect(verbs.has(v)).toBe(true);
    // The front proxy's view: kubectl's credentials were not forwarded.
    expect(proxy.forwarded.every((h) => h.authorization === undefined)).toBe(true);
    expect(sar.received.at(-1)!.review.spec).toMatchObject({ groups: ['sre', 'system:authenticated'] });
  }, 60_000);

  it('a user the cluster does not authorize gets the exact 403 through the proxy', async () => {
    const eve = await generateClientCert(clusterCA, 'eve', ['guests']);
    const r = await kubectl.run([
      auth[0]!,
      `--client-certificate=${write('eve.crt', eve.cert)}`,
      `--client-key=${write('eve.key', eve.key)}`,
      'get',
      'events.events.k8s.io',
      '-n',
      'ns1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').pop()).toBe(
      'Error from server (Forbidden): events.events.k8s.io is forbidden: User "eve" cannot list resource "events" in API group "events.k8s.io" in the namespace "ns1"',
    );
  });
});
