import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { ServerMetrics } from '@kevents/apiserver';
import { generateCA, generateClientCert, generateServingCert } from '@kevents/authn/testing';
import type { KeyPair } from '@kevents/authn/testing';
import { WebhookServer, subjectAccessReviewPath } from '@kevents/authz/testing';
import { startAuthentication } from '../server/authentication.js';
import type { AuthenticationSetup } from '../server/authentication.js';
import { startAuthorization } from '../server/authorization.js';
import type { AuthorizationSetup } from '../server/authorization.js';
import { Kubectl, sampleEvent, startTestServer, waitForOutput } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-aggregated-e2e-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A stand-in for kube-aggregator's proxy: serves TLS, authenticates the caller by its client
 * certificate (CN the user, O the groups, plus `system:authenticated`), drops the caller's
 * credentials and any front-proxy headers it sent, and forwards the request to kevents over TLS
 * with the front-proxy client certificate and `X-Remote-User`/`X-Remote-Group`, streaming the
 * answer back (watches included).
 */
async function startFrontProxy(o: {
  serving: KeyPair;
  clusterClientCA: string;
  frontProxyClient: KeyPair;
  backend: string;
}): Promise<{ url: string; forwarded: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const forwarded: IncomingHttpHeaders[] = [];
  const server: Server = createHttpsServer(
    { cert: o.serving.cert, key: o.serving.key, ca: o.clusterClientCA, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      const org = peer.subject.O;
      const groups = [...(org === undefined ? [] : Array.isArray(org) ? org : [org]), 'system:authenticated'];
      const headers: IncomingHttpHeaders = {};
      for (const [k, v] of Object.entries(req.headers))
        if (!/^(authorization|host|connection|x-remote-.*)$/.test(k)) headers[k] = v;
      headers['x-remote-user'] = String(peer.subject.CN);
      (headers as Record<string, string[]>)['x-remote-group'] = groups;
      forwarded.push(headers);
      const up = httpsRequest(
        `${o.backend}${req.url ?? '/'}`,
        {
          method: req.method ?? 'GET',
          headers,
          cert: o.frontProxyClient.cert,
          key: o.frontProxyClient.key,
          rejectUnauthorized: false,
          agent: false,
        },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      res.on('close', () => up.destroy());
      req.pipe(up);
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    forwarded,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

describe('kubectl through a stand-in aggregator (front-proxy headers, delegated authorization)', () => {
  let sar: WebhookServer;
  let authn: AuthenticationSetup;
  let authz: AuthorizationSetup;
  let kevents: TestServer;
  let proxy: Awaited<ReturnType<typeof startFrontProxy>>;
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
    authz = await startAuthorization({ flags: { 'authorization-kubeconfig': kubeconfig }, metrics, log: silent });
    authn = await startAuthentication({
      flags: {
        'requestheader-client-ca-file': write('front-proxy-ca.crt', frontProxyCA.cert),
        'requestheader-allowed-names': 'front-proxy-client',
      },
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
