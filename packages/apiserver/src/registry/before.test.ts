import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '@kevents/api';
import { ApiError } from '../errors/api-error.js';
import { beforeCreate, beforeUpdate, checkNamespace } from './before.js';
import { generateName } from './generate-name.js';

const obj = (metadata: KubeObject['metadata']): KubeObject => ({ metadata });

describe('checkNamespace', () => {
  it('takes the URL namespace when the body has none, refuses another one', () => {
    const o = obj({ name: 'a' });
    checkNamespace(o, 'ns');
    expect(o.metadata.namespace).toBe('ns');
    const same = obj({ name: 'a', namespace: 'ns' });
    checkNamespace(same, 'ns');
    expect(same.metadata.namespace).toBe('ns');
    const empty = obj({ name: 'a', namespace: '' });
    checkNamespace(empty, 'ns');
    expect(empty.metadata.namespace).toBe('ns');
    const cluster = obj({ name: 'a' });
    checkNamespace(cluster, '');
    expect(cluster.metadata.namespace).toBe('');
    let err: unknown;
    try {
      checkNamespace(obj({ name: 'a', namespace: 'x' }), 'ns');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).code, (err as ApiError).status.message]).toEqual([
      400,
      'the namespace of the provided object does not match the namespace sent on the request',
    ]);
  });
});

describe('beforeCreate', () => {
  it('sets uid and creationTimestamp, clears what the server owns, keeps generation, copies metadata', () => {
    const meta = {
      name: 'a',
      uid: 'u',
      creationTimestamp: '2000-01-01T00:00:00Z',
      deletionTimestamp: '2000-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 5,
      generation: 3,
      selfLink: 'x',
      labels: { a: 'b' },
    };
    const o = obj(meta);
    beforeCreate(o, 'ns', () => 'never');
    expect(o.metadata).not.toBe(meta);
    expect(meta.uid).toBe('u');
    expect(o.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(o.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(o.metadata.creationTimestamp).not.toBe('2000-01-01T00:00:00Z');
    expect(Math.abs(Date.parse(o.metadata.creationTimestamp!) - Date.now())).toBeLessThan(5000);
    expect(o.metadata).toEqual({
      name: 'a',
      namespace: 'ns',
      uid: o.metadata.uid,
      creationTimestamp: o.metadata.creationTimestamp,
      // rest.BeforeCreate leaves generation to the strategy: kinds without a spec keep what was sent.
      generation: 3,
      labels: { a: 'b' },
    });
    expect('deletionTimestamp' in o.metadata).toBe(false);
    expect('deletionGracePeriodSeconds' in o.metadata).toBe(false);
    expect('selfLink' in o.metadata).toBe(false);
  });

  it('generates a name only when none is given', () => {
    const seen: string[] = [];
    const gen = (p: string): string => {
      seen.push(p);
      return `${p}xyz`;
    };
    const g = obj({ generateName: 'p-' });
    beforeCreate(g, '', gen);
    expect(g.metadata.name).toBe('p-xyz');
    const named = obj({ name: 'n', generateName: 'p-' });
    beforeCreate(named, '', gen);
    expect(named.metadata.name).toBe('n');
    const none = obj({});
    beforeCreate(none, '', gen);
    expect(none.metadata.name).toBeUndefined();
    const emptyPrefix = obj({ generateName: '' });
    beforeCreate(emptyPrefix, '', gen);
    expect(emptyPrefix.metadata.name).toBeUndefined();
    expect(seen).toEqual(['p-']);
  });

  it('refuses a resourceVersion (400) and a foreign namespace', () => {
    for (const [o, ns, msg] of [
      [obj({ name: 'a', resourceVersion: '3' }), 'ns', 'resourceVersion should not be set on objects to be created'],
      [
        obj({ name: 'a', namespace: 'o' }),
        'ns',
        'the namespace of the provided object does not match the namespace sent on the request',
      ],
    ] as const) {
      expect(() => beforeCreate(o, ns, generateName)).toThrow(msg);
    }
    const emptyRv = obj({ name: 'a', resourceVersion: '' });
    beforeCreate(emptyRv, 'ns', generateName);
    expect(emptyRv.metadata.uid).toBeDefined();
  });
});

describe('beforeUpdate', () => {
  it('keeps the stored system fields', () => {
    const old = obj({
      name: 'a',
      uid: 'u1',
      creationTimestamp: 'c1',
      generateName: 'g-',
      deletionTimestamp: 'd1',
      deletionGracePeriodSeconds: 0,
    });
    const meta = { name: 'a', creationTimestamp: 'c2', generation: 2, selfLink: 's', deletionTimestamp: 'd2' };
    const o = obj(meta);
    beforeUpdate(o, old);
    expect(o.metadata).not.toBe(meta);
    expect(meta.generation).toBe(2);
    expect(o.metadata).toEqual({
      name: 'a',
      uid: 'u1',
      creationTimestamp: 'c1',
      generateName: 'g-',
      deletionTimestamp: 'd1',
      deletionGracePeriodSeconds: 0,
    });
  });

  it('takes the stored generation, whatever the body says (rest.BeforeUpdate)', () => {
    const o = obj({ name: 'a', generation: 9 });
    beforeUpdate(o, obj({ name: 'a', generation: 4 }));
    expect(o.metadata.generation).toBe(4);
    const zero = obj({ name: 'a', generation: 9 });
    beforeUpdate(zero, obj({ name: 'a', generation: 0 }));
    expect(zero.metadata.generation).toBe(0);
    const none = obj({ name: 'a', generation: 9 });
    beforeUpdate(none, obj({ name: 'a' }));
    expect('generation' in none.metadata).toBe(false);
  });

  it('keeps a body uid, a body generateName, and clears deletion fields the stored object lacks', () => {
    const old = obj({ name: 'a', uid: 'u1' });
    const o = obj({
      name: 'a',
      uid: 'u2',
      creationTimestamp: 'c2',
      generateName: 'mine',
      deletionTimestamp: 'd',
      deletionGracePeriodSeconds: 4,
    });
    beforeUpdate(o, old);
    expect(o.metadata).toEqual({ name: 'a', uid: 'u2', creationTimestamp: 'c2', generateName: 'mine' });
    expect('deletionTimestamp' in o.metadata).toBe(false);
    expect('deletionGracePeriodSeconds' in o.metadata).toBe(false);
    const o2 = obj({ name: 'a', generateName: 'mine' });
    beforeUpdate(o2, obj({ name: 'a', generateName: 'old' }));
    expect(o2.metadata.generateName).toBe('mine');
    const o3 = obj({ name: 'a' });
    beforeUpdate(o3, obj({ name: 'a', generateName: '' }));
    expect(o3.metadata.generateName).toBe('');
    const o4 = obj({ name: 'a' });
    beforeUpdate(o4, obj({ name: 'a' }));
    expect('generateName' in o4.metadata).toBe(false);
    expect('creationTimestamp' in o4.metadata).toBe(false);
  });
});

describe('generateName', () => {
  it('appends five characters of the alphabet, cutting the prefix to 58', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const n = generateName('p-');
      expect(n).toMatch(/^p-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      for (const c of n.slice(2)) seen.add(c);
    }
    expect([...seen].sort().join('')).toBe([...'bcdfghjklmnpqrstvwxz2456789'].sort().join(''));
    const long = 'x'.repeat(70);
    const g = generateName(long);
    expect(g).toHaveLength(63);
    expect(g.startsWith('x'.repeat(58))).toBe(true);
    expect(g.slice(58)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(generateName('y'.repeat(58))).toHaveLength(63);
    expect(generateName('y'.repeat(59))).toHaveLength(63);
    expect(generateName('')).toHaveLength(5);
  });
});
