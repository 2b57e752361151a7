/* eslint-disable @typescript-eslint/no-explicit-any -- kubectl's JSON output is untyped */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { generateCA, generateClientCert, generateServingCert, startFrontProxy } from '@kevents/authn/testing';
import type { FrontProxy, KeyPair } from '@kevents/authn/testing';
import { ClusterStandIn, type ReviewSpec } from './cluster-stand-in.js';
import { describeIfTools } from './gate.js';
import { KubePlay, eventually, kubePlayMissing, sh } from './kube-play.js';

/**
 * The chart with `aggregation.enabled` played on podman (tools/chart/kube-play.ts), with the
 * cluster around it stood in for on the host: kube-apiserver's ConfigMap, TokenReview and
 * SubjectAccessReview APIs at `https://kubernetes.default.svc` (the network's gateway, port 443,
 * named by the server pod's `hostAliases`), reached with a ServiceAccount token and CA mounted
 * where the kubelet mounts them (a Secret through `server.volumes`), and kube-aggregator's proxy
 * (@kevents/authn/testing's front-proxy stand-in) in front of the pod's port. Nothing of the
 * rendered chart is changed for it.
 */

const describePlay = describeIfTools(await kubePlayMissing(), 'aggregated chart on podman kube play');

const domain = 'kevents.io';

describePlay('aggregated chart on podman kube play', () => {
  let kp: KubePlay;
  let cluster: ClusterStandIn;
  let proxy: FrontProxy;
  let chartCA = '';
  let asDana: string[] = [];
  let direct: string[] = [];
  let asController: string[] = [];
  let frontProxyClient: KeyPair;
  const saToken = randomBytes(24).toString('base64url');
  const erinToken = randomBytes(24).toString('base64url');
  const t0 = Date.now();
  const kubectl = (args: string[]) => sh('kubectl', ['--kubeconfig=/dev/null', '--request-timeout=10s', ...args]);
  /** An event; events of one namespace and reason form one series, which the controller folds. */
  const event = (name: string, namespace: string, note: string, reason = 'ChartTest') =>
    JSON.stringify({
      apiVersion: `events.${domain}/v1`,
      kind: 'Event',
      metadata: { name, namespace },
      eventTime: new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
      reportingController: 'example.com/chart-test',
      reportingInstance: 'chart-test',
      action: 'Test',
      reason,
      type: 'Normal',
      regarding: { kind: 'Pod', namespace, name: 'p' },
      note,
    });
  /** Sends a request straight to the pod (no front proxy), with `cert` when given; resolves with the status. */
  const send = (path: string, headers: Record<string, string>, cert?: KeyPair) =>
    new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        `https://${kp.ips.server}:6443${path}`,
        { agent: false, ca: chartCA, headers, ...(cert ? { cert: cert.cert, key: cert.key } : {}) },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const reviewsIn = (namespace: string) =>
    cluster.subjectAccessReviews.filter((s) => s.resourceAttributes?.namespace === namespace);

  beforeAll(async () => {
    kp = await KubePlay.start('kpa');
    const frontProxyCA = await generateCA('front-proxy-ca');
    const clusterCA = await generateCA('cluster-ca');
    frontProxyClient = await generateClientCert(frontProxyCA, 'front-proxy-client');
    const apiCA = await generateCA('kubernetes-api-ca');
    const base = kp.baseValues();
    await kp.render({
      ...base,
      aggregation: { enabled: true, groupDomain: domain },
      server: {
        ...base.server,
        hostAliases: [...base.server['hostAliases'], { ip: kp.ips.gateway, hostnames: ['kubernetes.default.svc'] }],
        // What the kubelet mounts for the pod's ServiceAccount (podman does not).
        volumes: [
          {
            name: 'kube-api-access',
            secret: {
              secretName: `${kp.release}-kube-api-access`,
              optional: false, // (podman 4.3 dereferences it)
              items: ['token', 'ca.crt', 'namespace'].map((key) => ({ key, path: key })),
            },
          },
        ],
        volumeMounts: [
          { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
        ],
      },
    });
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await kp.createSecrets([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `${kp.release}-kube-api-access` },
        data: { token: b64(saToken), 'ca.crt': b64(apiCA.cert), namespace: b64(kp.namespace) },
      },
    ]);
    await kp.play(`${kp.release}-kevents-redis`, kp.ips.redis);
    // The network's bridge (and so the gateway address) exists once a pod is on it.
    cluster = await ClusterStandIn.start({
      ca: apiCA,
      host: kp.ips.gateway,
      port: 443,
      token: saToken,
      extensionAuthentication: {
        'client-ca-file': clusterCA.cert,
        'requestheader-client-ca-file': frontProxyCA.cert,
        'requestheader-allowed-names': '["front-proxy-client"]',
        'requestheader-username-headers': '["X-Remote-User"]',
        'requestheader-group-headers': '["X-Remote-Group"]',
        'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      },
      users: { [erinToken]: { username: 'erin', uid: 'erin-uid', groups: ['devs'] } },
      // The cluster's RBAC: discovery for everyone; dana on events.<domain>; the controller as the
      // chart's ClusterRole grants it (controller.hostRBAC).
      allow: (s: ReviewSpec) => {
        if (s.nonResourceAttributes) return true;
        const group = s.resourceAttributes?.group;
        if (s.user === 'dana') return group === `events.${domain}`;
        if (s.user === 'system:kevents-controller')
          return group === `events.${domain}` || group === `coordination.${domain}`;
        return false;
      },
    });
    await kp.play(kp.serverName, kp.ips.server);
    await kp.play(kp.controllerName, kp.ips.controller);
    chartCA = kp.secretData(`${kp.serverName}-tls`, 'ca.crt').toString();
    proxy = await startFrontProxy({
      serving: await generateServingCert(clusterCA),
      clusterClientCA: clusterCA.cert,
      frontProxyClient,
      backend: `https://${kp.ips.server}:6443`,
      backendCA: chartCA, // the APIService's caBundle
    });
    const dana = await generateClientCert(clusterCA, 'dana', ['sre']);
    asDana = [
      `--server=${proxy.url}`,
      `--certificate-authority=${kp.write('cluster-ca.crt', clusterCA.cert)}`,
      `--client-certificate=${kp.write('dana.crt', dana.cert)}`,
      `--client-key=${kp.write('dana.key', dana.key)}`,
    ];
    direct = [`--server=https://${kp.ips.server}:6443`, `--certificate-authority=${kp.write('ca.crt', chartCA)}`];
    asController = [
      ...direct,
      `--client-certificate=${kp.write('controller.crt', kp.secretData(`${kp.controllerName}-client`, 'tls.crt'))}`,
      `--client-key=${kp.write('controller.key', kp.secretData(`${kp.controllerName}-client`, 'tls.key'))}`,
    ];
    kp.timings['setup'] = Date.now() - t0;
  }, 600_000);

  afterAll(async () => {
    await proxy?.close();
    await kp?.down();
    await cluster?.close();
    if (kp) kp.timings['total'] = Date.now() - t0;
    console.log(`kube-play aggregation timings (ms): ${JSON.stringify(kp?.timings)}`);
  }, 120_000);

  it('comes up with the front-proxy settings of the ConfigMap, read with the ServiceAccount token', async () => {
    const t1 = Date.now();
    const ready = await eventually('/readyz', async () => {
      const r = await kubectl([...asController, 'get', '--raw', '/readyz?verbose']);
      if (r.code !== 0) throw new Error(r.stderr + r.stdout);
      return r.stdout;
    }).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await kp.logs(kp.serverName)}`);
    });
    expect(ready).toContain('[+]storage ok');
    kp.timings['ready'] = Date.now() - t1;
    // (the stand-in answers only requests with the token: each recorded one carried it)
    expect(cluster.received.map((r) => r.path)).toContain(
      '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication',
    );
  }, 150_000);

  it('serves kubectl through the stand-in aggregator: create, list (Table), get and watch as the header user', async () => {
    const ns = `agg-${kp.id}`;
    const first = await kubectl([
      ...asDana,
      'create',
      '-f',
      kp.write('first.json', event('first', ns, 'note one', 'First')),
    ]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(`event.events.${domain}/first created\n`);
    const list = await kubectl([...asDana, 'get', `events.events.${domain}`, '-A']);
    expect(list.stderr).toBe('');
    expect(list.stdout.split('\n')[0]).toMatch(/^NAMESPACE\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE/);
    expect(list.stdout).toMatch(new RegExp(`^${ns}\\s.*\\sFirst\\s+pod/p\\s+note one$`, 'm'));
    const got = await kubectl([...asDana, 'get', `events.events.${domain}`, '-n', ns, 'first', '-o', 'json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ apiVersion: `events.${domain}/v1`, note: 'note one' });

    const watch = spawn(
      'kubectl',
      ['--kubeconfig=/dev/null', ...asDana, 'get', `events.events.${domain}`, '-n', ns, '-w', '--output-watch-events'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    watch.stdout.on('data', (c: Buffer) => (out += c.toString()));
    watch.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await eventually(
        'the watch lists the first event',
        async () => (out.includes('note one') ? true : undefined),
        20_000,
      );
      const second = await kubectl([
        ...asDana,
        'create',
        '-f',
        kp.write('second.json', event('second', ns, 'note two', 'Second')),
      ]);
      expect(second.stdout).toBe(`event.events.${domain}/second created\n`);
      await eventually(
        'the watch sees the second event',
        async () => (/ADDED.*note two/.test(out) ? true : undefined),
        20_000,
      );
    } finally {
      watch.kill('SIGTERM');
    }

    // Delegated authorization: the cluster was asked about each request as kube-apiserver would ask.
    const asked = reviewsIn(ns);
    for (const verb of ['create', 'get', 'watch'])
      expect(asked).toContainEqual(
        expect.objectContaining({
          user: 'dana',
          groups: ['sre', 'system:authenticated'],
          resourceAttributes: expect.objectContaining({
            verb,
            group: `events.${domain}`,
            version: 'v1',
            resource: 'events',
            namespace: ns,
            ...(verb === 'get' ? { name: 'first' } : {}),
          }),
        }),
      );
    expect(cluster.subjectAccessReviews).toContainEqual(
      expect.objectContaining({
        user: 'dana',
        resourceAttributes: expect.objectContaining({ verb: 'list', group: `events.${domain}`, resource: 'events' }),
      }),
    );
    expect(new Set(asked.map((s) => s.user))).toEqual(new Set(['dana']));
    // kubectl's own credentials stayed with the proxy.
    expect(proxy.forwarded.every((h) => h.authorization === undefined)).toBe(true);
  }, 120_000);

  it('gives the header identity only to the front proxy: not without a certificate, nor with another one', async () => {
    const ns = `spoof-${kp.id}`;
    const path = `/apis/events.${domain}/v1/namespaces/${ns}/events`;
    const headers = { 'X-Remote-User': 'dana', 'X-Remote-Group': 'system:masters' };
    // No certificate: the headers are ignored; the request is anonymous, which the cluster does not allow.
    expect(await send(path, headers)).toBe(403);
    expect(reviewsIn(ns)).toEqual([
      expect.objectContaining({ user: 'system:anonymous', groups: ['system:unauthenticated'] }),
    ]);
    // A front-proxy certificate from another CA fails as kube's x509 authenticator fails.
    const stranger = await generateClientCert(await generateCA('other-ca'), 'front-proxy-client');
    expect(await send(path, headers, stranger)).toBe(401);
    // Another client certificate kevents trusts (the chart-signed one of the controller) is its own
    // user: the headers change nothing.
    const controllerCert = {
      cert: kp.secretData(`${kp.controllerName}-client`, 'tls.crt').toString(),
      key: kp.secretData(`${kp.controllerName}-client`, 'tls.key').toString(),
    };
    expect(await send(path, headers, controllerCert)).toBe(200);
    expect(reviewsIn(ns).map((s) => s.user)).toEqual(['system:anonymous', 'system:kevents-controller']);
    // The front proxy's certificate makes the headers count.
    expect(await send(path, { 'X-Remote-User': 'dana', 'X-Remote-Group': 'sre' }, frontProxyClient)).toBe(200);
    expect(reviewsIn(ns).at(-1)).toMatchObject({ user: 'dana', groups: ['sre', 'system:authenticated'] });
  }, 60_000);

  it('reviews a bearer token with the cluster (TokenReview) and answers a denial with the exact 403', async () => {
    const ns = `token-${kp.id}`;
    const r = await kubectl([...direct, `--token=${erinToken}`, 'get', `events.events.${domain}`, '-n', ns]);
    expect(r.stderr.trim().split('\n').pop()).toBe(
      `Error from server (Forbidden): events.events.${domain} is forbidden: User "erin" cannot list resource "events" in API group "events.${domain}" in the namespace "${ns}"`,
    );
    expect(cluster.tokenReviews.map((s) => s.token)).toContain(erinToken);
    expect(reviewsIn(ns)).toContainEqual(
      expect.objectContaining({ user: 'erin', uid: 'erin-uid', groups: ['devs', 'system:authenticated'] }),
    );
  }, 60_000);

  it('runs the controller on coordination.kevents.io and events.kevents.io, authorized by the cluster', async () => {
    const holder = await eventually('the controller lease', async () => {
      const r = await kubectl([
        ...asController,
        'get',
        `leases.coordination.${domain}`,
        '-n',
        kp.namespace,
        kp.controllerName,
        '-o',
        'jsonpath={.spec.holderIdentity}',
      ]);
      return r.code === 0 && r.stdout ? r.stdout : undefined;
    }).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await kp.logs(kp.controllerName)}`);
    });
    expect(holder).toContain(kp.controllerName);
    // Two occurrences written through the aggregator are folded into one series by the controller.
    const ns = `series-${kp.id}`;
    for (const name of ['a', 'b'])
      expect(
        (await kubectl([...asDana, 'create', '-f', kp.write(`${name}.json`, event(name, ns, 'again'))])).stderr,
      ).toBe('');
    const folded = await eventually(
      'one series of two',
      async () => {
        const r = await kubectl([...asDana, 'get', `events.events.${domain}`, '-n', ns, '-o', 'json']);
        const items = r.code === 0 ? (JSON.parse(r.stdout).items as any[]) : [];
        return items.length === 1 && items[0].series?.count === 2 ? items[0] : undefined;
      },
      30_000,
    );
    expect(folded.metadata.name).toBe('a');
    expect(cluster.subjectAccessReviews).toContainEqual(
      expect.objectContaining({
        user: 'system:kevents-controller',
        resourceAttributes: expect.objectContaining({
          verb: 'update',
          group: `coordination.${domain}`,
          resource: 'leases',
        }),
      }),
    );
  }, 120_000);
});
