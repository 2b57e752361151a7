import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@kevents/api';
import { toBody } from '../body.js';
import { internManagedFields, internValue } from './interned-managed-fields.js';
import { packBody, unpackBody } from './packed-body.js';
import { packObject } from './packed-object.js';

// A file of its own: the value templates are process-wide, and this test fills them.

const event = (reason: string, time = '2026-11-29T01:02:03Z'): KubeObject =>
  ({
    metadata: { name: 'e', namespace: 'ns', uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', resourceVersion: '7' },
    involvedObject: { kind: 'Pod', name: 'p' },
    reason,
    firstTimestamp: time,
    message: 'm',
  }) as KubeObject;

const roundTrips = (o: KubeObject): string => {
  const packed = packObject(o);
  expect(packed).toBe(packBody(toBody(o)));
  expect(unpackBody(packed)).toBe(toBody(o));
  return packed;
};

describe('the value templates past their count bound (16,384 values)', () => {
  it('stores later values as they are, keeps the earlier ones, times and managedFields templates', () => {
    // The namespace, kind and time of `event` take their templates first.
    const base = roundTrips(event('r-0'));
    let n = 1;
    while (internValue(`r-${n}`) !== undefined) n++;
    // 'ns', 'Pod' and 'r-0' … 'r-(n-1)' (a name is not an interned member): 16,384 values.
    expect(n + 2).toBe(16_384);
    // Past it a new value is written out in the packed body (quoted: 2 more characters than the
    // value), which still unpacks to the stored JSON.
    const late = roundTrips(event(`late-${n}`));
    expect(late).toContain(`"late-${n}"`);
    expect(late.length).toBe(base.length - 3 + `"late-${n}"`.length);
    // Values seen before the bound keep their 3-character form.
    expect(roundTrips(event('r-1')).length).toBe(base.length);
    expect(roundTrips(event(`r-${n - 1}`)).length).toBe(base.length);
    // Times have templates of their own: a new second still packs to 7 characters.
    expect(roundTrips(event('r-1', '2031-01-01T00:00:00Z')).length).toBe(base.length);
    // The managedFields templates are not crowded out by values.
    const fields = JSON.stringify([{ manager: 'm', operation: 'Update', time: '2026-11-29T01:02:03Z' }]);
    expect(internManagedFields(fields)).toHaveLength(3 + 4);
  });
});
