import { describe, expect, it } from '@jest/globals';
import { isDNS1123Label, isDNS1123Subdomain, isDNS1123SubdomainContent } from './dns.js';
import { isQualifiedName, isValidLabelValue } from './qualified-name.js';
import { isPathSegmentName, isPathSegmentPrefix } from './path-segment.js';
import { nameIsDNSLabel, nameIsDNSSubdomain, nameIsPathSegment } from './name-functions.js';

// Texts copied from Kubernetes (apimachinery util/validation and api/validate/content).
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const namePartMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('isDNS1123Subdomain', () => {
  it.each(['a', 'example.com', 'kube-system', '1-2.3', 'a'.repeat(253)])('accepts %s', (v) => {
    expect(isDNS1123Subdomain(v)).toEqual([]);
  });
  it.each(['', 'A', 'a_b', '-a', 'a-', 'a..b', '.a', 'aoeu-_-aoeu', 'ünicode'])(
    'rejects %j with the regex text',
    (v) => {
      expect(isDNS1123Subdomain(v)).toEqual([subdomainMsg]);
    },
  );
  it('limits the length to 253 bytes, counting UTF-8 bytes', () => {
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain('é'.repeat(127))).toEqual(['must be no more than 253 characters', subdomainMsg]);
  });
  it('the content variant (label-key prefixes) says bytes', () => {
    expect(isDNS1123SubdomainContent('a'.repeat(254))).toEqual(['must be no more than 253 bytes']);
  });
});

describe('isDNS1123Label', () => {
  it('accepts labels', () => expect(isDNS1123Label('my-name')).toEqual([]));
  it('says "must not contain dots" for a subdomain', () =>
    expect(isDNS1123Label('my.ns')).toEqual(['must not contain dots']));
  it('prints the label regex otherwise', () => expect(isDNS1123Label('My_ns')).toEqual([labelMsg]));
  it('limits to 63', () => {
    expect(isDNS1123Label('a'.repeat(63))).toEqual([]);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('isQualifiedName', () => {
  it.each([
    'kubelet',
    'k8s.io/my-controller',
    'MyName',
    'my.name',
    '123-abc',
    'a_b',
    'example.com/A.b-c_d',
    'a'.repeat(63),
  ])('accepts %s', (v) => expect(isQualifiedName(v)).toEqual([]));
  it('gives two messages for ""', () => {
    expect(isQualifiedName('')).toEqual(['name part must be non-empty', namePartMsg]);
  });
  it('rejects characters outside the name alphabet', () => {
    expect(isQualifiedName('my-contr@ller')).toEqual([namePartMsg]);
    expect(isQualifiedName('-a')).toEqual([namePartMsg]);
  });
  it('limits the name part to 63 bytes', () => {
    expect(isQualifiedName('a'.repeat(64))).toEqual(['name part must be no more than 63 bytes']);
    expect(isQualifiedName('é')).toEqual([namePartMsg]);
  });
  it('checks the prefix as a subdomain', () => {
    expect(isQualifiedName('/a')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('Example.com/a')).toEqual([`prefix part ${subdomainMsg}`]);
    expect(isQualifiedName('example.com/')).toEqual(['name part must be non-empty', namePartMsg]);
  });
  it('rejects more than one slash with one message', () => {
    expect(isQualifiedName('a/b/c')).toEqual([
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });
});

describe('isValidLabelValue', () => {
  it.each(['', 'v1', 'My_Value.1', 'a'.repeat(63)])('accepts %j', (v) => expect(isValidLabelValue(v)).toEqual([]));
  it('rejects bad characters', () => expect(isValidLabelValue('a b')).toEqual([labelValueMsg]));
  it('limits to 63 bytes', () => {
    expect(isValidLabelValue('a'.repeat(64))).toEqual(['must be no more than 63 bytes']);
  });
});

describe('path segment names', () => {
  it.each([
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['a/b', ["may not contain '/'"]],
    ['a%b', ["may not contain '%'"]],
    ['a/%', ["may not contain '/'", "may not contain '%'"]],
    ['Upper.Case_ok', []],
    ['', []],
  ] as const)('%j', (v, want) => {
    expect(isPathSegmentName(v)).toEqual(want);
  });
  it('a prefix may be . or ..', () => {
    expect(isPathSegmentPrefix('..')).toEqual([]);
    expect(nameIsPathSegment('.', true)).toEqual([]);
    expect(nameIsPathSegment('.', false)).toEqual(["may not be '.'"]);
  });
});

describe('name functions', () => {
  it('allow a trailing dash in a generateName prefix', () => {
    expect(nameIsDNSSubdomain('nginx-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('nginx-', false)).toEqual([subdomainMsg]);
    expect(nameIsDNSLabel('ns-', true)).toEqual([]);
  });
  it('mask the two last characters like Go (a "-" alone is not masked)', () => {
    expect(nameIsDNSSubdomain('a_-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('-', true)).toEqual([subdomainMsg]);
  });
});
