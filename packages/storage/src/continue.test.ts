import { describe, expect, it } from '@jest/globals';
import { decodeContinue, decodeListContinue, encodeContinue, encodeListContinue, keyAfter } from './continue.js';
import { isStorageError } from './errors.js';

const raw = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
const decodeError = (token: string): string => {
  try {
    decodeContinue(token);
  } catch (err) {
    expect(isStorageError(err, 'InvalidContinue')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('decoded');
};

describe('continue tokens', () => {
  it('encode as Kubernetes does: unpadded base64url JSON with v, rv and start', () => {
    const t = encodeContinue(keyAfter('ns/name'), 42);
    expect(t).toBe(raw({ v: 'meta.k8s.io/v1', rv: 42, start: 'ns/name\u0000' }));
    expect(t).not.toContain('=');
    expect(decodeContinue(t)).toEqual({ start: 'ns/name\u0000', resourceVersion: 42 });
    expect(decodeContinue(encodeContinue('a/b\u0000', -1))).toEqual({ start: 'a/b\u0000', resourceVersion: -1 });
  });

  it('decode a token made by kube-apiserver', () => {
    // {"v":"meta.k8s.io/v1","rv":1234,"start":"default/ev1\u0000"} as Go encodes it
    expect(decodeContinue('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNCwic3RhcnQiOiJkZWZhdWx0L2V2MVx1MDAwMCJ9')).toEqual({
      start: 'default/ev1\u0000',
      resourceVersion: 1234,
    });
  });

  it('reject bad tokens with the Kubernetes texts', () => {
    expect(decodeError('a=b')).toBe('continue key is not valid: illegal base64 data');
    expect(decodeError(raw({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }))).toBe(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
    expect(decodeError(raw({ v: 'meta.k8s.io/v1', rv: 3 }))).toBe(
      'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
    );
    expect(decodeError(raw({ v: 'v2', rv: 3, start: 'a' }))).toBe(
      'continue key is not valid: server does not recognize this encoded version v2',
    );
    for (const start of ['../x', 'a/../../b', 'a/', 'a//b', './a', 'a/.']) {
      expect(decodeError(raw({ v: 'meta.k8s.io/v1', rv: 3, start }))).toBe(`continue key is not valid: ${start}`);
    }
    expect(decodeError(raw({ v: 'meta.k8s.io/v1', rv: 1.5, start: 'a' }))).toMatch(/^continue key is not valid: /);
    expect(decodeError(Buffer.from('nope').toString('base64url'))).toMatch(/^continue key is not valid: /);
  });

  it('accept a rooted start key, as path cleaning leaves it unchanged', () => {
    expect(decodeContinue(raw({ v: 'meta.k8s.io/v1', rv: 3, start: '/a/b' }))).toEqual({
      start: 'a/b',
      resourceVersion: 3,
    });
    expect(decodeContinue(raw({ v: 'meta.k8s.io/v1', rv: 3, start: '/' }))).toEqual({ start: '', resourceVersion: 3 });
  });

  it("are read and written relative to the list's key prefix, as kube's DecodeContinue and EncodeContinue", () => {
    const inA = { resource: 'events', namespace: 'a' };
    const all = { resource: 'events' };
    expect(decodeContinue(encodeListContinue(inA, 'a/x\u0000', 7))).toEqual({ start: 'x\u0000', resourceVersion: 7 });
    expect(decodeContinue(encodeListContinue(all, 'a/x\u0000', 7))).toEqual({ start: 'a/x\u0000', resourceVersion: 7 });
    expect(decodeListContinue(inA, encodeContinue('b/y\u0000', 3))).toEqual({
      start: 'a/b/y\u0000',
      resourceVersion: 3,
    });
    expect(decodeListContinue({ resource: 'events', namespace: '' }, encodeContinue('/', 3))).toEqual({
      start: '',
      resourceVersion: 3,
    });
    expect(decodeListContinue(inA, raw({ v: 'meta.k8s.io/v1', rv: 3, start: '/' }))).toEqual({
      start: 'a/',
      resourceVersion: 3,
    });
  });
});
