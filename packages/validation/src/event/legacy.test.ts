import { describe, expect, it } from '@jest/globals';
import type { CoreEvent } from '@kevents/api';
import { validateEventCreate } from './create.js';
import { validateEventUpdate } from './update.js';
import { legacyValidateEvent } from './legacy.js';
import { aggregateMessage } from '../field/error.js';

const namePartMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** A core/v1 Event as the legacy client-go recorder posts it. */
const oldStyle = (over: Partial<CoreEvent> = {}, ns = 'default', objNs: string | null = 'default'): CoreEvent => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'nginx-7c5ddbdf54-x8f9k.17d0a4b2c3d4e5f6', namespace: ns },
  involvedObject: {
    kind: 'Pod',
    ...(objNs === null ? {} : { namespace: objNs }),
    name: 'nginx-7c5ddbdf54-x8f9k',
    uid: 'b6f1c2a5',
    apiVersion: 'v1',
    resourceVersion: '1234',
  },
  reason: 'Scheduled',
  message: 'Successfully assigned default/nginx-7c5ddbdf54-x8f9k to node-1',
  source: { component: 'default-scheduler' },
  firstTimestamp: '2024-01-02T03:04:05Z',
  lastTimestamp: '2024-01-02T03:04:05Z',
  count: 1,
  type: 'Normal',
  eventTime: null,
  reportingComponent: '',
  reportingInstance: '',
  ...over,
});

/** The internal form of an events.k8s.io/v1 Event as client-go's new events library posts it. */
const newStyle = (over: Partial<CoreEvent> = {}, ns = 'kube-system', objNs?: string): CoreEvent => ({
  metadata: { name: 'node-1.17d0a4b2c3d4e5f6', namespace: ns },
  involvedObject: {
    kind: 'Node',
    name: 'node-1',
    apiVersion: 'v1',
    ...(objNs === undefined ? {} : { namespace: objNs }),
  },
  eventTime: '2017-09-19T13:49:16.000000Z',
  reportingComponent: 'k8s.io/my-controller',
  reportingInstance: 'node-xyz',
  action: 'Do',
  reason: 'Because',
  ...over,
});

const both = (e: CoreEvent) => {
  const c = validateEventCreate(e, 'core/v1').map(String);
  expect(
    validateEventUpdate(
      e,
      { metadata: {}, involvedObject: {}, reportingComponent: '', reportingInstance: '' },
      'core/v1',
    ).map(String),
  ).toEqual(c);
  return c;
};
const mismatch = (v: string) => `involvedObject.namespace: Invalid value: "${v}": does not match event.namespace`;

describe('legacy validation, case A (no eventTime)', () => {
  // Kubernetes' TestValidateEventForCoreV1Events table.
  it.each([
    ['foo', 'bar', [mismatch('bar')]],
    ['aoeu-_-aoeu', 'aoeu-_-aoeu', [`namespace: Invalid value: "aoeu-_-aoeu": ${subdomainMsg}`]],
    ['default', null, []],
    ['default', 'default', []],
    ['default', 'foo', [mismatch('foo')]],
    ['foo', 'foo', []],
    ['', 'bar', [mismatch('bar'), `namespace: Invalid value: "": ${subdomainMsg}`]],
    ['foo', '', [mismatch('')]],
    ['foo', null, [mismatch('')]],
  ] as const)('event ns %j, involvedObject ns %j', (ns, objNs, want) => {
    expect(both(oldStyle({}, ns, objNs))).toEqual(want);
  });

  it('an empty event namespace is allowed by the match rule but fails the DNS-subdomain rule', () => {
    expect(both(oldStyle({}, '', ''))).toEqual([`namespace: Invalid value: "": ${subdomainMsg}`]);
  });

  it('checks nothing else: any type, count, reason or message length', () => {
    expect(
      both(
        oldStyle({
          type: 'Bogus',
          count: -4,
          reason: '',
          message: 'z'.repeat(5000),
          reportingComponent: 'not qualified!',
        }),
      ),
    ).toEqual([]);
  });

  it('limits the namespace to 253 characters', () => {
    const ns = 'a'.repeat(254);
    expect(both(oldStyle({}, ns, ns))).toEqual([
      `namespace: Invalid value: "${ns}": must be no more than 253 characters`,
    ]);
  });

  it('reports the error type and field', () => {
    expect(legacyValidateEvent(oldStyle({}, 'foo', 'bar')).map((e) => [e.type, e.field, e.badValue])).toEqual([
      ['FieldValueInvalid', 'involvedObject.namespace', 'bar'],
    ]);
  });
});

describe('legacy validation, case B (eventTime set)', () => {
  it('accepts a valid new-style event (any type, on core/v1)', () => {
    expect(both(newStyle())).toEqual([]);
    expect(both(newStyle({ type: 'Bogus', count: 7, source: { host: 'h' } }))).toEqual([]);
  });

  it.each([
    ['default', undefined, []],
    ['kube-system', undefined, []],
    ['foo', undefined, [mismatch('')]],
    ['foo', 'bar', []], // a set involvedObject namespace is not compared
  ] as const)('event ns %j, involvedObject ns %j', (ns, objNs, want) => {
    expect(both(newStyle({}, ns, objNs))).toEqual(want);
  });

  it('an empty reportingController gives Required plus both qualified-name causes', () => {
    const errs = legacyValidateEvent(newStyle({ reportingComponent: '' }));
    expect(errs.map(String)).toEqual([
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      `reportingController: Invalid value: "": ${namePartMsg}`,
    ]);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueRequired', 'FieldValueInvalid', 'FieldValueInvalid']);
  });

  it('a missing reportingComponent is treated as empty', () => {
    const e = newStyle();
    delete (e as Partial<CoreEvent>).reportingComponent;
    expect(legacyValidateEvent(e).map((x) => x.field)).toEqual([
      'reportingController',
      'reportingController',
      'reportingController',
    ]);
  });

  it.each([
    ['my-contr@ller', [`reportingController: Invalid value: "my-contr@ller": ${namePartMsg}`]],
    ['kubelet', []],
    ['example.com/' + 'c'.repeat(63), []],
    [
      'c'.repeat(64),
      [`reportingController: Invalid value: "${'c'.repeat(64)}": name part must be no more than 63 bytes`],
    ],
    ['/kubelet', ['reportingController: Invalid value: "/kubelet": prefix part must be non-empty']],
  ])('reportingController %j', (rc, want) => {
    expect(both(newStyle({ reportingComponent: rc }))).toEqual(want);
  });

  it.each(['reportingInstance', 'action', 'reason'] as const)('%s is required', (f) => {
    const errs = legacyValidateEvent(newStyle({ [f]: '' }));
    expect(errs.map(String)).toEqual([`${f}: Required value`]);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueRequired']);
    const missing = newStyle();
    delete missing[f];
    expect(legacyValidateEvent(missing).map(String)).toEqual([`${f}: Required value`]);
  });

  it.each(['reportingInstance', 'action', 'reason'] as const)(
    '%s has at most 128 UTF-8 bytes, printed with the literal ""',
    (f) => {
      const over = (v: string) => legacyValidateEvent(newStyle({ [f]: v })).map(String);
      const tooLong = [`${f}: Invalid value: "": can have at most 128 characters`];
      expect(over('x'.repeat(128))).toEqual([]);
      expect(over('x'.repeat(129))).toEqual(tooLong);
      expect(over('é'.repeat(64))).toEqual([]); // 128 bytes
      expect(over('é'.repeat(65))).toEqual(tooLong); // 65 characters, 130 bytes
      expect(over('事'.repeat(42) + 'xx')).toEqual([]); // 128 bytes
      expect(over('事'.repeat(43))).toEqual(tooLong); // 43 characters, 129 bytes
      expect(over('😀'.repeat(32))).toEqual([]); // 128 bytes, 64 UTF-16 units
      expect(over('😀'.repeat(32) + 'x')).toEqual(tooLong);
      expect(legacyValidateEvent(newStyle({ [f]: 'x'.repeat(129) })).map((e) => [e.type, e.field, e.badValue])).toEqual(
        [['FieldValueInvalid', f, '']],
      );
    },
  );

  it('the Kubernetes "too long reporting instance" case', () => {
    expect(both(newStyle({ reportingInstance: 'node-xyz' + 'z'.repeat(140) }))).toEqual([
      'reportingInstance: Invalid value: "": can have at most 128 characters',
    ]);
  });

  it('message (note) has at most 1024 UTF-8 bytes and may be empty', () => {
    const msg = (m: string) => legacyValidateEvent(newStyle({ message: m })).map(String);
    const tooLong = ['message: Invalid value: "": can have at most 1024 characters'];
    expect(msg('')).toEqual([]);
    expect(msg('z'.repeat(1024))).toEqual([]);
    expect(msg('z'.repeat(1025))).toEqual(tooLong);
    expect(msg('事'.repeat(341) + 'z')).toEqual([]); // 1024 bytes
    expect(msg('事'.repeat(342))).toEqual(tooLong); // 342 characters, 1026 bytes
    expect(msg('é'.repeat(513))).toEqual(tooLong); // 513 characters, 1026 bytes
  });

  it('reports every failure together, with the DNS check last', () => {
    // Kubernetes' "missing namespace" case, which also lacks action.
    const e = newStyle({ action: '' }, '', undefined);
    expect(both(e)).toEqual([mismatch(''), 'action: Required value', `namespace: Invalid value: "": ${subdomainMsg}`]);
  });
});

describe('aggregate message', () => {
  it('formats like Kubernetes', () => {
    expect(aggregateMessage(legacyValidateEvent(newStyle({ action: '', reason: '' })))).toBe(
      '[action: Required value, reason: Required value]',
    );
  });
});
