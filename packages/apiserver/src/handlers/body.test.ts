import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { encodeProtobuf, leaseSchema } from '@kevents/api';
import { ApiError } from '../errors/api-error.js';
import {
  decodeKind,
  mediaType,
  objectMediaTypes,
  parseBody,
  parseProtobufBody,
  requireObjectMediaType,
  summarizeBody,
} from './body.js';
import { apiFailure } from '../testing/api-failure.js';
import { maxBodyValues, tooManyValues } from '../registry/object-values.js';

const st = (e: ApiError): [number, string | undefined] => [e.code, e.status.message];

describe('mediaType and requireObjectMediaType', () => {
  it('drops parameters and lower-cases', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(' application/yaml ')).toBe('application/yaml');
    expect(mediaType(undefined)).toBe('');
    expect(objectMediaTypes).toEqual(['application/json', 'application/yaml']);
  });
  it('answers each of a run of Content-Types, repeated or not, as for the first time', () => {
    const reference = (t: string | undefined) => (t ?? '').split(';')[0]!.trim().toLowerCase();
    const type = fc.oneof(
      fc.constantFrom(undefined, '', 'application/json', 'Application/JSON; charset=utf-8', 'application/yaml '),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(type, { maxLength: 30 }), (types) => {
        for (const t of types) expect(mediaType(t)).toBe(reference(t));
      }),
    );
  });
  it('415 for anything but JSON, YAML or nothing', () => {
    for (const t of ['application/json', 'application/yaml;x=y', undefined, '']) requireObjectMediaType(t);
    const e = apiFailure(() => requireObjectMediaType('text/plain'));
    expect(e.code).toBe(415);
    expect(e.status.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
  });
});

describe('parseBody', () => {
  it('parses JSON from a string or a buffer, and reports duplicate keys', () => {
    expect(parseBody('{"a":1}', 'application/json')).toEqual({
      value: { a: 1 },
      text: '{"a":1}',
      duplicates: [],
      values: 1,
    });
    expect(parseBody(Buffer.from('{"a":[1]}'), undefined)).toEqual({
      value: { a: [1] },
      text: '{"a":[1]}',
      duplicates: [],
      values: 2,
    });
    expect(parseBody('{"a":1,"a":2}', 'application/json').duplicates).toEqual(['a']);
  });
  it("reads one client's escaped keys as JSON says after another client's body that would make Node 24's JSON.parse misread them (nodejs/node#63785)", () => {
    const poison = Buffer.from('{"metadata":{"annotations":{"zz.example.com/first":"","zz.example.com\\\\/tea":"x"}}}');
    const victim = Buffer.from('{"metadata":{"annotations":{"zz.example.com/first":"","zz.example.com\\/team":"y"}}}');
    parseBody(poison, 'application/json');
    expect(parseBody(victim, 'application/json').value).toEqual({
      metadata: { annotations: { 'zz.example.com/first': '', 'zz.example.com/team': 'y' } },
    });
  });

  it('400 for an empty body or bad JSON', () => {
    expect(st(apiFailure(() => parseBody('  ', 'application/json')))).toEqual([
      400,
      'the body of the request was empty',
    ]);
    expect(st(apiFailure(() => parseBody(undefined, 'application/json')))).toEqual([
      400,
      'the body of the request was empty',
    ]);
    expect(st(apiFailure(() => parseBody(42, 'application/json')))).toEqual([400, 'the body of the request was empty']);
    const bad = apiFailure(() => parseBody('{', 'application/json'));
    expect(bad.code).toBe(400);
    expect(bad.status.message).toMatch(/^couldn't get version\/kind; json parse error: /);
  });
  it('parses YAML; a YAML error is a 400', () => {
    expect(parseBody('a: 1\nb: [x]\n', 'application/yaml; charset=utf-8')).toEqual({
      value: { a: 1, b: ['x'] },
      text: 'a: 1\nb: [x]\n',
      duplicates: [],
    });
    expect(parseBody('', 'application/yaml').value).toBeNull();
    const bad = apiFailure(() => parseBody('a: [', 'application/yaml'));
    expect(bad.code).toBe(400);
    expect(bad.status.message).toMatch(/^yaml: line 1: /);
  });
  it('keeps the last of repeated YAML keys; strict decoding names them as sigs.k8s.io/yaml does', () => {
    const text = 'kind: Lease\nmetadata:\n  name: a\n  name: b\nspec: {}\nx: 1\n';
    const parsed = parseBody(text, 'application/yaml');
    expect(parsed.value).toEqual({ kind: 'Lease', metadata: { name: 'b' }, spec: {}, x: 1 });
    const gv = { groupVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
    expect(decodeKind(parsed, leaseSchema, gv, 'Ignore').warnings).toEqual([]);
    const yamlError = 'yaml: unmarshal errors:\n  line 4: key "name" already set in map';
    expect(decodeKind(parsed, leaseSchema, gv, 'Warn').warnings).toEqual([yamlError, 'unknown field "x"']);
    expect(st(apiFailure(() => decodeKind(parsed, leaseSchema, gv, 'Strict')))).toEqual([
      400,
      `strict decoding error: ${yamlError}, unknown field "x"`,
    ]);
    expect(st(apiFailure(() => parseBody('? [a]\n: x\n', 'application/yaml')))).toEqual([
      400,
      'yaml: invalid map key: []interface {}{"a"}',
    ]);
  });
  it('413 before parsing for a JSON body of more values than a body may hold (a malformed end is not read)', () => {
    const zeros = (n: number): string => Array.from({ length: n }, () => '0').join(',');
    const over = apiFailure(() => parseBody(`{"x":[${zeros(maxBodyValues)}],"y":`, 'application/json'));
    expect(st(over)).toEqual([413, tooManyValues().status.message]);
    // 1.5 million numbers: refused as soon as the count passes the bound.
    expect(apiFailure(() => parseBody(`{"x":[${zeros(1_500_000)}]}`, 'application/json')).code).toBe(413);
    // At the bound it parses, and decodeKind counts it as before.
    const at = parseBody(`{"x":[${zeros(maxBodyValues - 1)}]}`, 'application/json');
    expect(at.values).toBe(maxBodyValues);
    // Values in strings are not values.
    expect(parseBody(`{"x":"${'0,'.repeat(maxBodyValues)}"}`, 'application/json').values).toBe(1);
  });

  it('413 while decoding a protobuf body of more fields than a body may hold values, before the rest is read', () => {
    // 250,000 labels (2.7 MB) held the event loop 1.5-3.4 s before decodeKind's 413 for their values.
    const withLabels = (n: number): Buffer => {
      const labels: Record<string, string> = {};
      for (let i = 0; i < n; i++) labels[`k${i}`] = '';
      const event = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'x', labels } };
      return encodeProtobuf(event, 'events/v1.Event');
    };
    const expected = { groupVersion: 'events.k8s.io/v1', kind: 'Event' };
    const over = apiFailure(() => parseProtobufBody(withLabels(maxBodyValues), 'events/v1.Event', expected));
    expect(st(over)).toEqual([413, tooManyValues().status.message]);
    // Below it (beside the ~50 zero-valued fields gogo writes for an Event) it decodes.
    const at = parseProtobufBody(withLabels(maxBodyValues - 100), 'events/v1.Event', expected);
    expect(Object.keys((at.value as { metadata: { labels: object } }).metadata.labels)).toHaveLength(
      maxBodyValues - 100,
    );
  });

  it('never throws anything but a 400', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('application/json', 'application/yaml'), (s, t) => {
        try {
          parseBody(s, t);
        } catch (e) {
          expect((e as ApiError).code).toBe(400);
        }
      }),
    );
  });
});

describe('decodeKind', () => {
  const gv = { groupVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
  const dec = (value: unknown, fv: 'Strict' | 'Warn' | 'Ignore' = 'Warn', duplicates: string[] = []) =>
    decodeKind<Record<string, unknown>>({ value, text: '', duplicates }, leaseSchema, gv, fv);

  it('decodes an object', () => {
    const r = dec({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'a' },
      spec: { holderIdentity: 'h' },
    });
    expect(r.warnings).toEqual([]);
    expect(r.object['spec']).toEqual({ holderIdentity: 'h' });
    expect(dec({ kind: '', apiVersion: '', metadata: { name: 'a' } }).object['metadata']).toEqual({ name: 'a' });
    expect(dec({ metadata: { name: 'a' } }).warnings).toEqual([]);
  });
  it('400 for something that is not an object, in the words of the kind lookup; null is an empty object', () => {
    const findKind =
      'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    expect(st(apiFailure(() => dec([1])))).toEqual([
      400,
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${findKind}`,
    ]);
    expect(apiFailure(() => dec('x')).status.message).toContain('json: cannot unmarshal string into Go value');
    expect(apiFailure(() => dec(3)).status.message).toContain('cannot unmarshal number');
    expect(dec(null).object).toEqual({});
  });
  it('names the object provided as unrecognized, with the first 30 bytes, where kube create handlers do', () => {
    const gv = { groupVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
    const unrecognized = { unrecognizedKind: 'Lease' };
    const body = (text: string) =>
      decodeKind(parseBody(text, 'application/json', unrecognized), leaseSchema, gv, 'Warn', unrecognized);
    expect(apiFailure(() => body('{"metadata": {"name": "broken"')).status.message).toBe(
      `the object provided is unrecognized (must be of type Lease): couldn't get version/kind; json parse error: unexpected end of JSON input ({"metadata": {"name": "broken")`,
    );
    expect(apiFailure(() => body('[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]')).status.message).toMatch(
      /^the object provided is unrecognized \(must be of type Lease\): couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct .* \(5b312c20322c20332c20342c20352c20362c20372c20382c20392c203130 \.\.\.\)$/,
    );
    expect(apiFailure(() => body('{"apiVersion":"a/b/c"}')).status.message).toBe(
      'the object provided is unrecognized (must be of type Lease): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})',
    );
    expect(apiFailure(() => parseBody('a: [', 'application/yaml', unrecognized)).status.message).toMatch(
      /^the object provided is unrecognized \(must be of type Lease\): yaml: line 1: .* \(613a205b\)$/,
    );
    expect(summarizeBody('')).toBe('<empty>');
    expect(summarizeBody(`{"a":"x${'é'.repeat(20)}"}`)).toBe(`{"a":"x${'é'.repeat(11)}\ufffd ...`);
  });
  it('400 for another kind or apiVersion', () => {
    expect(st(apiFailure(() => dec({ kind: 'Event' })))).toEqual([
      400,
      'the kind in the data (Event) does not match the expected kind (Lease)',
    ]);
    expect(st(apiFailure(() => dec({ apiVersion: 'v1' })))).toEqual([
      400,
      'the API version in the data (v1) does not match the expected API version (coordination.k8s.io/v1)',
    ]);
  });
  it('400 for a kind or apiVersion that is not a string, the first in the text deciding', () => {
    const typeError = (t: string, field: string) =>
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${t} into Go struct field .${field} of type string`;
    expect(st(apiFailure(() => dec(JSON.parse('{"apiVersion":1,"kind":[]}'))))).toEqual([
      400,
      typeError('number', 'apiVersion'),
    ]);
    expect(st(apiFailure(() => dec(JSON.parse('{"kind":true,"apiVersion":{}}'))))).toEqual([
      400,
      typeError('bool', 'kind'),
    ]);
    expect(st(apiFailure(() => dec({ metadata: {}, apiVersion: ['x'] })))).toEqual([
      400,
      typeError('array', 'apiVersion'),
    ]);
    expect(dec({ kind: null, apiVersion: null, metadata: { name: 'a' } }).warnings).toEqual([]);
  });
  it('reports each unknown and duplicate field once (Warn) and nothing when there are none', () => {
    expect(dec({ metadata: { name: 'a' }, x: 1 }, 'Warn').warnings).toEqual(['unknown field "x"']);
    expect(dec({ metadata: { name: 'a' } }, 'Warn', ['metadata.name']).warnings).toEqual([
      'duplicate field "metadata.name"',
    ]);
    expect(st(apiFailure(() => dec({ metadata: { name: 'a' } }, 'Strict', ['spec'])))).toEqual([
      400,
      'strict decoding error: duplicate field "spec"',
    ]);
  });
  it('400 for a type error', () => {
    const e = apiFailure(() => dec({ spec: { holderIdentity: 3 } }));
    expect(e.code).toBe(400);
    expect(e.status.message).toMatch(/^Lease in version "v1" cannot be handled as a Lease: .+/);
  });
  it('unknown and duplicate fields: warnings, strict errors, or ignored', () => {
    const body = { metadata: { name: 'a' }, bogus: 1 };
    expect(dec(body, 'Warn', ['spec']).warnings).toEqual(['unknown field "bogus"', 'duplicate field "spec"']);
    expect(dec(body, 'Ignore', ['spec']).warnings).toEqual([]);
    expect(st(apiFailure(() => dec(body, 'Strict', ['spec'])))).toEqual([
      400,
      'strict decoding error: unknown field "bogus", duplicate field "spec"',
    ]);
    expect(dec({ metadata: { name: 'a' } }, 'Strict').warnings).toEqual([]);
  });
});
