import { describe, expect, it } from '@jest/globals';
import type { ObjectMeta } from '@kevents/api';
import fc from 'fast-check';
import { FieldPath } from '../field/path.js';
import { nameIsDNSSubdomain, nameIsPathSegment } from './name-functions.js';
import { validateObjectMeta } from './object-meta.js';
import { validateKubeFinalizerNames } from './finalizers.js';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const namePartMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const strict = { namespaced: true, nameFn: nameIsDNSSubdomain };
const lines = (meta: ObjectMeta, opts = strict) => validateObjectMeta(meta, opts).map(String);
const base: ObjectMeta = { name: 'nginx.17d0a4b2c3', namespace: 'default' };

describe('validateObjectMeta', () => {
  it('accepts typical event metadata', () => {
    expect(
      lines({
        ...base,
        labels: { app: 'nginx', 'app.kubernetes.io/name': '' },
        annotations: { 'Example.com/Note': 'x' },
      }),
    ).toEqual([]);
  });

  it('requires name or generateName', () => {
    const errs = validateObjectMeta({ namespace: 'default' }, strict);
    expect(errs.map(String)).toEqual(['metadata.name: Required value: name or generateName is required']);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueRequired']);
    expect(errs.map((e) => e.field)).toEqual(['metadata.name']);
  });

  it('checks the name with nameFn', () => {
    const errs = validateObjectMeta({ ...base, name: 'Nginx.X' }, strict);
    expect(errs.map(String)).toEqual([`metadata.name: Invalid value: "Nginx.X": ${subdomainMsg}`]);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueInvalid']);
    expect(lines({ ...base, name: 'Nginx.X' }, { namespaced: true, nameFn: nameIsPathSegment })).toEqual([]);
    expect(lines({ ...base, name: 'a/b' }, { namespaced: true, nameFn: nameIsPathSegment })).toEqual([
      `metadata.name: Invalid value: "a/b": may not contain '/'`,
    ]);
  });

  it('checks generateName as a prefix (and still requires the generated name)', () => {
    expect(lines({ ...base, generateName: 'nginx-' })).toEqual([]);
    expect(lines({ namespace: 'default', generateName: 'Nginx-' })).toEqual([
      `metadata.generateName: Invalid value: "Nginx-": ${subdomainMsg}`,
      'metadata.name: Required value: name or generateName is required',
    ]);
  });

  it('requires a DNS-1123 label namespace when namespaced', () => {
    expect(lines({ name: 'a' })).toEqual(['metadata.namespace: Required value']);
    expect(lines({ name: 'a', namespace: 'my.ns' })).toEqual([
      'metadata.namespace: Invalid value: "my.ns": must not contain dots',
    ]);
    expect(lines({ name: 'a', namespace: 'x' }, { namespaced: false, nameFn: nameIsDNSSubdomain })).toEqual([
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
  });

  it('rejects a negative generation', () => {
    expect(lines({ ...base, generation: -1 })).toEqual([
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('validates label keys and values at metadata.labels', () => {
    const errs = validateObjectMeta(
      { ...base, labels: { 'bad key': 'ok', good: 'bad value', k: 'v'.repeat(64) } },
      strict,
    );
    expect(errs.map(String)).toEqual([
      `metadata.labels: Invalid value: "bad key": ${namePartMsg}`,
      `metadata.labels: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      `metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`,
    ]);
    expect(errs.every((e) => e.field === 'metadata.labels' && e.type === 'FieldValueInvalid')).toBe(true);
  });

  it('limits a label value in UTF-8 bytes', () => {
    // 32 two-byte characters: 64 bytes. The regex fails too (non-ASCII).
    expect(lines({ ...base, labels: { k: 'é'.repeat(32) } })[0]).toBe(
      `metadata.labels: Invalid value: "${'é'.repeat(32)}": must be no more than 63 bytes`,
    );
  });

  it('validates annotation keys case-insensitively and limits their total size', () => {
    expect(lines({ ...base, annotations: { 'Example.COM/Key': 'v', 'a b': 'v' } })).toEqual([
      `metadata.annotations: Invalid value: "a b": ${namePartMsg}`,
    ]);
    const big = { k: 'x'.repeat(256 * 1024 - 1) };
    expect(lines({ ...base, annotations: big })).toEqual([]);
    const errs = validateObjectMeta({ ...base, annotations: { k: 'x'.repeat(256 * 1024) } }, strict);
    expect(errs.map(String)).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
    expect(errs.map((e) => e.type)).toEqual(['FieldValueTooLong']);
    // Multi-byte: 87382 three-byte characters + 1-byte key = 262147 bytes, under 262144 characters.
    expect(lines({ ...base, annotations: { k: '事'.repeat(87382) } })).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
  });

  it('validates ownerReferences (unindexed paths) and bans core/v1 Event owners', () => {
    expect(lines({ ...base, ownerReferences: [{ apiVersion: 'apps/', kind: '', name: '', uid: '' }] })).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]);
    expect(lines({ ...base, ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] })).toEqual([
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    ]);
    const two = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
    ];
    expect(lines({ ...base, ownerReferences: two })).toEqual([
      'metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
    ]);
  });

  it('validates finalizers', () => {
    expect(lines({ ...base, finalizers: ['example.com/f', 'orphan'] })).toEqual([]);
    expect(lines({ ...base, finalizers: ['a b', 'orphan', 'foregroundDeletion'] })).toEqual([
      `metadata.finalizers: Invalid value: "a b": ${namePartMsg}`,
      'metadata.finalizers: Invalid value: ["a b","orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
    expect(
      validateKubeFinalizerNames(['kubernetes', 'mine', 'x.io/mine'], FieldPath.root('metadata', 'finalizers')).map(
        String,
      ),
    ).toEqual([
      'metadata.finalizers[1]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('validates managedFields', () => {
    expect(
      lines({ ...base, managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1' }] }),
    ).toEqual([]);
    expect(
      lines({
        ...base,
        managedFields: [
          { manager: 'a\u0007', fieldsType: 'FieldsV2' },
          { manager: 'm'.repeat(129), operation: 'Patch' as 'Apply' },
        ],
      }),
    ).toEqual([
      'metadata.managedFields[0].operation: Required value: must not be empty',
      'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
      'metadata.managedFields[0].manager: Invalid value: "a\\a": invalid character U+0007 (at position 1)',
      'metadata.managedFields[1].operation: Unsupported value: "Patch": supported values: "Apply", "Update"',
      'metadata.managedFields[1].manager: Too long: may not be more than 128 bytes',
    ]);
  });

  it('refuses a fieldsV1 nested more than 64 deep (a kevents bound: its indented JSON and YAML grow with depth × keys)', () => {
    const nest = (depth: number, width = 1): Record<string, unknown> => {
      let v: Record<string, unknown> = {};
      for (let d = 0; d < depth; d++) v = Object.fromEntries(Array.from({ length: width }, (_, i) => [`f:k${i}`, v]));
      return v;
    };
    const entry = (fieldsV1: Record<string, unknown>) => ({
      ...base,
      managedFields: [{ manager: 'm', operation: 'Update' as const, fieldsType: 'FieldsV1', fieldsV1 }],
    });
    expect(lines(entry(nest(64)))).toEqual([]);
    expect(lines(entry(nest(65)))).toEqual([
      'metadata.managedFields[0].fieldsV1: Invalid value: must not be nested more than 64 levels deep',
    ]);
    // Wide is fine (and checked without spreading 200,000 children into one call).
    expect(lines(entry(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`f:k${i}`, {}]))))).toEqual([]);
  });

  it('remembers a fieldsV1 found shallow only when nothing in it can change', () => {
    const deepFreeze = <V>(v: V): V => {
      if (v !== null && typeof v === 'object') for (const c of Object.values(v)) deepFreeze(c);
      return Object.freeze(v);
    };
    const entry = (fieldsV1: Record<string, unknown>) => ({
      ...base,
      managedFields: [{ manager: 'm', operation: 'Update' as const, fieldsType: 'FieldsV1', fieldsV1 }],
    });
    const tooDeep = 'metadata.managedFields[0].fieldsV1: Invalid value: must not be nested more than 64 levels deep';
    // Frozen at the top only: its inside may still grow, and is looked at again.
    const inner: Record<string, unknown> = {};
    const outer = Object.freeze({ 'f:a': inner });
    expect(lines(entry(outer))).toEqual([]);
    let v: Record<string, unknown> = {};
    for (let d = 0; d < 70; d++) v = { 'f:k': v };
    inner['f:deep'] = v;
    expect(lines(entry(outer))).toEqual([tooDeep]);
    // Frozen throughout: found shallow once, and the same the next time.
    const frozen = deepFreeze({ 'f:metadata': { 'f:labels': { 'f:a': {} } } });
    expect(lines(entry(frozen))).toEqual([]);
    expect(lines(entry(frozen))).toEqual([]);
    let deep: Record<string, unknown> = {};
    for (let d = 0; d < 65; d++) deep = { 'f:k': deep };
    deepFreeze(deep);
    expect(lines(entry(deep))).toEqual([tooDeep]);
    expect(lines(entry(deep))).toEqual([tooDeep]);
  });

  it('names the characters of any field manager as before its printable-ASCII shortcut', () => {
    const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
    const utf8 = (x: string) => Buffer.byteLength(x, 'utf8');
    const reference = (manager: string): string[] => {
      const out: string[] = [];
      if (utf8(manager) > 128) out.push('metadata.managedFields[0].manager: Too long: may not be more than 128 bytes');
      let pos = 0;
      for (const ch of manager) {
        if (!printable.test(ch)) {
          const hex = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
          out.push(
            `metadata.managedFields[0].manager: Invalid value: ${JSON.stringify(manager)}: invalid character U+${hex} (at position ${pos})`,
          );
        }
        pos += utf8(ch);
      }
      return out;
    };
    const manager = fc.oneof(
      fc.string({ maxLength: 140 }),
      fc.string({ unit: 'binary', maxLength: 140 }),
      fc.string({ unit: fc.constantFrom('a', ' ', '~', '\x7f', '\x1f', 'é'), maxLength: 140 }),
    );
    fc.assert(
      fc.property(manager, (m) => {
        const got = lines({ ...base, managedFields: [{ manager: m, operation: 'Update', fieldsType: 'FieldsV1' }] });
        // The value is quoted the Go way (%q), JSON.stringify here: compare what follows it.
        const why = (l: string) => /(Too long.*|invalid character .*)$/.exec(l)?.[1];
        expect(got.map(why)).toEqual(reference(m).map(why));
      }),
      { numRuns: 3000 },
    );
  });
});
