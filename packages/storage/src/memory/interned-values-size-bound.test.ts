import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@kevents/api';
import { toBody } from '../body.js';
import { internManagedFields, internValue } from './interned-managed-fields.js';
import { packBody, unpackBody } from './packed-body.js';
import { packObject } from './packed-object.js';

// A file of its own: the value templates are process-wide, and this test fills them.

const event = (reportingInstance: string): KubeObject =>
  ({
    metadata: { name: 'e', namespace: 'ns', uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa', resourceVersion: '7' },
    involvedObject: { kind: 'Pod', name: 'p' },
    reportingInstance,
    message: 'm',
  }) as KubeObject;

describe('the value templates past their size bound (1 MiB of values, 256 characters each at most)', () => {
  it('never interns a value longer than 256 characters', () => {
    expect(internValue('x'.repeat(257))).toBeUndefined();
    const long = event('y'.repeat(257));
    expect(packObject(long)).toContain(`"${'y'.repeat(257)}"`);
    expect(unpackBody(packObject(long))).toBe(toBody(long));
    expect(internValue('x'.repeat(256))).toHaveLength(3);
  });

  it('stores values as they are once 1 MiB of values is interned, and keeps the earlier ones', () => {
    const value = (i: number): string => `${String(i).padStart(5, '0')}${'v'.repeat(251)}`;
    let n = 0;
    while (internValue(value(n)) !== undefined) n++;
    // 'ns', 'Pod' and x…x came first (261 characters): 4,094 values of 256 fit, 251 characters are left.
    expect(n).toBe(4_094);
    expect(internValue('z'.repeat(252))).toBeUndefined();
    expect(internValue('z'.repeat(251))).toHaveLength(3);
    expect(internValue('a')).toBeUndefined();
    const late = event('late');
    expect(packObject(late)).toBe(packBody(toBody(late)));
    expect(packObject(late)).toContain('"late"');
    expect(unpackBody(packObject(late))).toBe(toBody(late));
    const early = event(value(7));
    expect(packObject(early)).not.toContain(value(7));
    expect(unpackBody(packObject(early))).toBe(toBody(early));
    const fields = JSON.stringify([{ manager: 'm', operation: 'Update', time: '2026-11-29T01:02:03Z' }]);
    expect(internManagedFields(fields)).toHaveLength(3 + 4);
  });
});
