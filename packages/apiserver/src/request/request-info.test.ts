import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { resolveRequestInfo } from './request-info.js';
import { parseRequestTarget } from './request-target.js';
import type { RequestInfo, RequestQuery } from './request-info.js';

/** [verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts] as requestinfo_test.go lists them. */
type Row = [string, string, string, string, string, string, string, string, string[]];

const pick = (i: RequestInfo): Row => [
  i.verb,
  i.apiPrefix,
  i.apiGroup,
  i.apiVersion,
  i.namespace,
  i.resource,
  i.subresource,
  i.name,
  [...i.parts],
];

const info = (method: string, url: string, query: RequestQuery = {}): RequestInfo =>
  resolveRequestInfo(method, url, query);

describe('resolveRequestInfo: resource requests (requestinfo_test.go TestGetAPIRequestInfo)', () => {
  const cases: [string, string, Row][] = [
    // resource paths
    ['GET', '/api/v1/namespaces', ['list', 'api', '', 'v1', '', 'namespaces', '', '', ['namespaces']]],
    [
      'GET',
      '/api/v1/namespaces/other',
      ['get', 'api', '', 'v1', 'other', 'namespaces', '', 'other', ['namespaces', 'other']],
    ],
    ['GET', '/api/v1/namespaces/other/pods', ['list', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']]],
    ['GET', '/api/v1/namespaces/other/pods/foo', ['get', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']]],
    [
      'HEAD',
      '/api/v1/namespaces/other/pods/foo',
      ['get', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ],
    ['GET', '/api/v1/pods', ['list', 'api', '', 'v1', '', 'pods', '', '', ['pods']]],
    ['HEAD', '/api/v1/pods', ['list', 'api', '', 'v1', '', 'pods', '', '', ['pods']]],
    ['GET', '/api/v1/namespaces/other/pods/foo', ['get', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']]],
    ['GET', '/api/v1/namespaces/other/pods', ['list', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']]],
    // special verbs
    [
      'GET',
      '/api/v1/proxy/namespaces/other/pods/foo',
      ['proxy', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ],
    [
      'GET',
      '/api/v1/proxy/namespaces/other/pods/foo/subpath/not/a/subresource',
      ['proxy', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo', 'subpath', 'not', 'a', 'subresource']],
    ],
    ['GET', '/api/v1/watch/pods', ['watch', 'api', '', 'v1', '', 'pods', '', '', ['pods']]],
    ['GET', '/api/v1/pods?watch=true', ['watch', 'api', '', 'v1', '', 'pods', '', '', ['pods']]],
    ['GET', '/api/v1/pods?watch=false', ['list', 'api', '', 'v1', '', 'pods', '', '', ['pods']]],
    ['GET', '/api/v1/watch/namespaces/other/pods', ['watch', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']]],
    ['GET', '/api/v1/namespaces/other/pods?watch=1', ['watch', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']]],
    ['GET', '/api/v1/namespaces/other/pods?watch=0', ['list', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']]],
    // subresource identification
    [
      'GET',
      '/api/v1/namespaces/other/pods/foo/status',
      ['get', 'api', '', 'v1', 'other', 'pods', 'status', 'foo', ['pods', 'foo', 'status']],
    ],
    [
      'GET',
      '/api/v1/namespaces/other/pods/foo/proxy/subpath',
      ['get', 'api', '', 'v1', 'other', 'pods', 'proxy', 'foo', ['pods', 'foo', 'proxy', 'subpath']],
    ],
    [
      'PUT',
      '/api/v1/namespaces/other/finalize',
      ['update', 'api', '', 'v1', 'other', 'namespaces', 'finalize', 'other', ['namespaces', 'other', 'finalize']],
    ],
    [
      'PUT',
      '/api/v1/namespaces/other/status',
      ['update', 'api', '', 'v1', 'other', 'namespaces', 'status', 'other', ['namespaces', 'other', 'status']],
    ],
    // verb identification
    [
      'PATCH',
      '/api/v1/namespaces/other/pods/foo',
      ['patch', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ],
    [
      'DELETE',
      '/api/v1/namespaces/other/pods/foo',
      ['delete', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ],
    ['POST', '/api/v1/namespaces/other/pods', ['create', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']]],
    [
      'PUT',
      '/api/v1/namespaces/other/pods/foo',
      ['update', 'api', '', 'v1', 'other', 'pods', '', 'foo', ['pods', 'foo']],
    ],
    // deletecollection verb identification
    ['DELETE', '/api/v1/nodes', ['deletecollection', 'api', '', 'v1', '', 'nodes', '', '', ['nodes']]],
    ['DELETE', '/api/v1/namespaces', ['deletecollection', 'api', '', 'v1', '', 'namespaces', '', '', ['namespaces']]],
    [
      'DELETE',
      '/api/v1/namespaces/other/pods',
      ['deletecollection', 'api', '', 'v1', 'other', 'pods', '', '', ['pods']],
    ],
    [
      'DELETE',
      '/apis/extensions/v1/namespaces/other/pods',
      ['deletecollection', 'apis', 'extensions', 'v1', 'other', 'pods', '', '', ['pods']],
    ],
    // api group identification
    [
      'POST',
      '/apis/extensions/v1/namespaces/other/pods',
      ['create', 'apis', 'extensions', 'v1', 'other', 'pods', '', '', ['pods']],
    ],
    // api version identification
    [
      'POST',
      '/apis/extensions/v1beta3/namespaces/other/pods',
      ['create', 'apis', 'extensions', 'v1beta3', 'other', 'pods', '', '', ['pods']],
    ],
    // cluster-scoped and group resources
    ['GET', '/apis/events.k8s.io/v1/events', ['list', 'apis', 'events.k8s.io', 'v1', '', 'events', '', '', ['events']]],
    [
      'GET',
      '/apis/events.k8s.io/v1/watch/namespaces/ns/events/e1',
      ['watch', 'apis', 'events.k8s.io', 'v1', 'ns', 'events', '', 'e1', ['events', 'e1']],
    ],
    [
      'GET',
      '/apis/g/v1/nodes/n1/status/',
      ['get', 'apis', 'g', 'v1', '', 'nodes', 'status', 'n1', ['nodes', 'n1', 'status']],
    ],
    // unknown method: no verb
    ['OPTIONS', '/api/v1/pods/p', ['', 'api', '', 'v1', '', 'pods', '', 'p', ['pods', 'p']]],
    ['CONNECT', '/api/v1/pods', ['', 'api', '', 'v1', '', 'pods', '', '', ['pods']]],
  ];
  for (const [method, url, want] of cases) {
    it(`${method} ${url}`, () => {
      const q = url.indexOf('?');
      const query = q < 0 ? {} : Object.fromEntries(new URLSearchParams(url.slice(q + 1)));
      const got = info(method, url, query);
      expect(pick(got)).toEqual(want);
      expect(got.isResourceRequest).toBe(true);
      expect(got.path).toBe((q < 0 ? url : url.slice(0, q)).replace(/\/$/, ''));
    });
  }

  it('watch is read as the parameter codec reads it: only false and 0 (any case) are false', () => {
    for (const v of ['t', 'True', '1', 'true', 'yes', '', 'TRUE', 'x']) {
      expect(info('GET', '/api/v1/pods', { watch: v }).verb).toBe('watch');
    }
    for (const v of ['false', '0', 'False', 'FALSE']) {
      expect(info('GET', '/api/v1/pods', { watch: v }).verb).toBe('list');
    }
    expect(info('GET', '/api/v1/pods', { watch: ['0', 'true'] }).verb).toBe('list');
    expect(info('GET', '/api/v1/pods', { watch: ['1', 'false'] }).verb).toBe('watch');
    // watch does not turn a get of a name into a watch
    expect(info('GET', '/api/v1/namespaces/ns/pods/p', { watch: 'true' }).verb).toBe('get');
    // nor a delete or a create
    expect(info('DELETE', '/api/v1/pods', { watch: 'true' }).verb).toBe('deletecollection');
    expect(info('POST', '/api/v1/pods', { watch: 'true' }).verb).toBe('create');
  });

  it('a /watch/ path is a watch whatever the watch parameter says', () => {
    expect(info('GET', '/api/v1/watch/pods', { watch: 'false' }).verb).toBe('watch');
    expect(info('GET', '/api/v1/watch/namespaces/ns/pods/p').verb).toBe('watch');
    expect(info('GET', '/api/v1/watch/namespaces/ns/pods/p').name).toBe('p');
  });

  it('property: a list named by its field selector can only return objects of that name', () => {
    const token = fc.constantFrom('metadata.name', 'type', '=', '==', '!=', ',', '\\,', '\\=', '\\\\', 'a', 'b', 'x');
    const name = fc.constantFrom('a', 'b', 'x', 'a,b', '');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), name, fc.constantFrom('a', 'x', 'Normal'), (tokens, n, type) => {
        const fieldSelector = tokens.join('');
        const named = info('GET', '/api/v1/pods', { fieldSelector }).name;
        let selector;
        try {
          selector = parseFieldSelector(fieldSelector);
        } catch {
          return; // the handler answers 400: nothing is returned
        }
        const fields: Record<string, string> = { 'metadata.name': n, type };
        if (named !== '' && selector.matches((f) => fields[f] ?? '')) expect(n).toBe(named);
      }),
      { numRuns: 3000 },
    );
  });

  it('a list with fieldSelector=metadata.name=X stays a list (or watch) and names X', () => {
    const l = info('GET', '/api/v1/namespaces/ns/pods', { fieldSelector: 'metadata.name=foo' });
    expect([l.verb, l.name, l.resource, l.namespace]).toEqual(['list', 'foo', 'pods', 'ns']);
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name==foo' }).name).toBe('foo');
    const w = info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=foo', watch: 'true' });
    expect([w.verb, w.name]).toEqual(['watch', 'foo']);
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'type=Normal,metadata.name=foo' }).name).toBe('foo');
    expect(info('GET', '/api/v1/pods', { fieldSelector: ['metadata.name=a', 'metadata.name=b'] }).name).toBe('a');
    // not an exact match, another field, or an invalid path segment: no name
    for (const fs of [
      'metadata.name!=foo',
      'metadata.namespace=foo',
      'xmetadata.name=foo',
      'metadata.names=foo',
      'metadata.name=..',
      'metadata.name=.',
      'metadata.name=a/b',
      'metadata.name=a%b',
      '',
    ]) {
      const r = info('GET', '/api/v1/pods', { fieldSelector: fs });
      expect([fs, r.verb, r.name]).toEqual([fs, 'list', '']);
    }
    // the selector is read as the handler reads it: escaped commas are part of a value, so a
    // term that only looks like metadata.name=X when split at every comma pins nothing
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=foo\\,bar' }).name).toBe('foo,bar');
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'type!=x\\,metadata.name\\=a,metadata.name=b' }).name).toBe(
      'b',
    );
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'type=x\\,metadata.name=a' }).name).toBe('');
    // a selector that does not parse pins nothing (kube-apiserver decodes no list options then)
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=a,garbage' }).name).toBe('');
    // an empty name pinned: still a list without name
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=' }).name).toBe('');
    // a DELETE of a collection is not named by its field selector
    const d = info('DELETE', '/api/v1/pods', { fieldSelector: 'metadata.name=foo' });
    expect([d.verb, d.name]).toEqual(['deletecollection', '']);
    // a get of a name keeps its name
    expect(info('GET', '/api/v1/pods/bar', { fieldSelector: 'metadata.name=foo' }).name).toBe('bar');
  });

  it('names nothing when a list option does not decode, as the parameter codec then drops them all but watch', () => {
    // NewRequestInfo: DecodeParameters fails, opts are reset, watch is read from the query again.
    for (const bad of [
      { limit: 'abc' },
      { limit: '9223372036854775808' },
      { timeoutSeconds: 'x' },
      { labelSelector: 'a_' },
    ]) {
      const l = info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=foo', ...bad });
      expect([l.verb, l.name]).toEqual(['list', '']);
      const w = info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=foo', watch: '1', ...bad });
      expect([w.verb, w.name]).toEqual(['watch', '']);
    }
    // A field selector that does not parse names nothing either; an escaped value is unescaped.
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'type=x\\,metadata.name=a' }).name).toBe('');
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=a,metadata.name=b' }).name).toBe('a');
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=a\\,b' }).name).toBe('a,b');
    expect(info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=a,b' }).name).toBe('');
    // Good options leave the name.
    expect(
      info('GET', '/api/v1/pods', { fieldSelector: 'metadata.name=foo', limit: '5', labelSelector: 'a=b' }).name,
    ).toBe('foo');
  });

  it("decodes the path as Go's URL.Path does: escapes first, then the segments (%2F separates)", () => {
    expect(info('GET', '/api/v1/namespaces/ns/pods/a%3Ab').name).toBe('a:b');
    expect(info('GET', '/api/v1/namespaces/ns/pods/a%23b').name).toBe('a#b');
    const r = info('GET', '/api/v1/namespaces/ns%2Fpods/x');
    expect([r.path, r.namespace, r.resource, r.name]).toEqual(['/api/v1/namespaces/ns/pods/x', 'ns', 'pods', 'x']);
  });

  it('strips the query and one trailing slash from the path', () => {
    const r = info('GET', '/api/v1/pods/?limit=1', { limit: '1' });
    expect([r.path, r.resource, r.verb]).toEqual(['/api/v1/pods', 'pods', 'list']);
  });

  it('a # is part of the name, never a fragment', () => {
    const r = info('GET', '/apis/events.k8s.io/v1/namespaces/a/events/#x');
    expect([r.verb, r.name, r.path]).toEqual(['get', '#x', '/apis/events.k8s.io/v1/namespaces/a/events/#x']);
    const d = info('DELETE', '/apis/coordination.k8s.io/v1/namespaces/a/leases/#&dryRun=All');
    expect([d.verb, d.name]).toEqual(['delete', '#&dryRun=All']);
  });

  it('an absolute-form target is classified by its path', () => {
    const r = info('GET', 'https://h:6443/apis/events.k8s.io/v1/namespaces/team-b/events?limit=1');
    expect([r.isResourceRequest, r.verb, r.namespace, r.resource, r.path]).toEqual([
      true,
      'list',
      'team-b',
      'events',
      '/apis/events.k8s.io/v1/namespaces/team-b/events',
    ]);
  });

  it('a namespace path without a resource', () => {
    expect(pick(info('GET', '/api/v1/namespaces/ns/'))).toEqual([
      'get',
      'api',
      '',
      'v1',
      'ns',
      'namespaces',
      '',
      'ns',
      ['namespaces', 'ns'],
    ]);
  });

  it('a special verb with nothing after it is a resource request without a resource', () => {
    const r = info('GET', '/api/v1/watch');
    expect([r.isResourceRequest, r.verb, r.apiPrefix, r.apiVersion, r.resource, r.name]).toEqual([
      true,
      'watch',
      'api',
      'v1',
      '',
      '',
    ]);
    expect(r.parts).toEqual([]);
    expect(r.path).toBe('/api/v1/watch');
    const p = info('GET', '/apis/g/v1/proxy');
    expect([p.isResourceRequest, p.verb, p.apiGroup, p.apiVersion]).toEqual([true, 'proxy', 'g', 'v1']);
  });
});

describe('resolveRequestInfo: non-resource requests (TestGetNonAPIRequestInfo)', () => {
  const nonResource: [string, string][] = [
    ['GET', '/'],
    ['GET', ''],
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/'],
    ['GET', '/apis'],
    ['GET', '/apis/extensions'],
    ['GET', '/apis/extensions/v1'],
    ['GET', '/apis/extensions/v1/'],
    ['POST', '/healthz'],
    ['GET', '/foo/bar/baz'],
    ['GET', '/other/api/v1/pods'],
    ['DELETE', '/version'],
    ['GET', '/metrics?x=1'],
  ];
  for (const [method, url] of nonResource) {
    it(`${method} ${url}`, () => {
      const r = info(method, url, { watch: 'true', fieldSelector: 'metadata.name=x' });
      const q = url.indexOf('?');
      expect(r).toEqual({
        isResourceRequest: false,
        path: (q < 0 ? url : url.slice(0, q)).replace(/(.)\/$/, '$1') || '/',
        verb: method.toLowerCase(),
        // Go has taken the prefix before it finds no version and resource after the group.
        apiPrefix: /^\/apis\/[^/]+\/[^/?]+/.test(url) ? 'apis' : '',
        apiGroup: '',
        apiVersion: '',
        namespace: '',
        resource: '',
        subresource: '',
        name: '',
        parts: [],
      });
    });
  }
});

describe('resolveRequestInfo: properties', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      'api',
      'apis',
      'v1',
      'watch',
      'proxy',
      'namespaces',
      'status',
      'finalize',
      'pods',
      '',
      '.',
      '..',
      '%',
      '%2F',
      'a%zz',
    ),
    fc.string({ maxLength: 6 }).filter((s) => !s.includes('?')),
  );
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get');
  const query = fc.record(
    { watch: fc.string({ maxLength: 5 }), fieldSelector: fc.string({ maxLength: 20 }) },
    { requiredKeys: [] },
  );

  it("never throws, and the path is the request target's canonical path", () => {
    fc.assert(
      fc.property(
        method,
        fc.array(segment, { maxLength: 9 }),
        fc.string({ maxLength: 8 }),
        query,
        (m, segs, qs, qy) => {
          const path = '/' + segs.join('/');
          const r = resolveRequestInfo(m, `${path}?${qs}`, qy);
          expect(r.path).toBe(parseRequestTarget(`${path}?${qs}`).path);
          if (!r.isResourceRequest) {
            expect(r.verb).toBe(m.toLowerCase());
            expect(r.parts).toEqual([]);
          } else {
            expect(['api', 'apis']).toContain(r.apiPrefix);
            expect([
              '',
              'get',
              'list',
              'watch',
              'create',
              'update',
              'patch',
              'delete',
              'deletecollection',
              'proxy',
            ]).toContain(r.verb);
            if (r.verb === 'delete' || r.verb === 'get') expect(r.name).not.toBe('');
            if (r.parts.length) expect(r.resource).toBe(r.parts[0]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an /apis/<g>/<v>/namespaces/<ns>/<r>[/<n>] path resolves its parts', () => {
    const word = fc
      .stringMatching(/^[a-z][a-z0-9]{0,6}$/)
      .filter((s) => !['watch', 'proxy', 'namespaces', 'status', 'finalize'].includes(s));
    fc.assert(
      fc.property(word, word, word, word, fc.option(word, { nil: undefined }), (g, v, ns, res, name) => {
        const url = `/apis/${g}/${v}/namespaces/${ns}/${res}${name ? `/${name}` : ''}`;
        const r = resolveRequestInfo('GET', url, {});
        expect(pick(r)).toEqual([
          '' + (name ? 'get' : 'list'),
          'apis',
          g,
          v,
          ns,
          res,
          '',
          name ?? '',
          name ? [res, name] : [res],
        ]);
      }),
      { numRuns: 200 },
    );
  });
});
