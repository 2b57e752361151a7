// JSON texts for checking kevents' YAML writer (jsonToYaml, packages/apiserver) against
// sigs.k8s.io/yaml's JSONToYAML: hand-picked hard cases and seeded random ones. Shared by
// compare-output.js (the differential check) and output-fixtures.js (the test's fixtures).

import fc from 'fast-check';

/** Strings that goyaml quotes, folds, escapes or writes as blocks, each for a reason. */
// prettier-ignore
export const hardStrings = [
  '', ' ', '  ', 'a', 'true', 'True', 'TRUE', 'false', 'yes', 'Yes', 'no', 'NO', 'on', 'On', 'off', 'y', 'Y', 'n',
  'N', 'null', 'Null', '~', 'nil', 'None', '<<', '=', '1', '-1', '+1', '0', '-0', '00', '01', '08', '09', '010',
  '1.0', '1.', '.5', '-.5', '+.5', '.', '..', '...', '....', '---', '--- a', '-- a', '1e3', '1E3', '1e', 'e3',
  '1e400', '-1e400', '.5e400', '1_000', '_1', '1_', '-_1', '1__0', '0x1F', '0X1f', '0x', '0o17', '0O17', '0o',
  '0b101', '0b', '0b102', '0b+1', '0b-1', '-0b1', '-0b-1', '0x_1', '0_x1', '.5_5', '._5', '.5_', '.5e1_0',
  '9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
  '18446744073709551615', '18446744073709551616', '123456789012345678901234567890', '1:20', '1:20:30', '-1:20',
  '1:60', '1:20.5', '190:20:30', '1_0:20', 'a:20', '12:30:45', '.inf', '-.inf', '+.inf', '.Inf', '.INF', '.nan',
  '.NaN', 'inf', 'nan', 'Infinity', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14T21:59:43.10Z',
  '2001-12-14 21:59:43.10', '2001-12-14 21:59', '2001-1-2', '2001-13-01', '2001-02-29', '2000-02-29', '1900-02-29',
  '2001-12-32', '2001-12-14T25:00:00Z', '2001-12-14T21:59:43Z', '2024-01-01T00:00:00Z',
  '2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:00.1234567891Z', '2024-01-01T00:00:00,5Z',
  '2024-01-01T00:00:00+01:00', '2024-01-01T00:00:00+-1:+2', '2024-01-01T00:00:00+0100', '2024-01-01   1:2:3',
  '2024-01-01 1:2:3.', '2024-01-01T1:2:3Z', '20240-01-01', '2024-1', '2024-', '-2024-01-01', '2024-01-01x',
  '2024-01-01 ', '-', '- ', '- a', '-a', '--', '?', '? a', '?a', ':', ': a', ':a', 'a:', 'a:b', 'a: b', 'a :b',
  'a#b', 'a #b', '#', '#a', ',', ',a', 'a,b', '[', '[a]', ']', '{', '{}', '}', '&a', '*a', '!a', '!!str', '|', '|a',
  '>', '>a', "'", "'a'", "a'b", "it's", '"', '"a"', 'a"b', '%', '%a', '@', '@x', '`', '`x', 'a`b', 'a@b', 'a!b',
  'a&b', 'a*b', 'a|b', 'a>b', 'a%b', 'a b', ' a', 'a ', ' a ', 'a  b', 'a\tb', '\t', '\ta', 'a\t', '\n', 'a\nb',
  'a\n', '\na', 'a\n\n', 'a\n\n\n', '\n\n', 'a\n b', 'a \nb', 'a\n\nb', ' \n', '\n ', 'a\r', '\r\n', 'a\r\nb', '\r',
  'a\u0085b', '\u0085', 'a\u2028b', '\u2028', 'a\u2029', 'a\u2028\n', '\u00a0', 'a\u00a0b', '\u00e9', 'caf\u00e9',
  '\u4e2d\u6587', '\ud83d\ude00', 'a\ud83d\ude00b', '\ufeff', '\ufeffa b', 'a\ufeff', '\ufffd', '\ue000', '\u0000',
  'a\u0000b', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', 'a\\b', '\\', 'a/b', '<a>',
  '&amp;', '\u007f', 'a\u0080', '\u009f', '\ufffe', '\uffff', 'a\u200bb', '\u2000a', 'x\n\ty', 'x\n y\n', '  x\n',
  'x \n y',
];

/**
 * Strings with the characters goyaml's reader refuses raw (DEL, the C1 controls but NEL, U+FFFE,
 * U+FFFF), which Go's JSON encoder writes raw: kube-apiserver's JSONToYAML fails on them, and the
 * oracle answers with its emitter's output for the value instead (`escapeControls`).
 */
const wordy = 'word '.repeat(20);
export const rawControlStrings = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)),
  'a\u007fb',
  '\u007f ',
  ' \u007f',
  'a \u007f b',
  '\u007f\u007f',
  'a\n\u007f',
  '\u007f\n',
  'a\u0085\u007f',
  '\u0080\u0085\u0081',
  '\ufeff\u007f',
  '\u00e9\u0080',
  '\u007f\u2028',
  '\u007f"\\',
  '\u007f\ud83d\ude00',
  '\u0000\u007f\u0080\u00a0',
  `${wordy}\u007f ${wordy}`,
  `${wordy}\u0099${wordy}`,
  `\u009b${wordy}\ufffe`,
  `${wordy}\n\u0080 ${wordy}`,
  `- \u007f`,
  `\u007f: x`,
  '#\u0080',
  'a\tb\u007f',
];

/** Keys whose order goyaml's keyList.Less decides in its own way. */
// prettier-ignore
export const hardKeys = [
  'a', 'b', 'A', 'B', 'Z', '_', '-', '.', '0', '1', '9', '10', '01', '001', 'a1', 'a01', 'a001', 'a9', 'a10', 'a010',
  'a09', 'a2b', 'a10b', 'a_b', 'a-b', 'a.b', 'aB', 'ab', 'a b', 'a', 'é', 'ä', 'z', 'ß', '中', '\u0660', 'a\u0661',
  'a\u0669', 'a\ud83d\ude00', 'a\uff10', '$', '~', '@', 'apiVersion', 'kind', 'metadata', 'spec', 'status', 'x0',
  'x00', 'x0a', 'x00a', '1a', '1b', '10a', 'v1', 'v1beta1', 'v10', 'v2', 'a99999999999999999999',
  'a100000000000000000000', '', ' ', 'true', 'null', '1.5', 'a\nb', 'key with: colon', '#k', '- k',
];

/** JSON number texts, as JSON allows them (Go's encoder writes a few of these forms only). */
// prettier-ignore
export const numberTexts = [
  '0', '-0', '1', '-1', '0.0', '-0.0', '1.0', '1.5', '0.1', '0.5', '-1.5', '1e3', '1E3', '1e+3', '1e-3', '1e21',
  '1e+21', '1e20', '1e-7', '1e-07', '1e-5', '1e-4', '0.0001', '0.00001', '123456', '123456.0', '1234567',
  '1234567.0', '123456789', '123456789.0', '1e6', '1e5', '100000.0', '1000000.0', '999999.9', '9999999',
  '12345678901234567890', '123456789012345678901234567890', '18446744073709551615', '18446744073709551616',
  '9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
  '-18446744073709551615', '5e-324', '4.9e-324', '2.5e-324', '1e-400', '1.7976931348623157e308',
  '1.7976931348623159e308', '1e400', '-1e400', '3.141592653589793', '2.718281828459045e-10', '0.30000000000000004',
  '9007199254740993', '9007199254740993.0', '1.0000000000000002', '100', '1e2', '1.5e300', '-2.5e-300', '0.000123',
  '12.5e-1',
];

/** Real objects as kube-apiserver writes them (json.Marshal: compact, <>& escaped). */
export const kubeObjects = [
  {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: {
      name: 'nginx-7c5ddbdf54-x8vzm.17a8f1c2d3e4b5a6',
      namespace: 'default',
      uid: '0f3e2f8c-1b2a-4c3d-9e8f-7a6b5c4d3e2f',
      resourceVersion: '123456',
      creationTimestamp: '2024-05-01T10:11:12Z',
      managedFields: [
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2024-05-01T10:11:12Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:count': {},
            'f:involvedObject': {},
            'f:message': {},
            'f:reason': {},
            'f:source': { 'f:component': {}, 'f:host': {} },
          },
        },
      ],
    },
    involvedObject: {
      kind: 'Pod',
      namespace: 'default',
      name: 'nginx-7c5ddbdf54-x8vzm',
      uid: 'a1b2c3d4-0000-1111-2222-333344445555',
      apiVersion: 'v1',
      resourceVersion: '98765',
      fieldPath: 'spec.containers{nginx}',
    },
    reason: 'BackOff',
    message:
      'Back-off restarting failed container nginx in pod nginx-7c5ddbdf54-x8vzm_default(a1b2c3d4-0000-1111-2222-333344445555)',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2024-05-01T10:11:12Z',
    lastTimestamp: '2024-05-01T10:21:12Z',
    count: 42,
    type: 'Warning',
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: 'node-1',
  },
  {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      'events "x" is forbidden: User "system:serviceaccount:default:sa" cannot get resource "events" in API group "" in the namespace "default"',
    reason: 'Forbidden',
    details: { name: 'x', kind: 'events' },
    code: 403,
  },
  {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: '7' },
    columnDefinitions: [
      { name: 'Last Seen', type: 'string', format: '', description: 'When the event was last seen', priority: 0 },
      { name: 'Count', type: 'integer', format: 'int32', description: 'How often', priority: 1 },
    ],
    rows: [
      {
        cells: ['5m', 3, 'Warning', 'BackOff', 'pod/x', 'Back-off restarting failed container'],
        object: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { name: 'x', namespace: 'default', creationTimestamp: null },
        },
      },
    ],
  },
];

/** An EventList of `n` events, each a variation of the first kube object. */
export function eventList(n) {
  const items = [];
  for (let i = 0; i < n; i++) {
    const e = structuredClone(kubeObjects[0]);
    delete e.kind;
    delete e.apiVersion;
    e.metadata.name = `pod-${i}.${(i * 7919).toString(16)}`;
    e.count = i;
    e.message = i % 3 === 0 ? `line one\nline two ${i}` : e.message + ` #${i}`;
    items.push(e);
  }
  return { kind: 'EventList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items };
}

/** JSON.stringify with Go's encoder's escapes (<, >, &, U+2028, U+2029). */
export function goJson(value) {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A number as its JSON text. */
class Num {
  constructor(text) {
    this.text = text;
  }
}

/** A JSON text from a tree where numbers may be {@link Num}s (kept as written). */
function render(v, escape) {
  if (v instanceof Num) return v.text;
  if (typeof v === 'string') return escape(v);
  if (Array.isArray(v)) return `[${v.map((x) => render(x, escape)).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${escape(k)}:${render(x, escape)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const escapes = {
  go: (s) => goJson(s),
  raw: (s) => JSON.stringify(s),
  // Non-ASCII BMP as \u escapes; astral characters raw (goyaml refuses surrogate escapes).
  ascii: (s) =>
    JSON.stringify(s).replace(
      /[\u0080-\ud7ff\ue000-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
};

const word = fc.string({
  unit: fc.constantFrom(...'abcxyzABC0123456789_-.:#,\'"!&*?|>%@`[]{}/\\'.split(''), 'é', '中', '\u00a0', '\t'),
  minLength: 1,
  maxLength: 12,
});
/** Strings of words and spaces, long enough to fold, sometimes with line feeds. */
const sentence = fc
  .tuple(
    fc.array(word, { minLength: 1, maxLength: 30 }),
    fc.array(fc.constantFrom(' ', ' ', ' ', ' ', '  ', '\n', ' \n', '\n ', '\n\n'), { minLength: 30, maxLength: 30 }),
    fc.constantFrom('', '', '', ' ', '\n', '\n\n'),
  )
  .map(([ws, seps, end]) => ws.map((w, i) => (i === 0 ? w : seps[i] + w)).join('') + end);
const longWord = fc.integer({ min: 60, max: 200 }).map((n) => 'x'.repeat(n));
const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hardStrings) },
  { weight: 3, arbitrary: sentence },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: longWord },
  { weight: 1, arbitrary: fc.constantFrom(...hardStrings).map((s) => s + ' ' + 'y'.repeat(90)) },
);
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hardKeys) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...'aAbZ019_-.é\u0660'.split('')), maxLength: 5 }) },
  { weight: 1, arbitrary: anyString },
);
const number = fc.oneof(
  fc.constantFrom(...numberTexts).map((t) => new Num(t)),
  fc.integer().map((n) => new Num(String(n))),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => new Num(JSON.stringify(d))),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map((n) => new Num(String(n))),
);
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: tie('leaf') },
    { weight: 2, arbitrary: tie('map') },
    { weight: 1, arbitrary: tie('list') },
  ),
  leaf: fc.oneof(
    { weight: 6, arbitrary: anyString },
    { weight: 2, arbitrary: number },
    { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  ),
  map: fc.array(fc.tuple(key, tie('node')), { maxLength: 5 }).map((es) => Object.fromEntries(es)),
  list: fc.array(tie('node'), { maxLength: 4 }),
})).node;

/** Nests `v` `depth` levels deep, alternately in a map and a list, to move it right. */
function nest(v, depth, listsToo) {
  for (let d = 0; d < depth; d++) v = listsToo && d % 2 === 1 ? [v] : { k: v };
  return v;
}

/** The hand-picked cases: each string, key and number in several places. */
export function handPickedCases() {
  const cases = [];
  for (const s of [...hardStrings, ...rawControlStrings]) {
    cases.push(escapes.go(s), escapes.raw(s), `{"k":${escapes.go(s)}}`, `[${escapes.go(s)}]`);
    cases.push(`{${escapes.go(s)}:1}`, `{${escapes.go(s)}:[1]}`, `{${escapes.go(s)}:{"a":1}}`, `[[${escapes.go(s)}]]`);
  }
  for (const n of numberTexts) cases.push(n, `{"n":${n}}`, `[${n},{"m":[${n}]}]`);
  cases.push(render(Object.fromEntries(hardKeys.map((k, i) => [k, i])), escapes.go));
  for (let i = 0; i < hardKeys.length; i += 7) {
    cases.push(render(Object.fromEntries(hardKeys.slice(i, i + 9).map((k, j) => [k, j])), escapes.go));
  }
  for (const o of kubeObjects) cases.push(goJson(o));
  cases.push(goJson(eventList(4)));
  cases.push(
    '{}',
    '[]',
    'null',
    'true',
    '[[]]',
    '[{}]',
    '{"a":{}}',
    '{"a":[]}',
    '[[[]]]',
    '{"a":[[]]}',
    '[[1,[2]],[]]',
  );
  cases.push('{"a":[{"b":[{"c":[]}]}]}', '{"a":1,"a":2}', '{"b":1,"a":2,"b":3}', ' { "a" : [ 1 , 2 ] } ');
  // Folding at each depth: words past column 80, where the indentation alone may pass it.
  const long = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt';
  for (let d = 0; d <= 44; d += d < 6 ? 1 : 7) {
    for (const s of [
      long,
      `${long}: "x"`,
      `- ${long}`,
      `${long}\n${long}`,
      `'${long}`,
      `${long}\t`,
      long + '  ' + long,
    ]) {
      cases.push(goJson(nest(s, d, false)), goJson(nest(s, d, true)), goJson(nest({ [s]: s }, d, true)));
    }
    cases.push(goJson(nest('x'.repeat(120), d, true)), goJson(nest(['a b '.repeat(30).trim()], d, false)));
  }
  // Keys past libyaml's 128-byte simple-key limit, and the scanner's 1,024-character one.
  for (const n of [42, 43, 127, 128, 129, 200, 1022, 1023, 1030]) {
    cases.push(goJson({ ['k'.repeat(n)]: 'v' }), goJson({ ['é'.repeat(Math.ceil(n / 2))]: [1, { a: 1 }] }));
    cases.push(goJson({ [('word '.repeat(n / 5 + 1) + 'end').slice(-n)]: { a: [1] } }));
  }
  cases.push('{"a":"\\/"}', '{"a":"\\ud83d\\ude00"}', '{"a":"\\ud800"}', '{"a\\u2028b":1}', '{"a\u2028b":1}');
  cases.push('{"a":"x \u0085 y"}', '{"a":"x\u2028 \u2029y"}', '{"a":"x \u0085\u0085 y"}', '{"a":"x\u0085"}');
  return [...new Set(cases)];
}

/** `count` random JSON texts from `seed`, escaped as Go writes them, raw, or all ASCII. */
export function generatedCases(count, seed) {
  const arb = fc.tuple(tree, fc.constantFrom('go', 'go', 'go', 'raw', 'ascii'), fc.integer({ min: 0, max: 6 }));
  return fc.sample(arb, { numRuns: count, seed }).map(([v, esc, depth]) => render(nest(v, depth, true), escapes[esc]));
}
