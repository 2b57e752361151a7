import { describe, expect, it } from '@jest/globals';
import type { CoreEvent } from '@kevents/api';
import { aggregateMessage } from '../field/error.js';
import { validateEventUpdate } from './update.js';
import { validateEventUpdateRequest } from './request.js';

const someTime = '2017-09-19T13:49:16.000000Z';

/** A stored events.k8s.io/v1 Event (internal form), as Kubernetes' TestValidateEventUpdateForNewV1Events builds it. */
const stored = (over: Partial<CoreEvent> = {}): CoreEvent => ({
  metadata: {
    name: 'test',
    namespace: 'kube-system',
    resourceVersion: '1',
    uid: '6f1c2a57-1d2e-4c7a-9a55-0c3e0f5b8e11',
    creationTimestamp: '2017-09-19T13:49:16Z',
  },
  involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
  eventTime: someTime,
  reportingComponent: 'k8s.io/my-controller',
  reportingInstance: 'node-xyz',
  action: 'Do',
  reason: 'Yeees',
  type: 'Normal',
  ...over,
});
const strict = (n: CoreEvent, o: CoreEvent = stored()) => validateEventUpdate(n, o, 'events.k8s.io/v1').map(String);
const immutable = (path: string, value: string) => `${path}: Invalid value: ${value}: field is immutable`;

describe('validateEventUpdate through events.k8s.io/v1', () => {
  it('accepts a series heartbeat with label and annotation changes', () => {
    const old = stored({ series: { count: 2, lastObservedTime: '2017-09-19T13:50:00.000000Z' } });
    const next = stored({
      metadata: { ...old.metadata, resourceVersion: '2', labels: { seen: 'yes' }, annotations: { 'x.io/n': '3' } },
      series: { count: 3, lastObservedTime: '2017-09-19T13:51:00.123456Z' },
    });
    expect(strict(next, old)).toEqual([]);
  });

  it('accepts starting a series (Kubernetes "valid new updated event": the old series may be invalid)', () => {
    expect(
      strict(
        stored({ series: { count: 2, lastObservedTime: someTime } }),
        stored({ series: { count: 1, lastObservedTime: someTime } }),
      ),
    ).toEqual([]);
    expect(strict(stored({ series: { count: 2, lastObservedTime: someTime } }))).toEqual([]);
  });

  it('re-validates the series only when it changed', () => {
    const bad = stored({ series: { count: 1, lastObservedTime: someTime } });
    expect(strict(bad, bad)).toEqual([]);
    expect(strict(stored({ series: { count: 1, lastObservedTime: '2017-09-19T13:49:17.000000Z' } }), bad)).toEqual([
      'series.count: Invalid value: "": should be at least 2',
    ]);
    expect(strict(stored({ series: { count: 5 } }), stored())).toEqual(['series.lastObservedTime: Required value']);
    // Equal instants written differently are the same series.
    expect(strict(bad, stored({ series: { count: 1, lastObservedTime: '2017-09-19T13:49:16Z' } }))).toEqual([]);
  });

  it('allows removing the series', () => {
    expect(strict(stored(), stored({ series: { count: 2, lastObservedTime: someTime } }))).toEqual([]);
  });

  it.each([
    [
      'involvedObject',
      { involvedObject: { apiVersion: 'v2', kind: 'Node', name: 'node-1' } },
      '{"Kind":"Node","Namespace":"","Name":"node-1","UID":"","APIVersion":"v2","ResourceVersion":"","FieldPath":""}',
    ],
    ['message', { message: 'new-message' }, '"new-message"'],
    ['source', { source: { host: 'host' } }, '{"Component":"","Host":"host"}'],
    ['firstTimestamp', { firstTimestamp: '2017-09-19T13:49:16.5+02:00' }, '"2017-09-19T11:49:16Z"'],
    ['lastTimestamp', { lastTimestamp: '2017-09-19T13:49:16Z' }, '"2017-09-19T13:49:16Z"'],
    ['count', { count: 2 }, '2'],
    ['type', { type: 'Warning' }, '"Warning"'],
    ['eventTime', { eventTime: '2017-09-19T13:49:59Z' }, '"2017-09-19T13:49:59.000000Z"'],
    ['action', { action: 'Undo' }, '"Undo"'],
    [
      'related',
      { related: { kind: 'Pod', name: 'p' } },
      '{"Kind":"Pod","Namespace":"","Name":"p","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}',
    ],
    ['reportingController', { reportingComponent: 'k8s.io/other' }, '"k8s.io/other"'],
    ['reportingInstance', { reportingInstance: 'node-abc' }, '"node-abc"'],
  ] as const)('%s is immutable (changed to the new value)', (path, over, printed) => {
    const errs = validateEventUpdate(stored(over as Partial<CoreEvent>), stored(), 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual([immutable(path, printed)]);
    expect(errs.map((e) => [e.type, e.field])).toEqual([['FieldValueInvalid', path]]);
  });

  it.each([
    ['firstTimestamp', { firstTimestamp: '2017-09-19T13:49:16Z' }, 'null'],
    ['count', { count: 3 }, '0'],
    ['related', { related: { kind: 'Pod' } }, 'null'],
    ['source', { source: { component: 'kubelet' } }, '{"Component":"","Host":""}'],
    ['message', { message: 'old' }, '""'],
  ] as const)('clearing %s is a change too', (path, over, printed) => {
    expect(strict(stored(), stored(over as Partial<CoreEvent>))).toEqual([immutable(path, printed)]);
  });

  it('an empty related object differs from no related object (a nil pointer in Go)', () => {
    expect(strict(stored({ related: {} }))).toEqual([
      immutable(
        'related',
        '{"Kind":"","Namespace":"","Name":"","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}',
      ),
    ]);
    expect(strict(stored({ related: null as never }))).toEqual([]);
  });

  it('treats zero values and absent fields alike', () => {
    expect(
      strict(
        stored({
          message: '',
          count: 0,
          source: {},
          firstTimestamp: null,
          involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: '' },
        }),
      ),
    ).toEqual([]);
  });

  it('compares times as instants', () => {
    expect(strict(stored({ eventTime: '2017-09-19T15:49:16+02:00' }))).toEqual([]);
  });

  it('reports a changed reason twice, which the aggregate message shows once', () => {
    const errs = validateEventUpdate(stored({ reason: 'Yeees-new' }), stored(), 'events.k8s.io/v1');
    expect(errs.map(String)).toEqual([immutable('reason', '"Yeees-new"'), immutable('reason', '"Yeees-new"')]);
    expect(aggregateMessage(errs)).toBe('reason: Invalid value: "Yeees-new": field is immutable');
  });

  it('applies the metadata update rules', () => {
    const old = stored();
    expect(strict(stored({ metadata: { ...old.metadata, name: 'other' } }), old)).toEqual([
      immutable('metadata.name', '"other"'),
    ]);
    expect(strict(stored({ metadata: { ...old.metadata, uid: 'x' } }), old)).toEqual([
      immutable('metadata.uid', '"x"'),
    ]);
    expect(strict(stored({ metadata: { ...old.metadata, creationTimestamp: '2020-01-01T00:00:00Z' } }), old)).toEqual([
      immutable('metadata.creationTimestamp', '"2020-01-01T00:00:00Z"'),
    ]);
    expect(strict(stored({ metadata: { ...old.metadata, resourceVersion: '' } }), old)).toEqual([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    ]);
    expect(strict(stored({ metadata: { ...old.metadata, finalizers: ['mine'] } }), old)).toEqual([
      'metadata.finalizers[0]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('moving the event to another namespace fails both the metadata and the legacy rules', () => {
    const old = stored();
    expect(strict(stored({ metadata: { ...old.metadata, namespace: 'other' } }), old)).toEqual([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
      immutable('metadata.namespace', '"other"'),
    ]);
  });

  it('runs the legacy rules on the new event', () => {
    expect(strict(stored({ action: '' }), stored({ action: '' }))).toEqual(['action: Required value']);
  });

  it('lists every immutable field in Kubernetes order', () => {
    const changed = stored({
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'kube-system' },
      reason: 'R',
      message: 'm',
      source: { host: 'h' },
      firstTimestamp: '2020-01-01T00:00:00Z',
      lastTimestamp: '2020-01-01T00:00:00Z',
      count: 1,
      type: 'Warning',
      eventTime: '2020-01-01T00:00:00.000000Z',
      action: 'A',
      related: { kind: 'Node' },
      reportingComponent: 'c',
      reportingInstance: 'i',
    });
    expect(validateEventUpdate(changed, stored(), 'events.k8s.io/v1').map((e) => e.field)).toEqual([
      'involvedObject',
      'reason',
      'message',
      'source',
      'firstTimestamp',
      'lastTimestamp',
      'count',
      'reason',
      'type',
      'eventTime',
      'action',
      'related',
      'reportingController',
      'reportingInstance',
    ]);
  });
});

describe('validateEventUpdate through core/v1', () => {
  it('allows changing any field (only the legacy rules apply)', () => {
    const old = stored();
    const next = stored({
      metadata: { ...old.metadata, resourceVersion: '' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'kube-system' },
      reason: 'Other',
      message: 'changed',
      count: 9,
      type: 'Bogus',
      series: { count: 0 },
      eventTime: '2020-01-01T00:00:00Z',
    });
    expect(validateEventUpdate(next, old, 'core/v1')).toEqual([]);
  });

  it('the legacy recorder bumping count and lastTimestamp is fine', () => {
    const legacy: CoreEvent = {
      metadata: { name: 'x.1', namespace: 'default', resourceVersion: '5' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'x' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2024-01-02T03:04:05Z',
      lastTimestamp: '2024-01-02T03:09:05Z',
      count: 7,
      type: 'Warning',
      eventTime: null,
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
    };
    expect(
      validateEventUpdate({ ...legacy, count: 8, lastTimestamp: '2024-01-02T03:14:05Z' }, legacy, 'core/v1'),
    ).toEqual([]);
    expect(validateEventUpdate({ ...legacy, count: 8 }, legacy, 'events.k8s.io/v1').map(String)).toEqual([
      immutable('count', '8'),
    ]);
  });
});

describe('validateEventUpdateRequest (registry pipeline)', () => {
  it('adds the generic metadata rules, so core/v1 updates cannot rename either', () => {
    const old = stored();
    expect(
      validateEventUpdateRequest(stored({ metadata: { ...old.metadata, name: 'other' } }), old, 'core/v1').map(String),
    ).toEqual([immutable('metadata.name', '"other"')]);
  });

  it('reports metadata errors from both layers on events.k8s.io (the aggregate de-duplicates them)', () => {
    const old = stored();
    const errs = validateEventUpdateRequest(
      stored({ metadata: { ...old.metadata, uid: 'u2' } }),
      old,
      'events.k8s.io/v1',
    );
    expect(errs.map(String)).toEqual([immutable('metadata.uid', '"u2"'), immutable('metadata.uid', '"u2"')]);
    expect(aggregateMessage(errs)).toBe(immutable('metadata.uid', '"u2"'));
  });

  it('checks the name as a path segment', () => {
    const old = stored({ metadata: { ...stored().metadata, name: '..' } });
    expect(validateEventUpdateRequest(old, old, 'core/v1').map(String)).toEqual([
      `metadata.name: Invalid value: "..": may not be '..'`,
    ]);
  });
});
