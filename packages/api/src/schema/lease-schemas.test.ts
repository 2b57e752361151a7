import { describe, expect, it } from '@jest/globals';
import type { Lease } from '../coordination/v1.js';
import { decodeObject } from './decode.js';
import { encodeObject } from './encode.js';
import { leaseListSchema, leaseSchema } from './lease-schemas.js';
import { serializeObject } from './serialize.js';

const lease: Lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'kevents-controller', namespace: 'kube-system' },
  spec: {
    holderIdentity: '',
    leaseDurationSeconds: 15,
    acquireTime: '2024-05-01T10:00:00.123456Z',
    renewTime: '2024-05-01T10:00:10.000000Z',
    leaseTransitions: 0,
  },
};

describe('Lease schemas', () => {
  it('keeps a zero behind a Go pointer (leaseTransitions: 0, holderIdentity: "") and drops what is nil', () => {
    const text = serializeObject(lease, leaseSchema);
    expect(text).toBe(
      '{"kind":"Lease","apiVersion":"coordination.k8s.io/v1","metadata":{"name":"kevents-controller","namespace":"kube-system","creationTimestamp":null},' +
        '"spec":{"holderIdentity":"","leaseDurationSeconds":15,"acquireTime":"2024-05-01T10:00:00.123456Z","renewTime":"2024-05-01T10:00:10.000000Z","leaseTransitions":0}}',
    );
    expect(JSON.stringify(encodeObject(lease as unknown as Record<string, unknown>, leaseSchema))).toBe(text);
  });

  it('always writes spec and metadata, as Go writes non-pointer structs', () => {
    const bare = { metadata: { name: 'a' }, spec: {} };
    expect(serializeObject(bare, leaseSchema)).toBe('{"metadata":{"name":"a","creationTimestamp":null},"spec":{}}');
    expect(serializeObject({ metadata: {}, items: [] }, leaseListSchema)).toBe('{"metadata":{},"items":[]}');
  });

  it('decodes strictly: nulls read as nil, MicroTimes normalized, int32 overflow refused, unknown fields reported', () => {
    const ok = decodeObject<Lease>(
      {
        metadata: { name: 'a' },
        spec: {
          holderIdentity: null,
          renewTime: '2024-05-01T12:00:10.000000+02:00',
          leaseDurationSeconds: 0,
          preferredHolder: 'b',
        },
      },
      leaseSchema,
    );
    expect(ok.errors).toEqual([]);
    expect(ok.value?.spec).toEqual({
      renewTime: '2024-05-01T10:00:10.000000Z',
      leaseDurationSeconds: 0,
      preferredHolder: 'b',
    });
    const bad = decodeObject<Lease>({ metadata: {}, spec: { leaseTransitions: 2147483648, holder: 'x' } }, leaseSchema);
    expect(bad.errors).toEqual([expect.stringContaining('of type int32')]);
    expect(bad.unknownFields).toEqual(['spec.holder']);
  });
});
