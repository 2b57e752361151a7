import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerMetrics } from '@kevents/apiserver';
import { extensionAuthenticationConfigMap, parseExtensionAuthentication } from '@kevents/authn';
import { TokenReviewServer, generateCA, generateClientCert, generateServingCert } from '@kevents/authn/testing';
import type { KeyPair } from '@kevents/authn/testing';
import { MemoryStorage } from '@kevents/storage';
import { buildServer } from './app.js';
import type { KeventsServer } from './app.js';
import { startAuthentication } from './authentication.js';
import type { AuthenticationSetup } from './authentication.js';
import { apiserverOptions } from '../cli/flags.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const dir = mkdtempSync(join(tmpdir(), 'kevents-extension-cm-'));

const send = (url: string, cert: KeyPair, headers: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { agent: false, rejectUnauthorized: false, cert: cert.cert, key: cert.key, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });

describe('the extension-apiserver-authentication ConfigMap (--authentication-kubeconfig, no request-header flags)', () => {
  let cluster: TokenReviewServer;
  let kubeconfig: string;
  let frontProxyCA: KeyPair;
  let proxyCert: KeyPair;
  let authn: AuthenticationSetup;
  let kevents: KeventsServer;
  let url: string;
  let data: Record<string, string>;
  let configMapStatus = 200;
  let reads = 0;
  const users: string[] = [];

  beforeAll(async () => {
    frontProxyCA = await generateCA('front-proxy-ca');
    proxyCert = await generateClientCert(frontProxyCA, 'front-proxy-client');
    cluster = await TokenReviewServer.start('delegator');
    data = {
      'requestheader-client-ca-file': frontProxyCA.cert,
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Proxy-User"]',
      'requestheader-group-headers': '["X-Proxy-Group"]',
      'requestheader-extra-headers-prefix': '["X-Proxy-Extra-"]',
    };
    cluster.other = (path) => {
      if (path !== extensionAuthenticationConfigMap.path) return undefined;
      reads++;
      if (configMapStatus !== 200)
        return { status: configMapStatus, body: { kind: 'Status', status: 'Failure', code: configMapStatus } };
      return {
        status: 200,
        body: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'extension-apiserver-authentication' }, data },
      };
    };
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        clusters: [
          {
            name: 'c',
            cluster: {
              server: cluster.url,
              'certificate-authority-data': Buffer.from(cluster.ca.cert).toString('base64'),
            },
          },
        ],
        users: [{ name: 'u', user: { token: 'delegator' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    authn = await startAuthentication({
      options: apiserverOptions({ authenticationKubeconfig: kubeconfig }),
      authorizer: 'delegated',
      metrics: new ServerMetrics(),
      log: silent,
      reload: { pollMs: 50 },
    });
    const serving = await generateServingCert(await generateCA('serving-ca'));
    kevents = buildServer({
      storage: new MemoryStorage(),
      https: { cert: serving.cert, key: serving.key, ...authn.tls },
      authenticator: authn.authenticator!,
    });
    kevents.app.addHook('preHandler', (req, _reply, done) => {
      users.push(`${req.user.username}:${req.user.groups.join(',')}`);
      done();
    });
    await kevents.app.listen({ host: '127.0.0.1', port: 0 });
    url = `https://127.0.0.1:${(kevents.app.server.address() as { port: number }).port}/apis/events.k8s.io/v1/events`;
  }, 60_000);

  afterAll(async () => {
    await kevents?.watches.closeAll();
    await kevents?.app.close();
    authn?.close();
    await cluster?.close();
  });

  it('takes the CA, allowed names and header names from the ConfigMap', async () => {
    expect(authn.summary).toContain(
      'front-proxy headers (x-proxy-user,x-proxy-group) from kube-system/extension-apiserver-authentication',
    );
    expect(await send(url, proxyCert, { 'X-Proxy-User': 'alice', 'X-Proxy-Group': 'devs' })).toBe(200);
    expect(users.at(-1)).toBe('alice:devs,system:authenticated');
    // The default header names are not read: this request is anonymous.
    expect(await send(url, proxyCert, { 'X-Remote-User': 'alice' })).toBe(200);
    expect(users.at(-1)).toBe('system:anonymous:system:unauthenticated');
    // A certificate from another CA is refused.
    const stranger = await generateClientCert(await generateCA('other'), 'front-proxy-client');
    expect(await send(url, stranger, { 'X-Proxy-User': 'alice' })).toBe(401);
  });

  it('follows changes of the ConfigMap; a failed read keeps what is in force', async () => {
    data = { ...data, 'requestheader-username-headers': '["X-Other-User"]' };
    const end = Date.now() + 10_000;
    while (
      (await send(url, proxyCert, { 'X-Other-User': 'bob' })) === 200 &&
      users.at(-1) !== 'bob:system:authenticated'
    ) {
      if (Date.now() > end) throw new Error('the change was not picked up');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(users.at(-1)).toBe('bob:system:authenticated');
    configMapStatus = 500;
    const after = reads;
    while (reads < after + 3) await new Promise((r) => setTimeout(r, 20));
    expect(await send(url, proxyCert, { 'X-Other-User': 'bob' })).toBe(200);
    expect(users.at(-1)).toBe('bob:system:authenticated');
    configMapStatus = 200;
  });

  it('refuses to start when the ConfigMap cannot be read (forbidden), as k8s.io/apiserver does', async () => {
    configMapStatus = 403;
    try {
      await expect(
        startAuthentication({
          options: apiserverOptions({ authenticationKubeconfig: kubeconfig }),
          authorizer: 'delegated',
          metrics: new ServerMetrics(),
          log: silent,
        }),
      ).rejects.toThrow('unable to get configmap/extension-apiserver-authentication in kube-system');
    } finally {
      configMapStatus = 200;
    }
    // Skipping the lookup starts without it.
    const skipped = await startAuthentication({
      options: apiserverOptions({ authenticationKubeconfig: kubeconfig, authenticationSkipLookup: true }),
      authorizer: 'delegated',
      metrics: new ServerMetrics(),
      log: silent,
    });
    expect(skipped.summary).not.toContain('extension-apiserver-authentication');
    skipped.close();
  });

  it('parses the lists as JSON and refuses a list that does not decode', () => {
    expect(parseExtensionAuthentication({ data: { 'requestheader-client-ca-file': 'x' } }).requestHeader).toEqual({
      clientCA: 'x',
      allowedNames: [],
      usernameHeaders: [],
      uidHeaders: [],
      groupHeaders: [],
      extraHeaderPrefixes: [],
    });
    expect(() =>
      parseExtensionAuthentication({
        data: { 'requestheader-client-ca-file': 'x', 'requestheader-username-headers': 'X-Remote-User' },
      }),
    ).toThrow(/requestheader-username-headers/);
    expect(parseExtensionAuthentication({ data: {} })).toEqual({});
  });
});
