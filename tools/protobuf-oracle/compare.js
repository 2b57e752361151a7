// Compares kevents' protobuf encoding (packages/api/src/protobuf) with kube-apiserver's own code
// (the Go oracle: k8s.io/api v0.26 types, gogo-protobuf marshallers, the apimachinery protobuf
// serializer), and prints every class of difference with its shortest example:
//   encode: the bytes of encodeProtobuf against Go's for the same JSON;
//   decode: decodeProtobuf of Go's bytes, and of mutations of them (truncations, bit flips, byte
//           changes, random tails), against Go's JSON or Go's error (code and wording);
//   watch:  encodeWatchEvent against kube's watch encoder for several group versions.
// A development check, not a test: it needs Go and the oracle built (README.md).
//
// Usage: node tools/protobuf-oracle/compare.js [--generated=300] [--mutations=8] [--seed=1]
//        (after npm run build)
import { isDeepStrictEqual } from 'node:util';
import {
  encodeProtobuf,
  decodeProtobuf,
  encodeWatchEvent,
  decodeWatchEvent,
  ProtobufDecodeError,
} from '../../packages/api/dist/index.js';
import * as schema from '../../packages/api/dist/protobuf/schema.js';
import { generator, handPicked, rng, watchGroupVersions } from './cases.js';
import { ask } from './oracle.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const generated = Number(arg('generated', '300'));
const mutations = Number(arg('mutations', '8'));
const seed = Number(arg('seed', '1'));

// The oracle is k8s.io/api v0.26: kevents reads the fields added since (schema.ts marks them)
// as the newest kube-apiserver does; here they are taken out so that v0.26 and kevents read the
// same messages (mutations that happen to make one are then skipped by both).
let newerFields = 0;
for (const spec of Object.values(schema))
  for (const field of spec.fields ?? [])
    if (field.newer) {
      delete spec.byNo[field.no];
      newerFields++;
    }
const classes = new Map();

let compared = 0;
const differ = (cls, size, example) => {
  const had = classes.get(cls);
  if (!had || size < had.size) classes.set(cls, { size, example, count: (had?.count ?? 0) + 1 });
  else had.count++;
};

// 1. encode
const cases = [...handPicked];
const gen = generator(seed);
for (let i = 0; i < generated; i++) for (const [type, make] of Object.entries(gen)) cases.push([type, make()]);
const encAnswers = ask(cases.map(([type, obj]) => ({ type, json: JSON.stringify(obj) })));
const goBytes = [];
cases.forEach(([type, obj], i) => {
  const a = encAnswers[i];
  compared++;
  if (a.err) {
    differ(`${type} encode: the oracle refused the case (${a.err.slice(0, 60)})`, JSON.stringify(obj).length, { obj });
    return;
  }
  const want = Buffer.from(a.protobuf, 'base64');
  goBytes.push([type, want]);
  let got;
  try {
    got = encodeProtobuf(obj, type);
  } catch (e) {
    differ(`${type} encode: kevents threw ${e.name}`, want.length, { obj, err: String(e) });
    return;
  }
  if (!got.equals(want)) {
    let at = 0;
    while (at < got.length && got[at] === want[at]) at++;
    differ(`${type} encode: bytes differ`, want.length, {
      obj,
      at,
      go: want.toString('hex'),
      kevents: got.toString('hex'),
    });
  }
});

// 2. decode: Go's bytes and mutations of them
const r = rng(seed + 1);
const decodeCases = [];
for (const [type, bytes] of goBytes) {
  decodeCases.push([type, bytes, 'valid']);
  for (let k = 0; k < mutations; k++) {
    const b = Buffer.from(bytes);
    const how = r.pick(['truncate', 'flip', 'byte', 'tail', 'insert']);
    let m;
    if (how === 'truncate') m = b.subarray(0, r.int(b.length));
    else if (how === 'flip') {
      const at = 4 + r.int(b.length - 4);
      b[at] ^= 1 << r.int(8);
      m = b;
    } else if (how === 'byte') {
      b[4 + r.int(b.length - 4)] = r.int(256);
      m = b;
    } else if (how === 'tail')
      m = Buffer.concat([b, Buffer.from(Array.from({ length: 1 + r.int(12) }, () => r.int(256)))]);
    else {
      const at = 4 + r.int(b.length - 4);
      m = Buffer.concat([
        b.subarray(0, at),
        Buffer.from(Array.from({ length: 1 + r.int(3) }, () => r.int(256))),
        b.subarray(at),
      ]);
    }
    decodeCases.push([type, m, how]);
  }
}
// hand-made bytes
const prefix = Buffer.from('k8s\0', 'latin1');
for (const extra of [
  '',
  '00',
  '0a',
  '0aff',
  '0a0012',
  '12030a0100',
  '1200',
  '0a00120a0a01611a00',
  '120b0a090a01613a0308',
]) {
  decodeCases.push(['events/v1.Event', Buffer.concat([prefix, Buffer.from(extra, 'hex')]), 'hand']);
}
decodeCases.push(
  ['events/v1.Event', Buffer.alloc(0), 'hand'],
  ['events/v1.Event', Buffer.from('k8s'), 'hand'],
  ['events/v1.Event', Buffer.from('{}'), 'hand'],
);
const decAnswers = ask(decodeCases.map(([type, b]) => ({ type, decode: b.toString('base64') })));
const paths = (a, b, path = '') => {
  if (isDeepStrictEqual(a, b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => paths(a[k], b[k], `${path}.${k}`));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((x, i) => paths(x, b[i], `${path}[]`));
  return [path || '.'];
};
decodeCases.forEach(([type, bytes, how], i) => {
  const a = decAnswers[i];
  compared++;
  let got;
  let err;
  try {
    got = decodeProtobuf(bytes, type);
  } catch (e) {
    err = e;
  }
  if (err && !(err instanceof ProtobufDecodeError)) {
    differ(`${type} decode (${how}): kevents threw ${err.name}: ${err.message.slice(0, 40)}`, bytes.length, {
      hex: bytes.toString('hex'),
      err: String(err),
    });
    return;
  }
  if (a.err !== undefined) {
    if (!err)
      differ(`${type} decode: Go fails (${a.err.replace(/\d+/g, 'N')}), kevents reads`, bytes.length, {
        hex: bytes.toString('hex'),
        go: a.err,
        got,
      });
    else if (err.message !== a.err)
      differ(
        `decode: Go says "${a.err.replace(/\d+/g, 'N')}", kevents "${err.message.replace(/\d+/g, 'N')}"`,
        bytes.length,
        { hex: bytes.toString('hex'), go: a.err, kevents: err.message },
      );
    return;
  }
  if (err) {
    differ(`${type} decode: Go reads, kevents fails (${err.code})`, bytes.length, {
      hex: bytes.toString('hex'),
      kevents: err.message,
      go: a.json,
    });
    return;
  }
  const want = JSON.parse(a.json);
  if (!isDeepStrictEqual(got, want)) {
    const p = [...new Set(paths(got, want))];

    differ(`${type} decode (${how === 'valid' ? 'valid' : 'mutated'}): ${p.slice(0, 3).join(' ')}`, bytes.length, {
      hex: bytes.toString('hex'),
      go: want,
      kevents: got,
    });
  } else if (JSON.stringify(Object.keys(got)) !== JSON.stringify(Object.keys(want))) {
    differ(`${type} decode: top-level key order`, bytes.length, { go: Object.keys(want), kevents: Object.keys(got) });
  }
});

// 3. watch events
const watchCases = [];
for (const gv of watchGroupVersions)
  for (const [, bytes] of goBytes.slice(0, 40))
    watchCases.push({
      type: r.pick(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR', '']),
      object: bytes,
      groupVersion: gv,
    });
const watchAnswers = ask(watchCases.map((w) => ({ watch: { ...w, object: w.object.toString('base64') } })));
watchCases.forEach((w, i) => {
  compared++;
  const a = watchAnswers[i];
  const got = encodeWatchEvent(w.type, w.object, w.groupVersion);
  if (a.err) differ(`watch: the oracle failed (${a.err})`, 0, w.groupVersion);
  else if (!isDeepStrictEqual(decodeWatchEvent(got), { type: w.type, object: new Uint8Array(w.object) }))
    differ(`watch ${w.groupVersion}: decodeWatchEvent does not read it back`, got.length, {
      kevents: got.toString('base64'),
    });
  else if (!got.equals(Buffer.from(a.protobuf, 'base64')))
    differ(`watch ${w.groupVersion}: bytes differ`, got.length, { go: a.protobuf, kevents: got.toString('base64') });
});

console.log(
  `${compared} comparisons (${cases.length} objects, ${decodeCases.length} decodes, ${watchCases.length} watch events): ` +
    `${classes.size} classes differ (${newerFields} fields newer than the oracle left out)`,
);
for (const [cls, { count, example }] of [...classes].sort()) {
  console.log(`\n- ${cls} (${count})`);
  console.log(`  ${JSON.stringify(example).slice(0, 1500)}`);
}
process.exitCode = classes.size === 0 ? 0 : 1;
