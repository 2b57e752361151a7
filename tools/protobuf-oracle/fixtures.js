// Writes a sample of the oracle's answers to packages/api/src/protobuf/oracle.fixtures.json for
// the Jest tests (CI has no Go): the hand-picked objects and seeded random ones with Go's bytes,
// Go's JSON for them, and mutations of them with Go's JSON or error. The fixtures are made with
// the fields newer than the oracle left out of the messages they can hold (cases.js), so both
// sides read the same messages.
//
// Usage: node tools/protobuf-oracle/fixtures.js [--generated=8] [--mutations=3] [--seed=1]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { decodeProtobuf } from '../../packages/api/dist/index.js';
import * as schema from '../../packages/api/dist/protobuf/schema.js';
import { generator, handPicked, rng, watchGroupVersions } from './cases.js';
import { ask } from './oracle.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const generated = Number(arg('generated', '8'));
const mutations = Number(arg('mutations', '3'));
const seed = Number(arg('seed', '1'));

const cases = [...handPicked];
const gen = generator(seed);
for (let i = 0; i < generated; i++)
  for (const [type, make] of Object.entries(gen)) {
    const obj = make();
    // keep fixtures small: no 20,000-character strings
    if (JSON.stringify(obj).length < 4000) cases.push([type, obj]);
  }
const enc = ask(cases.map(([type, obj]) => ({ type, json: JSON.stringify(obj) })));
const encode = cases.map(([type, obj], i) => ({ type, json: obj, protobuf: enc[i].protobuf }));

const r = rng(seed + 1);
const decodeReq = [];
for (const { type, protobuf } of encode) {
  const bytes = Buffer.from(protobuf, 'base64');
  decodeReq.push([type, bytes]);
  for (let k = 0; k < mutations; k++) {
    const b = Buffer.from(bytes);
    const how = r.int(3);
    if (how === 0) decodeReq.push([type, b.subarray(0, r.int(b.length))]);
    else if (how === 1) {
      b[4 + r.int(b.length - 4)] ^= 1 << r.int(8);
      decodeReq.push([type, b]);
    } else {
      b[4 + r.int(b.length - 4)] = r.int(256);
      decodeReq.push([type, b]);
    }
  }
}
const dec = ask(decodeReq.map(([type, b]) => ({ type, decode: b.toString('base64') })));
// kevents reads the fields added since v0.26; a mutation that happens to make one is read
// differently by the oracle, so such cases are left out (those whose reading changes when the
// newer fields are taken out of kevents' schema).
const newer = Object.values(schema).flatMap((spec) => (spec.fields ?? []).filter((f) => f.newer).map((f) => [spec, f]));
const read = (type, b) => {
  try {
    return decodeProtobuf(b, type);
  } catch (e) {
    return e.message;
  }
};
const touchesNewer = (type, b) => {
  const full = read(type, b);
  for (const [spec, f] of newer) delete spec.byNo[f.no];
  const old = read(type, b);
  for (const [spec, f] of newer) spec.byNo[f.no] = f;
  return !isDeepStrictEqual(full, old);
};
const decode = decodeReq
  .map(([type, b], i) => ({
    type,
    protobuf: b.toString('base64'),
    ...(dec[i].err !== undefined ? { err: dec[i].err } : { json: JSON.parse(dec[i].json) }),
  }))
  .filter((d, i) => !touchesNewer(d.type, decodeReq[i][1]));

const watchReq = watchGroupVersions.flatMap((groupVersion, i) =>
  encode
    .slice(i * 3, i * 3 + 3)
    .map((e, k) => ({ type: ['ADDED', 'MODIFIED', 'DELETED'][k], object: e.protobuf, groupVersion })),
);
const wa = ask(watchReq.map((w) => ({ watch: w })));
const watch = watchReq.map((w, i) => ({ ...w, protobuf: wa[i].protobuf }));

const out = new URL('../../packages/api/src/protobuf/oracle.fixtures.json', import.meta.url);
writeFileSync(
  out,
  JSON.stringify({ oracle: 'k8s.io/api v0.26.3, k8s.io/apimachinery v0.26.3', encode, decode, watch }) + '\n',
);
spawnSync('npx', ['prettier', '--write', out.pathname], { stdio: 'inherit' });
console.log(`${encode.length} encodings, ${decode.length} decodings, ${watch.length} watch events -> ${out.pathname}`);
