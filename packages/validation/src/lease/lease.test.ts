import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Lease, LeaseSpec } from '@kevents/api';
import { FieldPath } from '../field/path.js';
import { validateLease, validateLeaseSpec, validateLeaseUpdate } from './lease.js';

/** A Lease as client-go's leader election writes it. */
const lease = (spec: LeaseSpec = {}, meta: Partial<Lease['metadata']> = {}): Lease => ({
  metadata: { name: 'kevents-controller', namespace: 'kube-system', ...meta },
  spec: {
    holderIdentity: 'controller-7d9f_3c1e',
    leaseDurationSeconds: 15,
    acquireTime: '2024-05-01T10:00:00.000000Z',
    renewTime: '2024-05-01T10:00:10.000000Z',
    leaseTransitions: 3,
    ...spec,
  },
});
const create = (l: Lease): string[] => validateLease(l).map(String);
const update = (l: Lease, old: Lease): string[] => validateLeaseUpdate(l, old).map(String);
const spec = (s: LeaseSpec): string[] => validateLeaseSpec(s, FieldPath.root('spec')).map(String);

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const int32 = { min: -2147483648, max: 2147483647 };

describe('validateLease', () => {
  it('accepts what leader election writes, a released lease, and an empty spec', () => {
    expect(create(lease())).toEqual([]);
    expect(create(lease({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 }))).toEqual([]);
    expect(create({ metadata: { name: 'a', namespace: 'b' }, spec: {} })).toEqual([]);
  });

  it('checks metadata: DNS-subdomain name, namespace required', () => {
    expect(create(lease({}, { name: 'Kevents_Controller' }))).toEqual([
      `metadata.name: Invalid value: "Kevents_Controller": ${subdomainMsg}`,
    ]);
    expect(create(lease({}, { name: 'a.b-c' }))).toEqual([]);
    expect(create(lease({}, { name: '', namespace: '' }))).toEqual([
      'metadata.name: Required value: name or generateName is required',
      'metadata.namespace: Required value',
    ]);
  });

  it('does not check finalizer names the way core kinds do (apimachinery ValidateObjectMeta)', () => {
    expect(create(lease({}, { finalizers: ['my-finalizer'] }))).toEqual([]);
  });

  it('rejects a non-positive leaseDurationSeconds and a negative leaseTransitions', () => {
    expect(create(lease({ leaseDurationSeconds: 0 }))).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    ]);
    expect(create(lease({ leaseDurationSeconds: -5, leaseTransitions: -1 }))).toEqual([
      'spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('accepts the Kubernetes strategy and prefixed qualified names; errors name spec.strategy.strategy', () => {
    expect(create(lease({ strategy: 'OldestEmulationVersion', preferredHolder: 'kube-a' }))).toEqual([]);
    expect(create(lease({ strategy: 'example.com/newest' }))).toEqual([]);
    expect(create(lease({ strategy: 'Newest' }))).toEqual([
      'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
    ]);
    expect(create(lease({ strategy: '' }))).toEqual([
      'spec.strategy.strategy: Unsupported value: "": supported values: "OldestEmulationVersion"',
    ]);
    expect(create(lease({ strategy: 'Example.com/x' }))).toEqual([
      `spec.strategy.strategy: Invalid value: "Example.com/x": prefix part ${subdomainMsg}`,
    ]);
    expect(create(lease({ strategy: 'example.com/' }))).toEqual([
      'spec.strategy.strategy: Invalid value: "example.com/": name part must be non-empty',
      `spec.strategy.strategy: Invalid value: "example.com/": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
    expect(create(lease({ strategy: 'a/b/c' }))).toEqual([
      `spec.strategy.strategy: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]);
  });

  it('forbids a preferredHolder without a strategy (an empty one counts as none)', () => {
    const msg = 'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined';
    expect(create(lease({ preferredHolder: 'kube-b' }))).toEqual([msg]);
    expect(create(lease({ preferredHolder: '' }))).toEqual([]);
    expect(create(lease({ strategy: '', preferredHolder: 'kube-b' }))).toEqual([
      'spec.strategy.strategy: Unsupported value: "": supported values: "OldestEmulationVersion"',
      msg,
    ]);
  });

  it('reports metadata errors before spec errors, spec errors in Kubernetes order', () => {
    expect(
      create(
        lease(
          { leaseDurationSeconds: 0, leaseTransitions: -2, strategy: 'x', preferredHolder: 'p' },
          { namespace: '' },
        ),
      ),
    ).toEqual([
      'metadata.namespace: Required value',
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -2: must be greater than or equal to 0',
      'spec.strategy.strategy: Unsupported value: "x": supported values: "OldestEmulationVersion"',
    ]);
  });

  it('gives Kubernetes error types and bad values', () => {
    const [e] = validateLease(lease({ leaseDurationSeconds: 0 }));
    expect(e).toMatchObject({ type: 'FieldValueInvalid', field: 'spec.leaseDurationSeconds', badValue: 0 });
    const [f] = validateLease(lease({ preferredHolder: 'x' }));
    expect(f).toMatchObject({ type: 'FieldValueForbidden', field: 'spec.preferredHolder' });
    const [g] = validateLease(lease({ strategy: 'y' }));
    expect(g).toMatchObject({ type: 'FieldValueNotSupported', field: 'spec.strategy.strategy', badValue: 'y' });
  });
});

describe('validateLeaseUpdate', () => {
  const old = lease({}, { resourceVersion: '7', uid: 'u-1' });

  it('lets the holder renew, hand over and release; every spec field may change', () => {
    expect(
      update(
        lease(
          { holderIdentity: 'other', leaseTransitions: 4, renewTime: '2024-05-01T10:01:00.000000Z' },
          { resourceVersion: '7', uid: 'u-1' },
        ),
        old,
      ),
    ).toEqual([]);
    expect(
      update(lease({ holderIdentity: '', leaseDurationSeconds: 1 }, { resourceVersion: '7', uid: 'u-1' }), old),
    ).toEqual([]);
  });

  it('applies the metadata update rules and re-validates the new spec', () => {
    expect(update(lease({ leaseDurationSeconds: 0 }, { name: 'other', resourceVersion: '', uid: 'u-1' }), old)).toEqual(
      [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        'metadata.name: Invalid value: "other": field is immutable',
        'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      ],
    );
    // the old spec is not looked at: an invalid old object does not block a valid update
    expect(
      update(lease({}, { resourceVersion: '8', uid: 'u-1' }), lease({ leaseDurationSeconds: -1 }, { uid: 'u-1' })),
    ).toEqual([]);
  });
});

describe('numeric rules (property-based)', () => {
  it('leaseDurationSeconds: an error exactly when <= 0, with the value printed', () => {
    fc.assert(
      fc.property(fc.integer(int32), (n) => {
        const errs = spec({ leaseDurationSeconds: n });
        expect(errs).toEqual(n > 0 ? [] : [`spec.leaseDurationSeconds: Invalid value: ${n}: must be greater than 0`]);
      }),
    );
  });

  it('leaseTransitions: an error exactly when < 0, with the value printed', () => {
    fc.assert(
      fc.property(fc.integer(int32), (n) => {
        const errs = spec({ leaseTransitions: n });
        expect(errs).toEqual(
          n >= 0 ? [] : [`spec.leaseTransitions: Invalid value: ${n}: must be greater than or equal to 0`],
        );
      }),
    );
  });

  it('the two rules are independent, in order, and the same on create and update', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer(int32), { nil: undefined }),
        fc.option(fc.integer(int32), { nil: undefined }),
        (d, t) => {
          const s: LeaseSpec = {};
          if (d !== undefined) s.leaseDurationSeconds = d;
          if (t !== undefined) s.leaseTransitions = t;
          const expected = [
            ...(d !== undefined && d <= 0
              ? [`spec.leaseDurationSeconds: Invalid value: ${d}: must be greater than 0`]
              : []),
            ...(t !== undefined && t < 0
              ? [`spec.leaseTransitions: Invalid value: ${t}: must be greater than or equal to 0`]
              : []),
          ];
          const l: Lease = { metadata: { name: 'l', namespace: 'n', resourceVersion: '1' }, spec: s };
          expect(create(l)).toEqual(expected);
          expect(update(l, l)).toEqual(expected);
        },
      ),
    );
  });
});
