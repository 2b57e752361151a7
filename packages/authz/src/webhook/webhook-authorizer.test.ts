import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import type {
  AuthorizationConfiguration,
  RequestAttributes,
  SelectorRequirement,
  WebhookConfiguration,
} from '@kevents/api';
import { buildAuthorizer } from '../build.js';
import { AuthorizationMetrics } from '../metrics.js';
import { generateCA, generateLeaf, WebhookServer } from '../testing/index.js';
import type { KeyPair } from '../testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-authz-'));
let clientCA: KeyPair;
let client: KeyPair;
let certServer: WebhookServer; // requires a client certificate
let tokenServer: WebhookServer; // requires a bearer token
let n = 0;

const resourceAttrs = (over: Partial<RequestAttributes> = {}): RequestAttributes => ({
  user: { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } },
  verb: 'list',
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
const nonResourceAttrs: RequestAttributes = {
  ...resourceAttrs(),
  isResourceRequest: false,
  verb: 'get',
  path: '/version',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  namespace: '',
};

const fastRetries = { initialMs: 5, factor: 1.5, jitter: 0.2, steps: 5 };

function kubeconfigFile(server: WebhookServer, user: Record<string, unknown>, cluster = {}): string {
  const f = join(dir, `kubeconfig-${++n}.yaml`);
  writeFileSync(f, server.kubeconfig(user, cluster));
  return f;
}
const certUser = (): Record<string, unknown> => ({
  'client-certificate-data': Buffer.from(client.cert).toString('base64'),
  'client-key-data': Buffer.from(client.key).toString('base64'),
});

function webhookEntry(file: string, over: Partial<WebhookConfiguration> = {}, name = 'hook') {
  return {
    type: 'Webhook',
    name,
    webhook: {
      timeout: 2e9,
      authorizedTTL: 300e9,
      unauthorizedTTL: 30e9,
      cacheAuthorizedRequests: true,
      cacheUnauthorizedRequests: true,
      subjectAccessReviewVersion: 'v1',
      failurePolicy: 'NoOpinion',
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: file },
      ...over,
    },
  };
}
const config = (...authorizers: object[]): AuthorizationConfiguration =>
  ({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers }) as never;

let registry: Registry;
let metrics: AuthorizationMetrics;
const build = (c: AuthorizationConfiguration) => buildAuthorizer(c, { metrics, retryBackoff: fastRetries });
const metric = async (name: string, labels: Record<string, string>): Promise<number> => {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
  const v = m?.values.find((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l));
  return v?.value ?? 0;
};

beforeAll(async () => {
  clientCA = await generateCA('kevents-test-client-ca');
  client = await generateLeaf(clientCA, 'client', ['kevents-apiserver']);
  certServer = await WebhookServer.start({ clientCA: clientCA.cert });
  tokenServer = await WebhookServer.start({ token: 'sekret' });
});
afterAll(async () => {
  await certServer.close();
  await tokenServer.close();
});
beforeEach(() => {
  registry = new Registry();
  metrics = new AuthorizationMetrics(registry);
  for (const s of [certServer, tokenServer]) {
    s.received.length = 0;
    s.answer = () => ({ status: { allowed: true } });
  }
});

describe('webhook authorizer over HTTPS', () => {
  it('allows, denies and has no opinion as the webhook says (client certificate)', async () => {
    const a = build(config(webhookEntry(kubeconfigFile(certServer, certUser()), { cacheAuthorizedRequests: false })));
    certServer.answer = () => ({ status: { allowed: true, reason: 'ok by policy' } });
    expect(await a.authorize(resourceAttrs())).toEqual({ decision: 'Allow', reason: 'ok by policy' });
    expect(certServer.received[0]!.clientCN).toBe('kevents-apiserver');
    certServer.answer = () => ({ status: { allowed: false, denied: true, reason: 'nope' } });
    expect(await a.authorize(resourceAttrs({ verb: 'get', name: 'x' }))).toEqual({ decision: 'Deny', reason: 'nope' });
    certServer.answer = () => ({ status: { allowed: false, reason: 'no rule' } });
    expect(await a.authorize(resourceAttrs({ verb: 'delete', name: 'x' }))).toEqual({
      decision: 'NoOpinion',
      reason: 'no rule',
    });
    expect(await metric('apiserver_authorization_decisions_total', { name: 'hook', decision: 'allowed' })).toBe(1);
    expect(await metric('apiserver_authorization_decisions_total', { name: 'hook', decision: 'denied' })).toBe(1);
    expect(await metric('apiserver_authorization_webhook_evaluations_total', { name: 'hook', result: 'success' })).toBe(
      3,
    );
  });

  it('sends the bearer token, from token or tokenFile; a wrong token fails without retries', async () => {
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'sekret\n');
    for (const user of [{ token: 'sekret' }, { tokenFile }]) {
      tokenServer.received.length = 0;
      const a = build(config(webhookEntry(kubeconfigFile(tokenServer, user))));
      expect((await a.authorize(resourceAttrs())).decision).toBe('Allow');
      expect(tokenServer.received[0]!.headers.authorization).toBe('Bearer sekret');
      expect(tokenServer.received[0]!.headers['content-type']).toBe('application/json');
    }
    const bad = build(config(webhookEntry(kubeconfigFile(tokenServer, { token: 'wrong' }))));
    const before = tokenServer.calls;
    const d = await bad.authorize(resourceAttrs());
    expect(d.decision).toBe('NoOpinion');
    expect(d.error?.message).toBe('Unauthorized');
    expect(tokenServer.calls).toBe(before); // 401s are answered before the review is recorded
  });

  it('refuses a server whose certificate the CA does not sign, unless insecure-skip-tls-verify', async () => {
    const other = await generateCA('other');
    const file = join(dir, 'wrong-ca.yaml');
    const kc = JSON.parse(certServer.kubeconfig(certUser())) as { clusters: { cluster: Record<string, unknown> }[] };
    kc.clusters[0]!.cluster['certificate-authority-data'] = Buffer.from(other.cert).toString('base64');
    writeFileSync(file, JSON.stringify(kc));
    const d = await build(config(webhookEntry(file))).authorize(resourceAttrs());
    expect(d.decision).toBe('NoOpinion');
    expect(d.error?.message).toMatch(/^Post "https:\/\/127\.0\.0\.1:\d+\/authorize": .*certificate/);
    kc.clusters[0]!.cluster['insecure-skip-tls-verify'] = true;
    delete kc.clusters[0]!.cluster['certificate-authority-data'];
    writeFileSync(file, JSON.stringify(kc));
    expect((await build(config(webhookEntry(file))).authorize(resourceAttrs())).decision).toBe('Allow');
  });

  it('checks the name of tls-server-name in the certificate', async () => {
    const named = await WebhookServer.start({ names: ['webhook.internal'] });
    try {
      const url = named.url.replace('127.0.0.1', 'localhost');
      const f = join(dir, 'sni.yaml');
      const kc = JSON.parse(named.kubeconfig()) as { clusters: { cluster: Record<string, unknown> }[] };
      kc.clusters[0]!.cluster['server'] = url;
      kc.clusters[0]!.cluster['tls-server-name'] = 'webhook.internal';
      writeFileSync(f, JSON.stringify(kc));
      expect((await build(config(webhookEntry(f))).authorize(resourceAttrs())).decision).toBe('Allow');
      kc.clusters[0]!.cluster['tls-server-name'] = 'elsewhere.internal';
      writeFileSync(f, JSON.stringify(kc));
      const d = await build(config(webhookEntry(f))).authorize(resourceAttrs());
      expect(d.error?.message).toMatch(/elsewhere\.internal/);
    } finally {
      await named.close();
    }
  });

  it('opens every connection through the dialer seam (the egress selector fills it)', async () => {
    const dialed: string[] = [];
    const a = buildAuthorizer(
      config(webhookEntry(kubeconfigFile(certServer, certUser()), { cacheAuthorizedRequests: false })),
      {
        dialFor: (name) => (target) => {
          dialed.push(`${name} ${target.host}:${target.port}`);
          return connect(target.port, target.host);
        },
      },
    );
    expect((await a.authorize(resourceAttrs())).decision).toBe('Allow');
    expect((await a.authorize(resourceAttrs())).decision).toBe('Allow');
    expect(dialed).toEqual([`hook 127.0.0.1:${new URL(certServer.url).port}`]); // kept alive
    expect(certServer.received[0]!.clientCN).toBe('kevents-apiserver'); // TLS ran over the dialed stream
  });

  it('sends a v1 SubjectAccessReview field by field', async () => {
    const a = build(config(webhookEntry(kubeconfigFile(certServer, certUser()))));
    await a.authorize(
      resourceAttrs({
        verb: 'get',
        name: 'e1',
        subresource: 'status',
        fieldSelector: [{ key: 'type', operator: 'In', values: ['Warning'] }],
        labelSelector: [{ key: 'app', operator: 'Exists' }],
      }),
    );
    await a.authorize(nonResourceAttrs);
    const [r, nr] = certServer.received;
    expect(r!.body).toBe(
      JSON.stringify({
        kind: 'SubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: {},
        spec: {
          resourceAttributes: {
            namespace: 'ns',
            verb: 'get',
            group: 'events.k8s.io',
            version: 'v1',
            resource: 'events',
            subresource: 'status',
            name: 'e1',
            fieldSelector: { requirements: [{ key: 'type', operator: 'In', values: ['Warning'] }] },
            labelSelector: { requirements: [{ key: 'app', operator: 'Exists' }] },
          },
          user: 'alice',
          groups: ['dev', 'system:authenticated'],
          extra: { scopes: ['a', 'b'] },
          uid: 'u-1',
        },
        status: { allowed: false },
      }),
    );
    expect(nr!.review.spec).toEqual({
      nonResourceAttributes: { path: '/version', verb: 'get' },
      user: 'alice',
      groups: ['dev', 'system:authenticated'],
      extra: { scopes: ['a', 'b'] },
      uid: 'u-1',
    });
    expect(nr!.path).toBe('/authorize'); // the server URL is POSTed to as is
  });

  it('sends a v1beta1 SubjectAccessReview with the groups as spec.group, empty fields left out', async () => {
    const a = build(
      config(webhookEntry(kubeconfigFile(certServer, certUser()), { subjectAccessReviewVersion: 'v1beta1' })),
    );
    await a.authorize(resourceAttrs({ apiGroup: '', namespace: '', user: { username: 'bob', groups: ['g'] } }));
    expect(certServer.received[0]!.body).toBe(
      JSON.stringify({
        kind: 'SubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1beta1',
        metadata: {},
        spec: {
          resourceAttributes: { verb: 'list', version: 'v1', resource: 'events' },
          user: 'bob',
          group: ['g'],
        },
        status: { allowed: false },
      }),
    );
  });

  it('maps allowed and denied both true to Deny with an error', async () => {
    certServer.answer = () => ({ status: { allowed: true, denied: true, reason: 'confused' } });
    const d = await build(config(webhookEntry(kubeconfigFile(certServer, certUser())))).authorize(resourceAttrs());
    expect(d.decision).toBe('Deny');
    expect(d.reason).toBe('confused');
    expect(d.error?.message).toBe('webhook subject access review returned both allow and deny response');
  });
});

describe('cache', () => {
  const count = async (over: Partial<WebhookConfiguration>, answer: Record<string, unknown>): Promise<number> => {
    certServer.received.length = 0;
    certServer.answer = () => ({ status: answer });
    const a = build(config(webhookEntry(kubeconfigFile(certServer, certUser()), over)));
    for (let i = 0; i < 3; i++) await a.authorize(resourceAttrs());
    await a.authorize(resourceAttrs({ user: { username: 'alice', groups: ['other'] } })); // another key
    return certServer.calls;
  };

  it('keeps Allow answers only with cacheAuthorizedRequests, others only with cacheUnauthorizedRequests', async () => {
    expect(await count({}, { allowed: true })).toBe(2);
    expect(await count({ cacheAuthorizedRequests: false }, { allowed: true })).toBe(4);
    expect(await count({ cacheUnauthorizedRequests: false }, { allowed: true })).toBe(2);
    expect(await count({}, { allowed: false, denied: true })).toBe(2);
    expect(await count({}, { allowed: false })).toBe(2); // no opinion is cached too
    expect(await count({ cacheUnauthorizedRequests: false }, { allowed: false, denied: true })).toBe(4);
    expect(await count({ cacheAuthorizedRequests: false }, { allowed: false })).toBe(2);
  });

  it('forgets an answer after its TTL (authorizedTTL for Allow, unauthorizedTTL for the rest)', async () => {
    const a = build(
      config(webhookEntry(kubeconfigFile(certServer, certUser()), { authorizedTTL: 300e6, unauthorizedTTL: 60e9 })),
    );
    await a.authorize(resourceAttrs());
    await a.authorize(resourceAttrs());
    expect(certServer.calls).toBe(1);
    await new Promise((r) => setTimeout(r, 350));
    await a.authorize(resourceAttrs());
    expect(certServer.calls).toBe(2);
    const b = build(
      config(webhookEntry(kubeconfigFile(certServer, certUser()), { authorizedTTL: 60e9, unauthorizedTTL: 300e6 })),
    );
    certServer.answer = () => ({ status: { allowed: false, denied: true } });
    await b.authorize(resourceAttrs());
    await b.authorize(resourceAttrs());
    expect(certServer.calls).toBe(3);
    await new Promise((r) => setTimeout(r, 350));
    await b.authorize(resourceAttrs());
    expect(certServer.calls).toBe(4);
  });

  it('keeps answers for 60 KB selectors under short keys: the cache stays small, the answers exact', async () => {
    // Before: every entry held the whole key (a 62 KB selector made ~75-150 KB of heap), so the
    // 8,192 entries of the cache could hold over a gigabyte; 300 entries here took 20+ MB.
    certServer.received.length = 0;
    certServer.answer = (r) => ({
      status: { allowed: JSON.stringify(r.review.spec).includes('metadata.namespace') },
    });
    const a = build(config(webhookEntry(kubeconfigFile(certServer, certUser()))));
    const values = Array.from({ length: 900 }, (_, k) => `${'v'.repeat(60)}${k}`);
    const selector = (i: number, key = 'metadata.namespace'): SelectorRequirement[] => [
      { key, operator: 'NotIn' as const, values: [`n${i}`] },
      ...values.map((v) => ({ key: 'metadata.name', operator: 'NotIn' as const, values: [v] })),
    ];
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < 300; i++) await a.authorize(resourceAttrs({ fieldSelector: selector(i) }));
    expect(certServer.calls).toBe(300);
    certServer.received.length = 0; // the test server's own log of what it received
    gc();
    const grown = getHeapStatistics().used_heap_size - before;
    expect(grown).toBeLessThan(5_000_000);
    // Still one entry per distinct review: the same selector is answered from the cache, another
    // one (which the webhook denies) is asked and its own answer kept.
    expect((await a.authorize(resourceAttrs({ fieldSelector: selector(7) }))).decision).toBe('Allow');
    expect(certServer.calls).toBe(0);
    const other = resourceAttrs({ fieldSelector: selector(7, 'metadata.uid') });
    expect((await a.authorize(other)).decision).toBe('NoOpinion');
    expect((await a.authorize(other)).decision).toBe('NoOpinion');
    expect(certServer.calls).toBe(1);
  });

  it('never keeps errors, nor requests of 10000 bytes of attributes or more', async () => {
    certServer.answer = () => ({ http: 404, body: 'not here' });
    const a = build(config(webhookEntry(kubeconfigFile(certServer, certUser()))));
    await a.authorize(resourceAttrs());
    await a.authorize(resourceAttrs());
    expect(certServer.calls).toBe(2);
    certServer.answer = () => ({ status: { allowed: true } });
    const r = resourceAttrs();
    const base = r.namespace + r.verb + r.apiGroup + r.apiVersion + r.resource + r.path;
    const justUnder = resourceAttrs({ name: 'x'.repeat(9999 - base.length) });
    await a.authorize(justUnder);
    await a.authorize(justUnder);
    expect(certServer.calls).toBe(3);
    const long = resourceAttrs({ name: 'y'.repeat(10000 - base.length) });
    await a.authorize(long);
    await a.authorize(long);
    expect(certServer.calls).toBe(5);
  });
});

describe('timeout, retries and failure policies', () => {
  it('gives up an attempt after the timeout (result timeout), then retries', async () => {
    certServer.answer = () => ({ status: { allowed: true }, delayMs: 1000 });
    const a = build(
      config(webhookEntry(kubeconfigFile(certServer, certUser()), { timeout: 100e6, failurePolicy: 'NoOpinion' })),
    );
    const started = Date.now();
    const d = await a.authorize(resourceAttrs());
    expect(Date.now() - started).toBeLessThan(1000 * 5);
    expect(d.decision).toBe('NoOpinion');
    expect(d.error?.message).toMatch(/context deadline exceeded/);
    expect(certServer.calls).toBe(5);
    expect(await metric('apiserver_authorization_webhook_evaluations_total', { name: 'hook', result: 'timeout' })).toBe(
      5,
    );
    expect(
      await metric('apiserver_authorization_webhook_evaluations_fail_open_total', { name: 'hook', result: 'timeout' }),
    ).toBe(1);
  });

  it.each([
    [500, 5],
    [429, 5],
    [504, 5],
    [503, 1],
    [401, 1],
    [403, 1],
    [404, 1],
  ])('HTTP %i is attempted %i time(s)', async (code, attempts) => {
    certServer.answer = () => ({ http: code, body: 'broken' });
    const d = await build(config(webhookEntry(kubeconfigFile(certServer, certUser())))).authorize(resourceAttrs());
    expect(certServer.calls).toBe(attempts);
    expect(d.decision).toBe('NoOpinion');
    expect(d.error).toBeDefined();
  });

  it('retries a Retry-After answer, and recovers when the webhook does', async () => {
    let i = 0;
    certServer.answer = () =>
      ++i < 3 ? { http: 503, body: '', headers: { 'retry-after': '0' } } : { status: { allowed: true } };
    const d = await build(config(webhookEntry(kubeconfigFile(certServer, certUser())))).authorize(resourceAttrs());
    expect(d).toEqual({ decision: 'Allow', reason: '' });
    expect(certServer.calls).toBe(3);
  });

  it.each(['NoOpinion', 'Deny'] as const)(
    'failurePolicy %s on malformed JSON and on a refused connection',
    async (p) => {
      certServer.answer = () => ({ http: 200, body: '{"kind":"SubjectAccessReview",' });
      const a = build(config(webhookEntry(kubeconfigFile(certServer, certUser()), { failurePolicy: p })));
      const d = await a.authorize(resourceAttrs());
      expect(d.decision).toBe(p);
      expect(d.reason).toBe('');
      expect(d.error?.message).toMatch(/^couldn't decode the webhook's answer/);
      expect(certServer.calls).toBe(1); // not retried
      certServer.answer = () => ({ http: 200, body: '{"kind":"Status","apiVersion":"v1"}' });
      expect((await a.authorize(resourceAttrs({ verb: 'watch' }))).error?.message).toMatch(
        /expected a SubjectAccessReview/,
      );
      const closed = join(dir, `closed-${p}.yaml`);
      const kc = JSON.parse(certServer.kubeconfig(certUser())) as { clusters: { cluster: Record<string, unknown> }[] };
      kc.clusters[0]!.cluster['server'] = 'https://127.0.0.1:1/authorize';
      writeFileSync(closed, JSON.stringify(kc));
      const refused = await build(config(webhookEntry(closed, { failurePolicy: p }))).authorize(resourceAttrs());
      expect(refused.decision).toBe(p);
      expect(refused.error?.message).toMatch(/^Post "https:\/\/127\.0\.0\.1:1\/authorize": connect ECONNREFUSED/);
      expect(await metric('apiserver_authorization_webhook_evaluations_fail_open_total', { name: 'hook' })).toBe(
        p === 'NoOpinion' ? 3 : 0,
      );
    },
  );
});

describe('match conditions', () => {
  const withConditions = (expressions: string[], failurePolicy: 'NoOpinion' | 'Deny' = 'NoOpinion') =>
    build(
      config(
        webhookEntry(kubeconfigFile(certServer, certUser()), {
          failurePolicy,
          matchConditionSubjectAccessReviewVersion: 'v1',
          matchConditions: expressions.map((expression) => ({ expression })),
        }),
      ),
    );

  it('calls the webhook when all are true, skips it (NoOpinion) when one is false', async () => {
    const a = withConditions([
      "request.resourceAttributes.group == 'events.k8s.io'",
      "'dev' in request.groups",
      "request.extra['scopes'].size() == 2",
    ]);
    expect((await a.authorize(resourceAttrs())).decision).toBe('Allow');
    expect(certServer.calls).toBe(1);
    expect(await a.authorize(resourceAttrs({ apiGroup: '' }))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(certServer.calls).toBe(1);
    expect(
      await metric('apiserver_authorization_match_condition_exclusions_total', { type: 'Webhook', name: 'hook' }),
    ).toBe(1);
    const hist = (await registry.getMetricsAsJSON()).find(
      (m) => m.name === 'apiserver_authorization_match_condition_evaluation_seconds',
    );
    expect(hist?.values.find((v) => (v as { metricName?: string }).metricName?.endsWith('_count'))?.value).toBe(2);
  });

  it.each(['NoOpinion', 'Deny'] as const)('an error with no false is failurePolicy %s, with the error', async (p) => {
    const a = withConditions(["request.resourceAttributes.name == 'x'", 'true'], p);
    const d = await a.authorize(nonResourceAttrs);
    expect(d.decision).toBe(p);
    expect(d.error?.message).toMatch(
      /^cel evaluation error: expression 'request\.resourceAttributes\.name == 'x'' resulted in error: /,
    );
    expect(certServer.calls).toBe(0);
    expect(
      await metric('apiserver_authorization_match_condition_evaluation_errors_total', {
        name: 'hook',
        type: 'Webhook',
      }),
    ).toBe(1);
  });

  it('a false after an error excludes at once; several errors are aggregated', async () => {
    const a = withConditions(["request.resourceAttributes.name == 'x'", 'false'], 'Deny');
    expect(await a.authorize(nonResourceAttrs)).toEqual({ decision: 'NoOpinion', reason: '' });
    const b = withConditions(["request.resourceAttributes.name == 'x'", "request.resourceAttributes.verb == 'y'"]);
    expect((await b.authorize(nonResourceAttrs)).error?.message).toMatch(
      /^\[cel evaluation error: .*, cel evaluation error: .*\]$/,
    );
    expect(certServer.calls).toBe(0);
  });

  it('evaluates 64 conditions', async () => {
    const exprs = Array.from({ length: 64 }, (_, i) => `request.user.size() > ${i - 100}`);
    expect((await withConditions(exprs).authorize(resourceAttrs())).decision).toBe('Allow');
    const last = [...exprs.slice(0, 63), "request.user == 'nobody'"];
    expect((await withConditions(last).authorize(resourceAttrs())).decision).toBe('NoOpinion');
    expect(certServer.calls).toBe(1);
  });
});

describe('the chain', () => {
  it('asks three authorizers in order; the first Allow or Deny wins; no opinion falls through', async () => {
    const second = await WebhookServer.start({ clientCA: clientCA.cert });
    try {
      certServer.answer = (r) =>
        r.review.spec?.['user'] === 'carol'
          ? { status: { allowed: false, denied: true, reason: 'carol is out' } }
          : { status: { allowed: false, reason: 'first: no rule' } };
      second.answer = (r) =>
        (r.review.spec?.['resourceAttributes'] as { verb?: string } | undefined)?.verb === 'list'
          ? { status: { allowed: true } }
          : { status: { allowed: false, reason: 'second: no rule' } };
      const a = build(
        config(
          webhookEntry(kubeconfigFile(certServer, certUser()), {}, 'first'),
          webhookEntry(kubeconfigFile(second, certUser()), {}, 'second'),
          { type: 'AlwaysDeny', name: 'deny-rest' },
        ),
      );
      expect(await a.authorize(resourceAttrs())).toEqual({ decision: 'Allow', reason: '' });
      expect(await a.authorize(resourceAttrs({ verb: 'delete', name: 'x' }))).toEqual({
        decision: 'Deny',
        reason: 'Everything is forbidden.',
      });
      expect(await a.authorize(resourceAttrs({ user: { username: 'carol', groups: [] } }))).toEqual({
        decision: 'Deny',
        reason: 'carol is out',
      });
      expect(second.calls).toBe(2); // carol never reached the second webhook
      expect(
        await metric('apiserver_authorization_decisions_total', {
          type: 'AlwaysDeny',
          name: 'deny-rest',
          decision: 'denied',
        }),
      ).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('lets system:masters through before any webhook; without a decision, joins reasons and keeps errors', async () => {
    certServer.answer = () => ({ status: { allowed: false, reason: 'r1' } });
    const broken = join(dir, 'broken.yaml');
    const kc = JSON.parse(certServer.kubeconfig(certUser())) as { clusters: { cluster: Record<string, unknown> }[] };
    kc.clusters[0]!.cluster['server'] = 'https://127.0.0.1:1/authorize';
    writeFileSync(broken, JSON.stringify(kc));
    const a = build(
      config(
        webhookEntry(kubeconfigFile(certServer, certUser()), {}, 'one'),
        webhookEntry(kubeconfigFile(certServer, certUser()), {}, 'two'),
        webhookEntry(broken, {}, 'three'),
      ),
    );
    expect(await a.authorize(resourceAttrs({ user: { username: 'root', groups: ['system:masters'] } }))).toEqual({
      decision: 'Allow',
      reason: '',
    });
    expect(certServer.calls).toBe(0);
    const d = await a.authorize(resourceAttrs());
    expect(d.decision).toBe('NoOpinion');
    expect(d.reason).toBe('r1\nr1');
    expect(d.error?.message).toMatch(/ECONNREFUSED/);
  });

  it('refuses types this server does not build, naming the supported ones', () => {
    expect(() => build(config({ type: 'RBAC', name: 'rbac' }))).toThrow(
      'authorizers[0].type: Unsupported value: "RBAC": supported values: "AlwaysAllow", "AlwaysDeny", "Webhook"',
    );
  });
});
