import { describe, expect, it } from '@jest/globals';
import type { CoreEvent } from '@kevents/api';
import { validateEventCreate } from './create.js';
import { validateEventCreateRequest } from './request.js';
import fc from 'fast-check';
import { validateObjectMeta } from '../meta/object-meta.js';
import { nameIsPathSegment } from '../meta/name-functions.js';
import type { EventRequestVersion } from './request-version.js';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** The internal form of an events.k8s.io/v1 Event as client-go's events library creates it. */
const v1Event = (over: Partial<CoreEvent> = {}): CoreEvent => ({
  metadata: { name: 'nginx-7c5ddbdf54-x8f9k.17d0a4b2c3d4e5f6', namespace: 'default' },
  involvedObject: {
    kind: 'Pod',
    namespace: 'default',
    name: 'nginx-7c5ddbdf54-x8f9k',
    uid: 'b6f1c2a5',
    apiVersion: 'v1',
  },
  eventTime: '2024-01-02T03:04:05.123456Z',
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
  action: 'Pulling',
  reason: 'Pulling',
  message: 'Pulling image "nginx:1.25"',
  type: 'Normal',
  ...over,
});
const strict = (e: CoreEvent) => validateEventCreate(e, 'events.k8s.io/v1').map(String);
const core = (e: CoreEvent) => validateEventCreate(e, 'core/v1').map(String);

describe('validateEventCreate through events.k8s.io/v1', () => {
  it('accepts a well-formed event, with or without a series', () => {
    expect(strict(v1Event())).toEqual([]);
    expect(
      strict(v1Event({ type: 'Warning', series: { count: 2, lastObservedTime: '2024-01-02T03:05:05.000000Z' } })),
    ).toEqual([]);
    expect(strict(v1Event({ message: '', related: { kind: 'Node', name: 'node-1' } }))).toEqual([]);
  });

  it('requires a DNS-subdomain name (core/v1 only needs a path segment)', () => {
    const e = v1Event({ metadata: { name: 'Nginx.17D0', namespace: 'default' } });
    const errs = validateEventCreate(e, 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual([`metadata.name: Invalid value: "Nginx.17D0": ${subdomainMsg}`]);
    expect(errs.map((e) => [e.type, e.field])).toEqual([['FieldValueInvalid', 'metadata.name']]);
    expect(core(e)).toEqual([]);
    expect(validateEventCreateRequest(e, 'core/v1')).toEqual([]);
  });

  it('limits the name to 253 characters', () => {
    const name = 'a'.repeat(254);
    expect(strict(v1Event({ metadata: { name, namespace: 'default' } }))).toEqual([
      `metadata.name: Invalid value: "${name}": must be no more than 253 characters`,
    ]);
  });

  it('requires a name or generateName', () => {
    const errs = validateEventCreate(v1Event({ metadata: { namespace: 'default' } }), 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual(['metadata.name: Required value: name or generateName is required']);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueRequired']);
    expect(
      strict(v1Event({ metadata: { generateName: 'nginx-', name: 'nginx-x2b4z', namespace: 'default' } })),
    ).toEqual([]);
  });

  it('requires a namespace (Kubernetes "missing namespace in objectMeta")', () => {
    expect(
      strict(v1Event({ metadata: { name: 'test' }, involvedObject: { kind: 'Node', name: 'n', apiVersion: 'v1' } })),
    ).toEqual([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
      `namespace: Invalid value: "": ${subdomainMsg}`,
      'metadata.namespace: Required value',
    ]);
  });

  it('checks the metadata namespace as a DNS label although the legacy rule allows a subdomain', () => {
    const e = v1Event({
      metadata: { name: 'x', namespace: 'team.a' },
      involvedObject: { kind: 'Pod', namespace: 'team.a', name: 'p' },
    });
    expect(core(e)).toEqual([]);
    expect(strict(e)).toEqual(['metadata.namespace: Invalid value: "team.a": must not contain dots']);
  });

  it('validates labels, annotations and core finalizer names', () => {
    expect(
      strict(
        v1Event({ metadata: { name: 'x', namespace: 'default', labels: { 'a/b/c': 'v' }, finalizers: ['mine'] } }),
      ),
    ).toEqual([
      "metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      'metadata.finalizers[0]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    expect(core(v1Event({ metadata: { name: 'x', namespace: 'default', finalizers: ['mine'] } }))).toEqual([]);
  });

  it('requires eventTime (then the legacy case-A namespace rule applies)', () => {
    const errs = validateEventCreate(v1Event({ eventTime: null }), 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual(['eventTime: Required value']);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueRequired']);
    expect(
      strict(
        v1Event({
          eventTime: undefined,
          involvedObject: { kind: 'Node', name: 'n' },
          metadata: { name: 'x', namespace: 'kube-system' },
        }),
      ),
    ).toEqual([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
      'eventTime: Required value',
    ]);
  });

  it.each([
    ['Info', 'type: Invalid value: "": has invalid value: Info'],
    ['normal', 'type: Invalid value: "": has invalid value: normal'],
    ['', 'type: Invalid value: "": has invalid value: '],
    [undefined, 'type: Invalid value: "": has invalid value: '],
  ])('type must be Normal or Warning: %j', (type, want) => {
    const errs = validateEventCreate(v1Event({ type }), 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual([want]);
    expect(errs.map((e) => [e.type, e.field, e.badValue])).toEqual([['FieldValueInvalid', 'type', '']]);
    expect(core(v1Event({ type }))).toEqual([]);
  });

  it.each([
    [{ firstTimestamp: '2024-01-02T03:04:05Z' }, 'firstTimestamp'],
    [{ lastTimestamp: '2024-01-02T03:04:05Z' }, 'lastTimestamp'],
    [{ count: 123 }, 'count'],
    [{ count: -1 }, 'count'],
    [{ source: { host: 'host' } }, 'source'],
    [{ source: { component: 'kubelet' } }, 'source'],
  ] as const)('deprecated fields must be unset: %j', (over, field) => {
    const errs = validateEventCreate(v1Event(over), 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual([`${field}: Invalid value: "": needs to be unset`]);
    expect(errs.map((e) => [e.type, e.field])).toEqual([['FieldValueInvalid', field]]);
    expect(core(v1Event(over))).toEqual([]);
  });

  it('zero values of deprecated fields count as unset', () => {
    expect(strict(v1Event({ firstTimestamp: null, lastTimestamp: null, count: 0, source: {} }))).toEqual([]);
    expect(strict(v1Event({ source: { component: '', host: '' } }))).toEqual([]);
  });

  it('validates a series', () => {
    expect(strict(v1Event({ series: { count: 0, lastObservedTime: '2024-01-02T03:04:05.000000Z' } }))).toEqual([
      'series.count: Invalid value: "": should be at least 2',
    ]);
    expect(strict(v1Event({ series: { count: 1, lastObservedTime: '2024-01-02T03:04:05.000000Z' } }))).toEqual([
      'series.count: Invalid value: "": should be at least 2',
    ]);
    const errs = validateEventCreate(v1Event({ series: { count: 2 } }), 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual(['series.lastObservedTime: Required value']);
    expect(errs.map((e) => [e.type, e.field])).toEqual([['FieldValueRequired', 'series.lastObservedTime']]);
    expect(strict(v1Event({ series: {} }))).toEqual([
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
    ]);
    expect(core(v1Event({ series: { count: 0 } }))).toEqual([]);
  });

  it('lists every error in Kubernetes order', () => {
    const e = v1Event({
      metadata: { name: 'Bad', namespace: 'default' },
      reportingComponent: 'bad controller',
      series: { count: 1, lastObservedTime: '2024-01-02T03:04:05.000000Z' },
      type: 'Info',
      firstTimestamp: '2024-01-02T03:04:05Z',
      lastTimestamp: '2024-01-02T03:04:05Z',
      count: 3,
      source: { component: 'x' },
    });
    expect(validateEventCreate(e, 'events.k8s.io/v1').map((x) => x.field)).toEqual([
      'reportingController',
      'metadata.name',
      'series.count',
      'type',
      'firstTimestamp',
      'lastTimestamp',
      'count',
      'source',
    ]);
  });
});

describe('validateEventCreateRequest (registry pipeline)', () => {
  it('runs the path-segment name check only when the Event rules pass', () => {
    const slash = v1Event({ metadata: { name: 'a/b', namespace: 'default' } });
    expect(validateEventCreateRequest(slash, 'core/v1').map(String)).toEqual([
      `metadata.name: Invalid value: "a/b": may not contain '/'`,
    ]);
    const both = v1Event({ metadata: { name: 'a/b', namespace: 'default' }, action: '' });
    expect(validateEventCreateRequest(both, 'core/v1').map(String)).toEqual(['action: Required value']);
  });

  it('requires a name on core/v1 too', () => {
    expect(validateEventCreateRequest(v1Event({ metadata: { namespace: 'default' } }), 'core/v1').map(String)).toEqual([
      'metadata.name: Required value: name or generateName is required',
    ]);
  });
});

describe('validateEventCreateRequest against the composition it stands for', () => {
  // validateEventCreateRequest skips what it knows the first pass checked: this is the long way.
  const reference = (e: CoreEvent, v: EventRequestVersion) => {
    const errs = validateEventCreate(e, v);
    if (errs.length) return errs;
    return validateObjectMeta(e.metadata ?? {}, { namespaced: true, nameFn: nameIsPathSegment });
  };
  const names = fc.constantFrom(
    undefined,
    '',
    'web-0',
    'web-0.17d0a4b2',
    'Upper.Case',
    'a/b',
    'a%b',
    '..',
    'abc/-',
    'abc%-',
    'web-',
    '-web',
    'a'.repeat(254),
  );
  const strings = fc.constantFrom('ok', 'x/y', 'Bad Value', '', 'a'.repeat(64));
  const meta = fc.record(
    {
      name: names,
      generateName: names,
      namespace: fc.constantFrom(undefined, '', 'default', 'Bad_NS', 'kube-system'),
      generation: fc.constantFrom(undefined, 0, 3, -1),
      labels: fc.option(fc.dictionary(strings, strings, { maxKeys: 2 }), { nil: undefined }),
      annotations: fc.option(fc.dictionary(strings, strings, { maxKeys: 2 }), { nil: undefined }),
      finalizers: fc.option(
        fc.array(fc.constantFrom('kubernetes', 'orphan', 'foregroundDeletion', 'x/y', 'bad'), { maxLength: 3 }),
        { nil: undefined },
      ),
      ownerReferences: fc.option(
        fc.array(
          fc.record({
            apiVersion: fc.constantFrom('v1', '', 'apps/v1'),
            kind: fc.constantFrom('Pod', '', 'Event'),
            name: strings,
            uid: strings,
            controller: fc.boolean(),
          }),
          { maxLength: 2 },
        ),
        { nil: undefined },
      ),
    },
    { requiredKeys: [] },
  );

  it('finds the same errors, in the same order, on both APIs', () => {
    fc.assert(
      fc.property(meta, fc.constantFrom<EventRequestVersion>('core/v1', 'events.k8s.io/v1'), (m, v) => {
        const e = v1Event({ metadata: m as CoreEvent['metadata'] });
        expect(validateEventCreateRequest(e, v).map(String)).toEqual(reference(e, v).map(String));
      }),
      { numRuns: 2000 },
    );
  });

  it('checks a generateName that hides a `/` before its trailing dash from the DNS rule', () => {
    const e = v1Event({ metadata: { name: 'web-0', generateName: 'abc/-', namespace: 'default' } });
    expect(strict(e)).toEqual([]);
    expect(validateEventCreateRequest(e, 'events.k8s.io/v1').map(String)).toEqual([
      `metadata.generateName: Invalid value: "abc/-": may not contain '/'`,
    ]);
  });
});
