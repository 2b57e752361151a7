import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { stringify } from 'yaml';
import type { JWTAuthenticator } from '@kevents/api';
import { JwtAuthenticator } from '@kevents/authn';
import { OidcIssuer, generateCA, generateClientCert, generateServingCert } from '@kevents/authn/testing';
import { ConnectProxy, KonnectivityServer, MutualTlsFront, Tinyproxy } from '@kevents/egress/testing';
import { ServerMetrics } from '@kevents/apiserver';
import { WebhookServer } from '@kevents/authz/testing';
import { issuerHttpClientFor, startEgress, webhookDialFor } from './egress.js';
import { startAuthorization } from './authorization.js';
import type { EgressSetup } from './egress.js';
import { apiserverOptions } from '../cli/flags.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-egress-app-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const warnings: string[] = [];
const log = { warn: (_o: object, msg: string) => void warnings.push(msg) };

let issuer: OidcIssuer;
let proxyTls: { cert: string; key: string; ca: string };
let clientFiles: { caBundle: string; clientCert: string; clientKey: string };
const live: JwtAuthenticator[] = [];

beforeAll(async () => {
  issuer = await OidcIssuer.start({ alg: 'ES256' });
  const ca = await generateCA('egress proxy CA');
  const serving = await generateServingCert(ca);
  const client = await generateClientCert(ca, 'kevents-apiserver');
  proxyTls = { cert: serving.cert, key: serving.key, ca: ca.cert };
  clientFiles = {
    caBundle: write('proxy-ca.crt', ca.cert),
    clientCert: write('client.crt', client.cert),
    clientKey: write('client.key', client.key),
  };
});

afterAll(async () => {
  for (const a of live) a.close();
  await issuer.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function egressFrom(
  name: string,
  connection: object,
  selection = 'cluster',
): Promise<{ setup: EgressSetup; registry: Registry }> {
  const registry = new Registry();
  const file = write(
    `${name}.yaml`,
    stringify({
      apiVersion: 'apiserver.k8s.io/v1beta1',
      kind: 'EgressSelectorConfiguration',
      egressSelections: [{ name: selection, connection }],
    }),
  );
  return { setup: await startEgress({ file, registry, log }), registry };
}

const entry = (egressSelectorType: string): JWTAuthenticator => ({
  issuer: { url: issuer.url, audiences: ['kevents'], certificateAuthority: issuer.ca.cert, egressSelectorType },
  claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: '' } },
});

/** Discovery and JWKS through the egress, then a token verified: the issuer is reachable only that way. */
async function authenticatesThrough(setup: EgressSetup, type = 'cluster'): Promise<void> {
  const before = (issuer.requests.get('/jwks') ?? 0) + (issuer.requests.get('/.well-known/openid-configuration') ?? 0);
  const a = new JwtAuthenticator(entry(type), { httpClientFor: setup.httpClientFor, discoveryRetryMs: 100 });
  live.push(a);
  await a.whenReady();
  const r = await a.authenticateToken(await issuer.mint({ sub: 'alice', aud: 'kevents', groups: ['dev'] }));
  expect(r?.user.username).toBe('alice');
  const after = (issuer.requests.get('/jwks') ?? 0) + (issuer.requests.get('/.well-known/openid-configuration') ?? 0);
  expect(after - before).toBeGreaterThanOrEqual(2);
  a.close();
}

/** A fresh authenticator whose discovery fails: its health error, once known. */
async function healthErrorThrough(setup: EgressSetup, timeoutMs = 30_000): Promise<string> {
  const a = new JwtAuthenticator(entry('cluster'), {
    httpClientFor: timeoutMs === 30_000 ? setup.httpClientFor : issuerHttpClientFor(setup.selector, { timeoutMs }),
    discoveryRetryMs: 60_000,
  });
  live.push(a);
  return failedHealth(a);
}

/** The health error of the first failed discovery (not the `not initialized` one before it). */
async function failedHealth(a: JwtAuthenticator): Promise<string> {
  const end = Date.now() + 20_000;
  for (;;) {
    const e = a.healthError();
    if (e !== undefined && !e.endsWith('is not initialized')) {
      a.close();
      return e;
    }
    if (Date.now() > end) throw new Error(`no failed discovery: ${e}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function counter(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
  const v = (m?.values ?? []).find((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l));
  return v?.value ?? 0;
}

describe('JWT issuer traffic through the egress selector', () => {
  it('tinyproxy behind mTLS (HTTPConnect over TCP, https:// URL): crosses it, then fails cleanly when it is down', async () => {
    const tp = await Tinyproxy.start(dir);
    const front = await MutualTlsFront.start(proxyTls, tp.port);
    const frontPort = front.port;
    const { setup, registry } = await egressFrom('tinyproxy', {
      proxyProtocol: 'HTTPConnect',
      transport: {
        tcp: { url: `https://127.0.0.1:${frontPort}`, tlsConfig: { ...clientFiles, tlsServerName: 'localhost' } },
      },
    });
    try {
      await authenticatesThrough(setup);
      expect(front.clients).toContain('kevents-apiserver');
      expect(tp.connectRequests().join('\n')).toContain(`CONNECT 127.0.0.1:${issuer.port} HTTP/1.1`);
      expect(
        await counter(registry, 'apiserver_egress_dialer_dial_start_total', {
          protocol: 'http_connect',
          transport: 'tcp',
        }),
      ).toBeGreaterThanOrEqual(2);
    } finally {
      await front.close();
      await tp.close();
    }
    expect(await healthErrorThrough(setup)).toBe(
      `oidc: authenticator for issuer ${JSON.stringify(issuer.url)} is not healthy: Get ${JSON.stringify(`${issuer.url}/.well-known/openid-configuration`)}: dial tcp 127.0.0.1:${frontPort}: connect: connection refused`,
    );
    expect(await counter(registry, 'apiserver_egress_dialer_dial_failure_count', { stage: 'connect' })).toBe(1);
  });

  it('a Node CONNECT proxy with mTLS refuses a client without the right certificate', async () => {
    const proxy = await ConnectProxy.start({ tls: proxyTls });
    const other = await generateCA('another CA');
    const stranger = await generateClientCert(other, 'stranger');
    const { setup } = await egressFrom('stranger', {
      proxyProtocol: 'HTTPConnect',
      transport: {
        tcp: {
          url: `https://${proxy.address}`,
          tlsConfig: {
            caBundle: clientFiles.caBundle,
            clientCert: write('s.crt', stranger.cert),
            clientKey: write('s.key', stranger.key),
          },
        },
      },
    });
    const { setup: good } = await egressFrom('good', {
      proxyProtocol: 'HTTPConnect',
      transport: { tcp: { url: `https://${proxy.address}`, tlsConfig: clientFiles } },
    });
    try {
      // TLS 1.3: the proxy rejects the certificate after the client's handshake, so the CONNECT answer is unreadable.
      expect(await healthErrorThrough(setup)).toContain(
        `: reading HTTP response from CONNECT to 127.0.0.1:${issuer.port} via proxy ${proxy.address} failed: `,
      );
      expect(proxy.connects).toEqual([]);
      await authenticatesThrough(good);
      expect(proxy.connects.map((c) => [c.target, c.clientCN])).toContainEqual([
        `127.0.0.1:${issuer.port}`,
        'kevents-apiserver',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('an HTTP CONNECT proxy on a Unix socket: crosses it, answers 403 and down are named', async () => {
    const path = join(dir, 'connect.sock');
    const proxy = await ConnectProxy.start({ path });
    const { setup } = await egressFrom(
      'uds',
      { proxyProtocol: 'HTTPConnect', transport: { uds: { udsName: path } } },
      'controlplane',
    );
    try {
      await authenticatesThrough(setup, 'controlplane');
      expect(proxy.connects.filter((c) => c.target === `127.0.0.1:${issuer.port}`).length).toBeGreaterThanOrEqual(2);
      proxy.mode = 'refuse';
      const a = new JwtAuthenticator(entry('controlplane'), {
        httpClientFor: setup.httpClientFor,
        discoveryRetryMs: 60_000,
      });
      live.push(a);
      expect(await failedHealth(a)).toContain(
        `: proxy error from ${path} while dialing 127.0.0.1:${issuer.port}, code 403: 403 Forbidden`,
      );
    } finally {
      await proxy.close();
    }
    const b = new JwtAuthenticator(entry('controlplane'), {
      httpClientFor: setup.httpClientFor,
      discoveryRetryMs: 60_000,
    });
    live.push(b);
    expect(await failedHealth(b)).toContain(`: dial unix ${path}: connect: no such file or directory`);
  });

  it('a konnectivity server (GRPC over a Unix socket): crosses it, then a down server fails within the caller timeout', async () => {
    const path = join(dir, 'konnectivity.sock');
    const server = await KonnectivityServer.start(path);
    const { setup, registry } = await egressFrom('grpc', {
      proxyProtocol: 'GRPC',
      transport: { uds: { udsName: path } },
    });
    try {
      await authenticatesThrough(setup);
      expect(server.dials.filter((d) => d === `127.0.0.1:${issuer.port}`).length).toBeGreaterThanOrEqual(2);
      expect(server.received).toContain('CLOSE_REQ');
      expect(
        await counter(registry, 'konnectivity_network_proxy_client_stream_packets_total', {
          segment: 'from_client',
          packet_type: 'DIAL_REQ',
        }),
      ).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
    }
    const started = Date.now();
    const e = await healthErrorThrough(setup, 1_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(e).toContain('context deadline exceeded (Client.Timeout exceeded)');
    const end = Date.now() + 5_000;
    while (
      (await counter(registry, 'apiserver_egress_dialer_dial_failure_count', { protocol: 'grpc', stage: 'connect' })) <
      1
    ) {
      if (Date.now() > end) throw new Error('no connect failure counted');
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('refuses an issuer whose egress selection is not configured, as kube-apiserver words it', async () => {
    expect(() => issuerHttpClientFor()(entry('cluster'))).toThrow(
      'oidc: egress lookup required with egress selector type "cluster"',
    );
    const { setup } = await egressFrom('direct', { proxyProtocol: 'Direct' }, 'master');
    expect(warnings).toContain("EgressSelection name 'master' is deprecated, use 'controlplane' instead");
    expect(() => setup.httpClientFor(entry('cluster'))).toThrow('oidc: egress lookup for "cluster" is not configured');
    await authenticatesThrough(setup, 'controlplane');
  });
});

describe('webhook authorizer traffic through the controlplane selection', () => {
  const quiet = { info: () => undefined, error: () => undefined };
  const attrs = {
    user: { username: 'alice', groups: ['dev'] },
    verb: 'list',
    isResourceRequest: true,
    path: '/apis/events.k8s.io/v1/namespaces/ns/events',
    apiGroup: 'events.k8s.io',
    apiVersion: 'v1',
    resource: 'events',
    subresource: '',
    namespace: 'ns',
    name: '',
  } as const;

  /** An authorizer with one webhook (Deny on failure, no cache) whose traffic takes `setup`'s controlplane dialer. */
  async function webhookAuthorizer(webhook: WebhookServer, setup: EgressSetup, name: string) {
    const kubeconfig = write(`${name}-webhook.kubeconfig`, webhook.kubeconfig());
    const file = write(
      `${name}-authz.yaml`,
      stringify({
        apiVersion: 'apiserver.config.k8s.io/v1beta1',
        kind: 'AuthorizationConfiguration',
        authorizers: [
          {
            type: 'Webhook',
            name: 'reviewer',
            webhook: {
              timeout: '3s',
              subjectAccessReviewVersion: 'v1',
              matchConditionSubjectAccessReviewVersion: 'v1',
              failurePolicy: 'Deny',
              authorizedTTL: '0s',
              unauthorizedTTL: '0s',
              cacheAuthorizedRequests: false,
              cacheUnauthorizedRequests: false,
              connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
            },
          },
        ],
      }),
    );
    return startAuthorization({
      options: apiserverOptions(),
      file,
      metrics: new ServerMetrics(() => []),
      log: quiet,
      build: {
        dialFor: webhookDialFor(setup.selector),
        retryBackoff: { initialMs: 10, factor: 1, jitter: 0, steps: 1 },
      },
    });
  }

  /** The decision of a new chain (no kept-alive tunnel, so its first review dials through `setup`). */
  async function freshDecision(webhook: WebhookServer, setup: EgressSetup, name: string) {
    const fresh = await webhookAuthorizer(webhook, setup, name);
    return Promise.resolve(fresh.authorizer.authorize({ ...attrs, verb: 'watch' })).finally(() => fresh.close());
  }

  it('tinyproxy behind mTLS (HTTPConnect over TCP) carries the SubjectAccessReview; a down proxy is an error under Deny', async () => {
    const tp = await Tinyproxy.start(dir);
    const front = await MutualTlsFront.start(proxyTls, tp.port);
    const frontPort = front.port;
    const webhook = await WebhookServer.start();
    const port = new URL(webhook.url).port;
    const { setup } = await egressFrom(
      'authz-tinyproxy',
      {
        proxyProtocol: 'HTTPConnect',
        transport: {
          tcp: { url: `https://127.0.0.1:${frontPort}`, tlsConfig: { ...clientFiles, tlsServerName: 'localhost' } },
        },
      },
      'controlplane',
    );
    try {
      expect(await freshDecision(webhook, setup, 'tinyproxy')).toMatchObject({ decision: 'Allow' });
      expect(webhook.received).toHaveLength(1);
      expect(front.clients).toContain('kevents-apiserver');
      expect(tp.connectRequests().join('\n')).toContain(`CONNECT 127.0.0.1:${port} HTTP/1.1`);
    } finally {
      await front.close();
      await tp.close();
    }
    try {
      const denied = await freshDecision(webhook, setup, 'tinyproxy-down');
      expect(denied.decision).toBe('Deny');
      expect(String(denied.error)).toContain(`dial tcp 127.0.0.1:${frontPort}: connect: connection refused`);
      expect(webhook.received).toHaveLength(1);
    } finally {
      await webhook.close();
    }
  });

  it('a CONNECT proxy on a Unix socket carries the SubjectAccessReview; a refusing proxy is an error under Deny', async () => {
    const path = join(dir, 'authz-connect.sock');
    const proxy = await ConnectProxy.start({ path });
    const webhook = await WebhookServer.start();
    const { setup } = await egressFrom(
      'authz-uds',
      { proxyProtocol: 'HTTPConnect', transport: { uds: { udsName: path } } },
      'controlplane',
    );
    const authz = await webhookAuthorizer(webhook, setup, 'uds');
    try {
      expect(await authz.authorizer.authorize(attrs)).toMatchObject({ decision: 'Allow' });
      expect(webhook.received).toHaveLength(1);
      const port = new URL(webhook.url).port;
      expect(proxy.connects.map((c) => c.target)).toContain(`127.0.0.1:${port}`);
      proxy.mode = 'refuse';
      const denied = await freshDecision(webhook, setup, 'uds-refused');
      expect(denied.decision).toBe('Deny');
      expect(String(denied.error)).toContain(`proxy error from ${path} while dialing 127.0.0.1:${port}, code 403`);
      expect(webhook.received).toHaveLength(1);
      await proxy.close();
      const down = await freshDecision(webhook, setup, 'uds-down');
      expect(down.decision).toBe('Deny');
      expect(String(down.error)).toContain(`dial unix ${path}: connect: no such file or directory`);
    } finally {
      authz.close();
      await proxy.close().catch(() => undefined);
      await webhook.close();
    }
  });

  it('a konnectivity server carries the SubjectAccessReview', async () => {
    const path = join(dir, 'authz-konnectivity.sock');
    const server = await KonnectivityServer.start(path);
    const webhook = await WebhookServer.start();
    const { setup } = await egressFrom(
      'authz-grpc',
      { proxyProtocol: 'GRPC', transport: { uds: { udsName: path } } },
      'controlplane',
    );
    const authz = await webhookAuthorizer(webhook, setup, 'grpc');
    try {
      expect(await authz.authorizer.authorize(attrs)).toMatchObject({ decision: 'Allow' });
      expect(server.dials).toContain(`127.0.0.1:${new URL(webhook.url).port}`);
      expect(webhook.received[0]?.review).toMatchObject({ spec: { user: 'alice' } });
      await server.close();
      const down = await freshDecision(webhook, setup, 'grpc-down');
      expect(down.decision).toBe('Deny');
      expect(String(down.error)).toContain(webhook.url);
      expect(webhook.received).toHaveLength(1);
    } finally {
      authz.close();
      await server.close().catch(() => undefined);
      await webhook.close();
    }
  });

  it('without a controlplane selection, webhooks dial directly', async () => {
    const { setup } = await egressFrom('authz-none', { proxyProtocol: 'Direct' }, 'cluster');
    expect(webhookDialFor(setup.selector)('reviewer')).toBeUndefined();
    expect(webhookDialFor(undefined)('reviewer')).toBeUndefined();
  });
});
