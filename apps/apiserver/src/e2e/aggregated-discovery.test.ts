import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeProtobuf, encodeProtobuf } from '@kevents/api';
import type { ProtobufType } from '@kevents/api';
import { Kubectl, request, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

/** What kubectl (client-go 1.27+) sends to `/api` and `/apis`. */
const KUBECTL_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** `apidiscovery.k8s.io/v2` types.go: the JSON fields each object may have. */
const LIST_KEYS = ['apiVersion', 'items', 'kind', 'metadata'];
const GROUP_KEYS = ['metadata', 'versions'];
const VERSION_KEYS = ['freshness', 'resources', 'version'];
const RESOURCE_KEYS = [
  'categories',
  'resource',
  'responseKind',
  'scope',
  'shortNames',
  'singularResource',
  'subresources',
  'verbs',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv?.close());

const get = (path: string, accept?: string): ReturnType<typeof request> =>
  request(`${srv.url}${path}`, accept === undefined ? {} : { headers: { accept } });

/** Checks an APIGroupDiscoveryList against the v2 types: only known fields, required ones set. */
function expectWellFormed(list: Json, apiVersion: string, core: boolean): void {
  expect(Object.keys(list).sort()).toEqual(LIST_KEYS);
  expect(list['kind']).toBe('APIGroupDiscoveryList');
  expect(list['apiVersion']).toBe(apiVersion);
  expect(list['metadata']).toEqual({});
  for (const group of list['items'] as Json[]) {
    expect(Object.keys(group).sort()).toEqual(GROUP_KEYS);
    // ObjectMeta: the group name (none for the core group); creationTimestamp null or absent.
    const meta = { ...group['metadata'] };
    if ('creationTimestamp' in meta) expect(meta['creationTimestamp']).toBeNull();
    delete meta['creationTimestamp'];
    expect(meta).toEqual(core ? {} : { name: expect.stringMatching(/^[a-z0-9.-]+$/) });
    expect((group['versions'] as Json[]).length).toBeGreaterThan(0);
    for (const version of group['versions'] as Json[]) {
      expect(Object.keys(version).sort()).toEqual(VERSION_KEYS);
      expect(version['freshness']).toBe('Current');
      const names = (version['resources'] as Json[]).map((r) => r['resource'] as string);
      expect(names).toEqual([...names].sort());
      for (const r of version['resources'] as Json[]) {
        for (const k of Object.keys(r)) expect(RESOURCE_KEYS).toContain(k);
        expect(Object.keys(r['responseKind']).sort()).toEqual(['group', 'kind', 'version']);
        expect(r['responseKind'].group).toBe(core ? '' : group['metadata'].name);
        expect(r['responseKind'].version).toBe(version['version']);
        expect(['Namespaced', 'Cluster']).toContain(r['scope']);
        expect(typeof r['singularResource']).toBe('string');
        expect(Array.isArray(r['verbs'])).toBe(true);
        if ('shortNames' in r) expect(r['shortNames'].length).toBeGreaterThan(0);
        if ('categories' in r) expect(r['categories'].length).toBeGreaterThan(0);
      }
    }
  }
}

const resourceOf = (list: Json, group: string, version: string, resource: string): Json | undefined =>
  (list['items'] as Json[])
    .find((g) => (g['metadata'].name ?? '') === group)
    ?.['versions'].find((v: Json) => v['version'] === version)
    ?.['resources'].find((r: Json) => r['resource'] === resource);

describe('aggregated discovery (apidiscovery.k8s.io/v2) with kubectl’s Accept', () => {
  it('/apis answers an APIGroupDiscoveryList v2 with the exact content type', async () => {
    const r = await get('/apis?timeout=32s', KUBECTL_ACCEPT);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(V2);
    expect(r.headers.get('vary')).toBe('Accept');
    expectWellFormed(r.body, 'apidiscovery.k8s.io/v2', false);
    const groups = (r.body.items as Json[]).map((g) => g['metadata'].name);
    expect(groups).toEqual(expect.arrayContaining(['events.k8s.io', 'coordination.k8s.io', 'apps', 'batch']));
    expect(new Set(groups).size).toBe(groups.length);
  });

  it('/apis: events.k8s.io/v1 events and coordination.k8s.io/v1 leases, as kube-apiserver lists them', async () => {
    const r = await get('/apis', KUBECTL_ACCEPT);
    const byName = (name: string): Json => (r.body.items as Json[]).find((g) => g['metadata'].name === name)!;
    expect(byName('events.k8s.io')['versions']).toEqual([
      {
        version: 'v1',
        resources: [
          {
            resource: 'events',
            responseKind: { group: 'events.k8s.io', version: 'v1', kind: 'Event' },
            scope: 'Namespaced',
            singularResource: 'event',
            verbs: ALL_VERBS,
            shortNames: ['ev'],
          },
        ],
        freshness: 'Current',
      },
    ]);
    expect(byName('coordination.k8s.io')['versions']).toEqual([
      {
        version: 'v1',
        resources: [
          {
            resource: 'leases',
            responseKind: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' },
            scope: 'Namespaced',
            singularResource: 'lease',
            verbs: ALL_VERBS,
          },
        ],
        freshness: 'Current',
      },
    ]);
  });

  it('/apis: the referenced kinds (apps, batch) are listed without verbs', async () => {
    const r = await get('/apis', KUBECTL_ACCEPT);
    expect(resourceOf(r.body, 'apps', 'v1', 'deployments')).toEqual({
      resource: 'deployments',
      responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: [],
      shortNames: ['deploy'],
    });
    for (const [g, res, kind] of [
      ['apps', 'daemonsets', 'DaemonSet'],
      ['apps', 'replicasets', 'ReplicaSet'],
      ['apps', 'statefulsets', 'StatefulSet'],
      ['batch', 'jobs', 'Job'],
      ['batch', 'cronjobs', 'CronJob'],
    ] as const) {
      expect(resourceOf(r.body, g, 'v1', res)).toMatchObject({
        responseKind: { group: g, version: 'v1', kind },
        scope: 'Namespaced',
        verbs: [],
      });
    }
  });

  it('/api answers one unnamed core group with events, namespaces and the referenced kinds', async () => {
    const r = await get('/api?timeout=32s', KUBECTL_ACCEPT);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(V2);
    expectWellFormed(r.body, 'apidiscovery.k8s.io/v2', true);
    expect(r.body.items).toHaveLength(1);
    expect(r.body.items[0].versions.map((v: Json) => v['version'])).toEqual(['v1']);
    expect(resourceOf(r.body, '', 'v1', 'events')).toEqual({
      resource: 'events',
      responseKind: { group: '', version: 'v1', kind: 'Event' },
      scope: 'Namespaced',
      singularResource: 'event',
      verbs: ALL_VERBS,
      shortNames: ['ev'],
    });
    const ns = resourceOf(r.body, '', 'v1', 'namespaces')!;
    expect(ns).toMatchObject({
      resource: 'namespaces',
      responseKind: { group: '', version: 'v1', kind: 'Namespace' },
      scope: 'Cluster',
      singularResource: 'namespace',
      shortNames: ['ns'],
    });
    expect(ns['verbs']).toEqual(expect.arrayContaining(['get', 'list']));
    for (const [res, kind, scope] of [
      ['pods', 'Pod', 'Namespaced'],
      ['nodes', 'Node', 'Cluster'],
      ['services', 'Service', 'Namespaced'],
      ['configmaps', 'ConfigMap', 'Namespaced'],
      ['persistentvolumes', 'PersistentVolume', 'Cluster'],
    ] as const) {
      expect(resourceOf(r.body, '', 'v1', res)).toMatchObject({
        responseKind: { group: '', version: 'v1', kind },
        scope,
        verbs: [],
      });
    }
    // Core resources never appear under /apis, nor groups under /api.
    const apis = await get('/apis', KUBECTL_ACCEPT);
    expect((apis.body.items as Json[]).some((g) => !g['metadata'].name)).toBe(false);
  });

  it('agrees with the legacy documents, resource by resource', async () => {
    const agg = (await get('/apis', KUBECTL_ACCEPT)).body as Json;
    const groups = (await get('/apis', 'application/json')).body as Json;
    const core = (await get('/api', KUBECTL_ACCEPT)).body as Json;
    const lists: [string, string, Json][] = [['', 'v1', core]];
    for (const g of groups['groups'] as Json[]) {
      for (const v of g['versions'] as Json[]) lists.push([g['name'], v['version'], agg]);
    }
    expect(lists.length).toBeGreaterThan(1);
    for (const [group, version, doc] of lists) {
      const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
      const legacy = await get(path, 'application/json');
      expect(legacy.status).toBe(200);
      expect(legacy.body.kind).toBe('APIResourceList');
      const docVersion = (doc['items'] as Json[])
        .find((g) => (g['metadata'].name ?? '') === group)
        ?.['versions'].find((v: Json) => v['version'] === version);
      expect({ path, found: docVersion !== undefined }).toEqual({ path, found: true });
      const fromLegacy = (legacy.body.resources as Json[])
        .filter((r) => !String(r['name']).includes('/'))
        .map((r) => ({
          resource: r['name'],
          responseKind: { group, version, kind: r['kind'] },
          scope: r['namespaced'] ? 'Namespaced' : 'Cluster',
          singularResource: r['singularName'],
          verbs: r['verbs'],
          ...(r['shortNames']?.length ? { shortNames: r['shortNames'] } : {}),
          ...(r['categories']?.length ? { categories: r['categories'] } : {}),
        }))
        .sort((a, b) => String(a.resource).localeCompare(String(b.resource)));
      const aggregated = (docVersion['resources'] as Json[]).map((r) => {
        const { subresources: _s, ...rest } = r;
        return rest;
      });
      expect({ path, resources: aggregated }).toEqual({ path, resources: fromLegacy });
    }
  });

  it('v2beta1 is not served (kube 1.33+): alone it is skipped, so nothing fits (406, WriteRawJSON)', async () => {
    for (const path of ['/api', '/apis']) {
      const r = await get(path, V2BETA1);
      expect([r.status, r.headers.get('content-type')]).toEqual([406, 'application/json']);
      expect(r.text).toMatch(/^\{\n {2}"kind": "Status"/);
      expect(r.body.message).toBe(
        'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      );
    }
    const r = await get('/apis', `${V2BETA1},${V2},application/json`);
    expect(r.headers.get('content-type')).toBe(V2);
    expect(r.body.apiVersion).toBe('apidiscovery.k8s.io/v2');
  });

  it('media type parameters match case-insensitively in the names, as client-go’s negotiation', async () => {
    const r = await get('/apis', 'application/json; g=apidiscovery.k8s.io; v=v2; as=APIGroupDiscoveryList');
    expect(r.headers.get('content-type')).toBe(V2);
  });
});

describe('plain JSON still gets the legacy discovery documents', () => {
  for (const accept of ['application/json', undefined, '*/*', 'application/json, */*']) {
    it(`Accept: ${accept ?? '(none)'}`, async () => {
      const apis = await get('/apis', accept);
      expect(apis.status).toBe(200);
      expect(apis.headers.get('content-type')).toMatch(/^application\/json($|;)/);
      expect(apis.headers.get('content-type')).not.toContain('apidiscovery');
      expect(apis.body.kind).toBe('APIGroupList');
      expect(apis.body.apiVersion).toBe('v1');
      const names = (apis.body.groups as Json[]).map((g) => g['name']);
      expect(names).toEqual(expect.arrayContaining(['events.k8s.io', 'coordination.k8s.io']));
      expect((apis.body.groups as Json[]).find((g) => g['name'] === 'coordination.k8s.io')).toEqual({
        name: 'coordination.k8s.io',
        versions: [{ groupVersion: 'coordination.k8s.io/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'coordination.k8s.io/v1', version: 'v1' },
      });

      const api = await get('/api', accept);
      expect(api.status).toBe(200);
      expect(api.body.kind).toBe('APIVersions');
      expect(api.body.versions).toEqual(['v1']);
      expect(api.body.serverAddressByClientCIDRs).toEqual([
        { clientCIDR: '0.0.0.0/0', serverAddress: expect.any(String) },
      ]);
    });
  }

  it('/apis/coordination.k8s.io/v1 is the APIResourceList of leases, with the storage version hash', async () => {
    const r = await get('/apis/coordination.k8s.io/v1', 'application/json');
    expect(r.body).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'coordination.k8s.io/v1',
      resources: [
        {
          name: 'leases',
          singularName: 'lease',
          namespaced: true,
          kind: 'Lease',
          verbs: ALL_VERBS,
          storageVersionHash: 'gqkMMb/YqFM=',
        },
      ],
    });
  });

  it('/apis/coordination.k8s.io is the APIGroup', async () => {
    const r = await get('/apis/coordination.k8s.io', 'application/json');
    expect(r.body).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'coordination.k8s.io',
      versions: [{ groupVersion: 'coordination.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'coordination.k8s.io/v1', version: 'v1' },
    });
  });
});

describe('aggregated discovery caching, as kube-apiserver (aggregated.ServeHTTPWithETag)', () => {
  it('sets a quoted SHA-512 ETag, Vary: Accept and Cache-Control: public', async () => {
    for (const path of ['/api', '/apis']) {
      const r = await get(path, KUBECTL_ACCEPT);
      expect({ path, etag: r.headers.get('etag') }).toEqual({ path, etag: expect.stringMatching(/^"[0-9A-F]{128}"$/) });
      expect(r.headers.get('vary')).toBe('Accept');
      expect(r.headers.get('cache-control')).toBe('public');
      const again = await get(path, KUBECTL_ACCEPT);
      expect(again.headers.get('etag')).toBe(r.headers.get('etag'));
    }
    expect((await get('/api', KUBECTL_ACCEPT)).headers.get('etag')).not.toBe(
      (await get('/apis', KUBECTL_ACCEPT)).headers.get('etag'),
    );
  });

  it('If-None-Match with the ETag answers 304 Not Modified without a body', async () => {
    const first = await get('/apis', KUBECTL_ACCEPT);
    const etag = first.headers.get('etag') ?? '"missing"';
    const r = await request(`${srv.url}/apis`, { headers: { accept: KUBECTL_ACCEPT, 'if-none-match': etag } });
    expect(r.status).toBe(304);
    expect(r.text).toBe('');
    const stale = await request(`${srv.url}/apis`, { headers: { accept: KUBECTL_ACCEPT, 'if-none-match': '"0"' } });
    expect(stale.status).toBe(200);
  });
});

describe('kubectl on discovery', () => {
  let kubectl: Kubectl;
  beforeAll(() => {
    kubectl = new Kubectl(srv.url);
  });
  const lines = (s: string): string[] =>
    s
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/\s+/g, ' ').trim());

  it('api-resources lists events (both views), namespaces, the self-subject reviews and leases; kinds without verbs are left out', async () => {
    const r = await kubectl.run(['api-resources']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'events ev v1 true Event',
      'namespaces ns v1 false Namespace',
      'selfsubjectreviews authentication.k8s.io/v1 false SelfSubjectReview',
      'selfsubjectaccessreviews authorization.k8s.io/v1 false SelfSubjectAccessReview',
      'selfsubjectrulesreviews authorization.k8s.io/v1 false SelfSubjectRulesReview',
      'leases coordination.k8s.io/v1 true Lease',
      'events ev events.k8s.io/v1 true Event',
    ]);
  });

  it('api-resources --namespaced=false and --verbs=watch', async () => {
    const cluster = await kubectl.run(['api-resources', '--namespaced=false', '--no-headers']);
    expect(lines(cluster.stdout)).toEqual([
      'namespaces ns v1 false Namespace',
      'selfsubjectreviews authentication.k8s.io/v1 false SelfSubjectReview',
      'selfsubjectaccessreviews authorization.k8s.io/v1 false SelfSubjectAccessReview',
      'selfsubjectrulesreviews authorization.k8s.io/v1 false SelfSubjectRulesReview',
    ]);
    const watchable = await kubectl.run(['api-resources', '--verbs=watch', '-o', 'name']);
    expect(lines(watchable.stdout)).toEqual(['events', 'leases.coordination.k8s.io', 'events.events.k8s.io']);
  });

  it('api-versions lists every group version', async () => {
    const r = await kubectl.run(['api-versions']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      'apps/v1',
      'authentication.k8s.io/v1',
      'authentication.k8s.io/v1alpha1',
      'authentication.k8s.io/v1beta1',
      'authorization.k8s.io/v1',
      'batch/v1',
      'coordination.k8s.io/v1',
      'events.k8s.io/v1',
      'v1',
    ]);
  });
});

describe('discovery negotiated as kube-apiserver 1.34 does', () => {
  const pb = 'application/vnd.kubernetes.protobuf';
  const send = async (path: string, accept: string) => {
    const res = await fetch(`${srv.url}${path}`, { headers: { accept } });
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('an aggregated clause anywhere wins over plain ones (the wrapper looks for it alone)', async () => {
    const r = await get('/apis', `application/json, ${V2}`);
    expect(r.headers.get('content-type')).toBe(V2);
    // goautoneg's order: a higher q first, whatever the client's order.
    const q = await get('/apis', `${V2};q=0.5, application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`);
    expect(q.headers.get('content-type')).toBe('application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(q.text).toMatch(/^apiVersion: apidiscovery.k8s.io\/v2\nitems:\n/);
    // Parameter values are case-sensitive: this is no aggregated clause.
    const lower = await get('/apis', 'application/json;g=apidiscovery.k8s.io;v=v2;as=apigroupdiscoverylist');
    expect(lower.status).toBe(406);
  });

  it('aggregated discovery in protobuf: apidiscovery.k8s.io/v2 messages, the ETag of the document', async () => {
    const json = await get('/apis', V2);
    const r = await send('/apis', `${pb};g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`);
    expect([r.status, r.type]).toEqual([200, `${pb};g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`]);
    // An empty repeated field reads back nil in Go (JSON null): the listed-only resources' verbs.
    const asGoReadsIt = JSON.parse(JSON.stringify(json.body).replaceAll('"verbs":[]', '"verbs":null'));
    expect(decodeProtobuf(r.bytes, 'apidiscovery/v2.APIGroupDiscoveryList')).toEqual(asGoReadsIt);
    expect(r.bytes).toEqual(encodeProtobuf(json.body, 'apidiscovery/v2.APIGroupDiscoveryList'));
    const again = await fetch(`${srv.url}/apis`, {
      headers: {
        accept: `${pb};g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`,
        'if-none-match': json.headers.get('etag')!,
      },
    });
    expect([again.status, again.headers.get('content-type'), again.headers.get('cache-control')]).toEqual([
      304,
      null,
      'public',
    ]);
  });

  it('legacy documents in YAML and protobuf; apiVersion left out for /api and /api/v1 as kube strips it', async () => {
    const cases: [string, ProtobufType, string][] = [
      ['/api', 'meta/v1.APIVersions', ''],
      ['/api/v1', 'meta/v1.APIResourceList', ''],
      ['/apis', 'meta/v1.APIGroupList', 'v1'],
      ['/apis/coordination.k8s.io', 'meta/v1.APIGroup', 'v1'],
      ['/apis/coordination.k8s.io/v1', 'meta/v1.APIResourceList', 'v1'],
    ];
    for (const [path, type, apiVersion] of cases) {
      const json = await get(path, 'application/json');
      expect(json.body.apiVersion).toBe(apiVersion || undefined);
      const p = await send(path, `${pb}, application/json`);
      expect([path, p.status, p.type]).toEqual([path, 200, pb]);
      expect(decodeProtobuf(p.bytes, type)).toEqual(json.body);
      expect(p.bytes).toEqual(encodeProtobuf(json.body, type));
      const y = await get(path, 'application/yaml');
      expect([path, y.headers.get('content-type')]).toEqual([path, 'application/yaml']);
      expect(y.text).toContain(`kind: ${json.body.kind}\n`);
    }
  });

  it('nothing servable is a 406 listing the three media types; pretty=1 indents', async () => {
    for (const path of ['/api', '/apis', '/api/v1', '/apis/coordination.k8s.io', '/apis/coordination.k8s.io/v1']) {
      const r = await get(path, 'text/html');
      expect([path, r.status]).toEqual([path, 406]);
      expect(r.body.message).toBe(
        'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      );
      // A conversion on a legacy document is skipped, not served.
      expect((await get(path, 'application/json;as=Table;g=meta.k8s.io;v=v1')).status).toBe(406);
    }
    const pretty = await get('/apis', `${V2};pretty=1`);
    expect(pretty.text).toMatch(/^\{\n {2}"kind": "APIGroupDiscoveryList"/);
    expect(pretty.text.endsWith('}')).toBe(true);
  });
});
