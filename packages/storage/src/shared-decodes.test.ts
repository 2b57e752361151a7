import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@kevents/api';
import { fromBody } from './body.js';
import { SharedDecodes } from './shared-decodes.js';

describe('SharedDecodes', () => {
  it('gives the same frozen object for the same resourceVersion and body, and decodes again when either differs', () => {
    const d = new SharedDecodes(4);
    let decodes = 0;
    const decode = (body: string, rv: number): KubeObject => {
      decodes++;
      return fromBody<KubeObject>(body, rv);
    };
    const body = '{"metadata":{"name":"a","labels":{"x":"1"}}}';
    const a = d.get(body, 7, decode);
    expect(d.get(`${body}`, 7, decode)).toBe(a); // an equal string read afresh (Redis)
    expect(decodes).toBe(1);
    expect(Object.isFrozen(a.metadata.labels)).toBe(true);
    expect(a.metadata.resourceVersion).toBe('7');
    // Another body under the same resourceVersion (a store that reused it): not the kept object.
    const other = d.get('{"metadata":{"name":"b"}}', 7, decode);
    expect(other.metadata.name).toBe('b');
    // A resourceVersion that takes the slot (7 % 4 === 11 % 4) replaces it.
    d.get(body, 11, decode);
    expect(d.get(body, 7, decode)).not.toBe(a);
    expect(decodes).toBe(4);
  });
});
