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
    expect(decodeError('a=b')).toBe('continue key is not valid: illegal base64 data at input byte 1');
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

  it("read base64 and JSON as Go's RawURLEncoding and json.Unmarshal into kube's continueToken do, with their errors", () => {
    const b64 = (text: string): string => Buffer.from(text).toString('base64url');
    const ok = (text: string) => decodeContinue(b64(text));
    const err = (text: string): string => decodeError(b64(text));
    const invalid = 'continue key is not valid: ';
    // base64: newlines skipped, any other stray byte or a lone last digit is an error at its offset
    const token = encodeContinue('a', 5);
    expect(decodeContinue(`${token.slice(0, 3)}\r\n${token.slice(3)}\n`)).toEqual({ start: 'a', resourceVersion: 5 });
    expect(decodeError(`${token}=`)).toBe(`${invalid}illegal base64 data at input byte ${token.length}`);
    expect(decodeError('abcde')).toBe(`${invalid}illegal base64 data at input byte 4`);
    expect(decodeError('ab\ncde')).toBe(`${invalid}illegal base64 data at input byte 5`);
    expect(decodeError('abc+')).toBe(`${invalid}illegal base64 data at input byte 3`);
    expect(decodeError('é')).toBe(`${invalid}illegal base64 data at input byte 0`);
    // JSON syntax: Go's scanner's words
    expect(err('nope')).toBe(`${invalid}invalid character 'o' in literal null (expecting 'u')`);
    expect(err('{"v":')).toBe(`${invalid}unexpected end of JSON input`);
    // the top level: null unmarshals into nothing; anything but an object is a type error
    expect(err('null')).toBe(`${invalid}server does not recognize this encoded version `);
    expect(err('[1]')).toBe(`${invalid}json: cannot unmarshal array into Go value of type storage.continueToken`);
    expect(err(' 5')).toBe(`${invalid}json: cannot unmarshal number into Go value of type storage.continueToken`);
    expect(err('"x"')).toBe(`${invalid}json: cannot unmarshal string into Go value of type storage.continueToken`);
    // fields: names folded as Go folds them, null leaves a field unset, the last member wins
    expect(ok('{"V":"meta.k8s.io/v1","Rv":5,"ſTART":"a"}')).toEqual({ start: 'a', resourceVersion: 5 });
    expect(ok('{"v":"meta.k8s.io/v1","rv":5,"start":"a","rv":null,"x":[{"rv":0}],"start":"b"}')).toEqual({
      start: 'b',
      resourceVersion: 5,
    });
    expect(ok('{"v":"meta.k8s.io/v1","rv":-9223372036854775808,"start":"a"}').resourceVersion).toBeLessThan(0);
    expect(err('{"v":"meta.k8s.io/v1","rv":null,"start":"a"}')).toBe(
      `${invalid}incorrect encoded start resourceVersion (version meta.k8s.io/v1)`,
    );
    expect(err('{"v":"meta.k8s.io/v1","rv":-0,"start":"a"}')).toBe(
      `${invalid}incorrect encoded start resourceVersion (version meta.k8s.io/v1)`,
    );
    expect(err('{"v":"meta.k8s.io/v1","rv":5,"start":null}')).toBe(
      `${invalid}encoded start key empty (version meta.k8s.io/v1)`,
    );
    // type errors: the first one is kept, whatever follows
    const field = (name: string, value: string, type: string): string =>
      `${invalid}json: cannot unmarshal ${value} into Go struct field continueToken.${name} of type ${type}`;
    expect(err('{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}')).toBe(field('rv', 'number 1.5', 'int64'));
    expect(err('{"v":"meta.k8s.io/v1","rv":5e0,"start":"a"}')).toBe(field('rv', 'number 5e0', 'int64'));
    expect(err('{"rv":9223372036854775808}')).toBe(field('rv', 'number 9223372036854775808', 'int64'));
    expect(err('{"rv":"5","v":5}')).toBe(field('rv', 'string', 'int64'));
    expect(err('{"v":5,"rv":"5"}')).toBe(field('v', 'number', 'string'));
    expect(err('{"v":"meta.k8s.io/v1","rv":5,"start":{"a":"}"}}')).toBe(field('start', 'object', 'string'));
    expect(err('{"v":"meta.k8s.io/v1","rv":5,"START":true}')).toBe(field('start', 'bool', 'string'));
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
