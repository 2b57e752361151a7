// Objects of each kevents protobuf type in their JSON wire form, for compare.js and fixtures.js:
// hand-picked ones (empty, full, unicode, managedFields, deletionTimestamp, series, related, big
// numbers) and seeded random ones. Fields newer than the oracle's k8s.io/api (v0.26) are left
// out: the tests cover them by hand.

import { seededRandom as rng } from '../lib/seeded-random.js';

export { rng };

const words = [
  '',
  'a',
  'pod-1',
  'default',
  'kube-system',
  'Normal',
  'Warning',
  'Scheduled',
  'ünïcødé',
  '日本語',
  '😀 emoji',
  '<b>&amp;</b>',
  'line\nbreak',
  'tab\t"quote"\\',
  '\u2028\u2029',
  '\u0000nul',
  'x'.repeat(200),
  'y'.repeat(20000),
  '\ud7ff\ue000\uffff',
  '𝄞',
];

const times = [
  '2024-01-02T03:04:05Z',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '0001-01-01T00:00:01Z',
  '9999-12-31T23:59:59Z',
  '2000-02-29T12:00:00Z',
  '0001-01-01T00:00:00Z',
  '1900-06-01T00:00:00Z',
];
const microTimes = [
  '2024-01-02T03:04:05.123456Z',
  '2024-01-02T03:04:05.000000Z',
  '1969-12-31T23:59:59.999999Z',
  '0001-01-01T00:00:00.000000Z',
  '0001-01-01T00:00:00.000001Z',
  '9999-12-31T23:59:59.999999Z',
  '1970-01-01T00:00:00.000001Z',
];
const int32s = [0, 1, -1, 127, 128, 300, 16383, 16384, 2147483647, -2147483648, 42, -300];
const int64s = [0, 1, -1, 30, 2147483648, -2147483649, 4294967296, 9007199254740991, -9007199254740991, 1234567890123];

export function generator(seed) {
  const r = rng(seed);
  const word = () => (r.maybe(0.7) ? r.pick(words.slice(0, 8)) : r.pick(words));
  const time = () => r.pick(times);
  const micro = () => r.pick(microTimes);
  const opt = (p, f) => (r.maybe(p) ? f() : undefined);
  const strMap = () => {
    const m = {};
    for (let i = r.int(4); i > 0; i--)
      m[r.pick(['app', 'b', 'a', 'é', '😀', 'k8s.io/x', '', 'Z', 'zz', '\uffff', '10', '2'])] = word();
    return m;
  };
  const fieldsV1 = () =>
    r.pick([
      {},
      { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      { 'f:note': {}, 'f:type': {} },
      { 'k:{"x":"<y>"}': { '.': {} } },
    ]);
  const managedField = () =>
    clean({
      manager: opt(0.9, word),
      operation: opt(0.8, () => r.pick(['Update', 'Apply'])),
      apiVersion: opt(0.7, () => r.pick(['v1', 'events.k8s.io/v1'])),
      time: opt(0.7, () => (r.maybe(0.1) ? null : time())),
      fieldsType: opt(0.7, () => 'FieldsV1'),
      fieldsV1: opt(0.7, () => (r.maybe(0.1) ? null : fieldsV1())),
      subresource: opt(0.2, () => r.pick(['status', ''])),
    });
  const ownerRef = () =>
    clean({
      apiVersion: word(),
      kind: word(),
      name: word(),
      uid: word(),
      controller: opt(0.4, () => r.maybe()),
      blockOwnerDeletion: opt(0.4, () => r.maybe()),
    });
  const list = (n, f) => Array.from({ length: r.int(n) }, f);
  const objectMeta = () =>
    clean({
      name: opt(0.8, word),
      generateName: opt(0.2, word),
      namespace: opt(0.6, word),
      selfLink: opt(0.1, word),
      uid: opt(0.6, () => '0d8e5b8e-2c4f-4b1e-9a55-0f3c1c2d9e11'),
      resourceVersion: opt(0.6, () => String(r.int(1e9))),
      generation: opt(0.3, () => r.pick(int64s)),
      creationTimestamp: r.maybe(0.7) ? time() : null,
      deletionTimestamp: opt(0.2, () => (r.maybe(0.2) ? null : time())),
      deletionGracePeriodSeconds: opt(0.2, () => r.pick(int64s)),
      labels: opt(0.4, strMap),
      annotations: opt(0.4, strMap),
      ownerReferences: opt(0.2, () => list(3, ownerRef)),
      finalizers: opt(0.2, () => list(3, word)),
      managedFields: opt(0.3, () => list(3, managedField)),
    });
  const listMeta = () =>
    clean({
      selfLink: opt(0.1, word),
      resourceVersion: opt(0.6, () => String(r.int(1e9))),
      continue: opt(0.3, word),
      remainingItemCount: opt(0.3, () => r.pick(int64s)),
    });
  const objRef = () =>
    clean({
      kind: opt(0.8, word),
      namespace: opt(0.6, word),
      name: opt(0.8, word),
      uid: opt(0.5, word),
      apiVersion: opt(0.6, word),
      resourceVersion: opt(0.4, word),
      fieldPath: opt(0.2, word),
    });
  const source = () => clean({ component: opt(0.6, word), host: opt(0.4, word) });
  const apiVersionOf = (dflt) =>
    r.maybe(0.85) ? dflt : r.pick(['events.kevents.io/v1', 'v1', 'x/y/z', '/v1', 'g/', '']);
  const coreEvent = () =>
    clean({
      kind: 'Event',
      apiVersion: apiVersionOf('v1'),
      metadata: objectMeta(),
      involvedObject: objRef(),
      reason: opt(0.7, word),
      message: opt(0.7, word),
      source: opt(0.7, source),
      firstTimestamp: r.maybe(0.6) ? time() : null,
      lastTimestamp: r.maybe(0.6) ? time() : null,
      count: opt(0.6, () => r.pick(int32s)),
      type: opt(0.6, word),
      eventTime: r.maybe(0.5) ? micro() : null,
      series: opt(0.3, () =>
        clean({ count: opt(0.8, () => r.pick(int32s)), lastObservedTime: r.maybe(0.8) ? micro() : null }),
      ),
      action: opt(0.5, word),
      related: opt(0.3, objRef),
      reportingComponent: word(),
      reportingInstance: word(),
    });
  const eventsEvent = () =>
    clean({
      kind: 'Event',
      apiVersion: apiVersionOf('events.k8s.io/v1'),
      metadata: objectMeta(),
      eventTime: r.maybe(0.8) ? micro() : null,
      series: opt(0.3, () => ({ count: r.pick(int32s), lastObservedTime: r.maybe(0.9) ? micro() : null })),
      reportingController: opt(0.7, word),
      reportingInstance: opt(0.7, word),
      action: opt(0.7, word),
      reason: opt(0.7, word),
      regarding: opt(0.8, objRef),
      related: opt(0.3, objRef),
      note: opt(0.7, word),
      type: opt(0.7, word),
      deprecatedSource: opt(0.3, source),
      deprecatedFirstTimestamp: r.maybe(0.3) ? time() : null,
      deprecatedLastTimestamp: r.maybe(0.3) ? time() : null,
      deprecatedCount: opt(0.3, () => r.pick(int32s)),
    });
  const lease = () =>
    clean({
      kind: 'Lease',
      apiVersion: apiVersionOf('coordination.k8s.io/v1'),
      metadata: objectMeta(),
      spec: clean({
        holderIdentity: opt(0.6, word),
        leaseDurationSeconds: opt(0.6, () => r.pick(int32s)),
        acquireTime: opt(0.5, micro),
        renewTime: opt(0.5, micro),
        leaseTransitions: opt(0.5, () => r.pick(int32s)),
      }),
    });
  const status = () =>
    clean({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: listMeta(),
      status: opt(0.8, () => r.pick(['Failure', 'Success'])),
      message: opt(0.8, word),
      reason: opt(0.7, () => r.pick(['NotFound', 'AlreadyExists', 'Invalid', ''])),
      details: opt(0.5, () =>
        clean({
          name: opt(0.6, word),
          group: opt(0.5, word),
          kind: opt(0.5, word),
          uid: opt(0.3, word),
          causes: opt(0.5, () =>
            list(4, () => clean({ reason: opt(0.7, word), message: opt(0.7, word), field: opt(0.6, word) })),
          ),
          retryAfterSeconds: opt(0.3, () => r.pick(int32s)),
        }),
      ),
      code: opt(0.8, () => r.pick([404, 409, 422, 500, 0, -1])),
    });
  const deleteOptions = () =>
    clean({
      kind: 'DeleteOptions',
      apiVersion: r.pick(['v1', 'meta.k8s.io/v1', 'events.k8s.io/v1']),
      gracePeriodSeconds: opt(0.5, () => r.pick(int64s)),
      preconditions: opt(0.4, () => clean({ uid: opt(0.6, word), resourceVersion: opt(0.6, word) })),
      orphanDependents: opt(0.3, () => r.maybe()),
      propagationPolicy: opt(0.4, () => r.pick(['Orphan', 'Background', 'Foreground', ''])),
      dryRun: opt(0.3, () => list(3, () => r.pick(['All', '']))),
    });
  const pom = () => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: objectMeta() });
  const lst = (kind, apiVersion, item) => () =>
    clean({ kind, apiVersion, metadata: listMeta(), items: r.maybe(0.1) ? null : list(4, item) });
  return {
    'core/v1.Event': coreEvent,
    'core/v1.EventList': lst('EventList', 'v1', coreEvent),
    'events/v1.Event': eventsEvent,
    'events/v1.EventList': lst('EventList', 'events.k8s.io/v1', eventsEvent),
    'coordination/v1.Lease': lease,
    'coordination/v1.LeaseList': lst('LeaseList', 'coordination.k8s.io/v1', lease),
    'meta/v1.Status': status,
    'meta/v1.DeleteOptions': deleteOptions,
    'meta/v1.PartialObjectMetadata': pom,
    'meta/v1.PartialObjectMetadataList': lst('PartialObjectMetadataList', 'meta.k8s.io/v1', pom),
    'meta/v1beta1.PartialObjectMetadataList': lst('PartialObjectMetadataList', 'meta.k8s.io/v1beta1', pom),
  };
}

function clean(o) {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const fullMeta = {
  name: 'full',
  generateName: 'full-',
  namespace: 'default',
  selfLink: '/x',
  uid: '0d8e5b8e-2c4f-4b1e-9a55-0f3c1c2d9e11',
  resourceVersion: '12345',
  generation: 9007199254740991,
  creationTimestamp: '2024-01-02T03:04:05Z',
  deletionTimestamp: '2024-01-02T03:04:06Z',
  deletionGracePeriodSeconds: -1,
  labels: { b: '2', a: '1', '😀': 'x', '\uffff': 'y' },
  annotations: { 'kevents.io/x': '<&>' },
  ownerReferences: [
    { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true, blockOwnerDeletion: false },
  ],
  finalizers: ['a', ''],
  managedFields: [
    {
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2024-01-02T03:04:05Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } },
      subresource: 'status',
    },
  ],
};

/** Hand-picked objects: [type, object]. */
export const handPicked = [
  [
    'events/v1.Event',
    { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { creationTimestamp: null }, eventTime: null },
  ],
  [
    'core/v1.Event',
    {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { creationTimestamp: null },
      involvedObject: {},
      reportingComponent: '',
      reportingInstance: '',
    },
  ],
  [
    'core/v1.Event',
    {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: fullMeta,
      involvedObject: {
        kind: 'Pod',
        namespace: 'default',
        name: 'p',
        uid: 'u',
        apiVersion: 'v1',
        resourceVersion: '1',
        fieldPath: 'spec',
      },
      reason: 'Scheduled',
      message: 'Successfully assigned default/p to node-1 — ünïcødé 😀',
      source: { component: 'sched', host: 'h' },
      firstTimestamp: '2024-01-02T03:04:05Z',
      lastTimestamp: '2024-01-02T03:04:05Z',
      count: 2147483647,
      type: 'Normal',
      eventTime: '2024-01-02T03:04:05.123456Z',
      series: { count: 3, lastObservedTime: '2024-01-02T03:04:05.999999Z' },
      action: 'Binding',
      related: { kind: 'Node', name: 'node-1' },
      reportingComponent: 'sched',
      reportingInstance: 'sched-1',
    },
  ],
  [
    'events/v1.Event',
    {
      kind: 'Event',
      apiVersion: 'events.kevents.io/v1',
      metadata: fullMeta,
      eventTime: '1969-12-31T23:59:59.999999Z',
      series: { count: -1, lastObservedTime: '0001-01-01T00:00:00.000000Z' },
      reportingController: 'c',
      reportingInstance: 'i',
      action: 'a',
      reason: 'r',
      regarding: { kind: 'Pod' },
      related: {},
      note: 'n'.repeat(300),
      type: 'Warning',
      deprecatedSource: { component: 'c' },
      deprecatedFirstTimestamp: '0001-01-01T00:00:00Z',
      deprecatedLastTimestamp: '9999-12-31T23:59:59Z',
      deprecatedCount: -2147483648,
    },
  ],
  [
    'coordination/v1.Lease',
    { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { name: 'l', creationTimestamp: null }, spec: {} },
  ],
  [
    'coordination/v1.Lease',
    {
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'l', creationTimestamp: null },
      spec: {
        holderIdentity: '',
        leaseDurationSeconds: 0,
        acquireTime: '0001-01-01T00:00:00.000000Z',
        renewTime: '2024-01-02T03:04:05.000001Z',
        leaseTransitions: 0,
      },
    },
  ],
  [
    'meta/v1.Status',
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'events "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'events' },
      code: 404,
    },
  ],
  [
    'meta/v1.Status',
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      details: { causes: [{}, { reason: 'FieldValueInvalid', field: 'note' }], retryAfterSeconds: 1, uid: 'u' },
    },
  ],
  ['meta/v1.DeleteOptions', { kind: 'DeleteOptions', apiVersion: 'v1' }],
  [
    'meta/v1.DeleteOptions',
    {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: '', resourceVersion: '1' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    },
  ],
  [
    'meta/v1.PartialObjectMetadata',
    { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: fullMeta },
  ],
  [
    'meta/v1.PartialObjectMetadataList',
    {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '5', remainingItemCount: 0 },
      items: [],
    },
  ],
  ['core/v1.EventList', { kind: 'EventList', apiVersion: 'v1', metadata: {}, items: null }],
  [
    'events/v1.EventList',
    {
      kind: 'EventList',
      apiVersion: 'events.k8s.io/v1',
      metadata: { continue: 'abc' },
      items: [{ metadata: { creationTimestamp: null }, eventTime: null }],
    },
  ],
  [
    'coordination/v1.LeaseList',
    {
      kind: 'LeaseList',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: {},
      items: [{ metadata: { creationTimestamp: null }, spec: {} }],
    },
  ],
];

/** Group versions watched: [groupVersion]. */
export const watchGroupVersions = [
  'v1',
  'events.k8s.io/v1',
  'events.kevents.io/v1',
  'coordination.k8s.io/v1',
  'meta.k8s.io/v1',
];
