import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, sampleEvent, sampleEventYaml, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

// Issue 11, each item reproduced over HTTP on the composed server.
let srv: TestServer;
const ev = (): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/r/events`;
const merge = { 'content-type': 'application/merge-patch+json' };
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv.close());

const nested = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const withFieldsV1 = (name: string, depth: number): string =>
  JSON.stringify(sampleEvent(name, 'r')).replace(
    '"metadata":{',
    `"metadata":{"managedFields":[{"manager":"m","operation":"Update","fieldsType":"FieldsV1","fieldsV1":${nested(depth)}}],`,
  );

/** Raw HTTP/1.1 exchange (fetch refuses some of what a hostile client sends). */
function raw(text: string): Promise<string> {
  const { port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    import('node:net').then(({ connect }) => {
      const s = connect(Number(port), '127.0.0.1', () => s.end(text));
      let out = '';
      s.on('data', (d) => (out += d.toString('latin1')));
      s.on('close', () => resolve(out));
      s.on('error', reject);
    }, reject);
  });
}

describe('issue 11 regressions', () => {
  it('1, 5: a body nested past the limit is a 400 at decode; one at the limit is served back everywhere', async () => {
    const deep = await request(ev(), { method: 'POST', body: withFieldsV1('deep', 2000) });
    expect([deep.status, deep.body.reason]).toEqual([400, 'BadRequest']);
    expect(deep.body.message).toBe(
      `the object provided is unrecognized (must be of type Event): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth ({"apiVersion":"events.k8s.io/v ...)`,
    );
    await request(ev(), { method: 'POST', body: sampleEvent('target', 'r') });
    const huge = await request(`${ev()}/target`, { method: 'PATCH', body: nested(10_000), headers: merge });
    expect(huge.status).toBe(400);
    const ok = await request(ev(), { method: 'POST', body: withFieldsV1('limit', 990) });
    expect(ok.status).toBe(201);
    const got = await request(`${ev()}/limit`);
    expect(got.status).toBe(200);
    const put = await request(`${ev()}/limit`, { method: 'PUT', body: got.text });
    expect(put.status).toBe(200);
    const watch = await fetch(`${ev()}?watch=true&timeoutSeconds=1`);
    const text = await watch.text();
    expect(text).toContain('"type":"ADDED"');
    expect(text).not.toContain('"ERROR"');
  });

  it('2: a non-ASCII unknown field is a warning sent as UTF-8, never a 500 after the write', async () => {
    const r = await request(ev(), { method: 'POST', body: { ...sampleEvent('utf8', 'r'), é中: 1 } });
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBe('299 - "unknown field \\"\\\\u00e9\\\\u4e2d\\""');
  });

  it('3: thousands of unknown fields give a bounded set of Warning headers', async () => {
    const body = { ...sampleEvent('wide', 'r') } as Record<string, unknown>;
    for (let i = 0; i < 5000; i++) body[`unknown${i}`] = i;
    const r = await request(ev(), { method: 'POST', body });
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')!.length).toBeLessThan(8 * 1024);
  });

  it('4: a 253-character name is addressable by every verb', async () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(name).toHaveLength(253);
    expect((await request(ev(), { method: 'POST', body: sampleEvent(name, 'r') })).status).toBe(201);
    const got = await request(`${ev()}/${name}`);
    expect(got.status).toBe(200);
    expect((await request(`${ev()}/${name}`, { method: 'PUT', body: got.text })).status).toBe(200);
    expect(
      (await request(`${ev()}/${name}`, { method: 'PATCH', body: '{"metadata":{"labels":{"a":"b"}}}', headers: merge }))
        .status,
    ).toBe(200);
    expect((await request(`${ev()}/${name}`, { method: 'DELETE' })).status).toBe(200);
    const long = await request(`${ev()}/${'x'.repeat(2000)}`);
    expect([long.status, long.body.kind]).toEqual([404, 'Status']);
  });

  it('6: __proto__ in a body or a patch is plain data', async () => {
    const kind = await request(ev(), { method: 'POST', body: '{"kind":{"toString":1}}' });
    expect([kind.status, kind.body.message]).toEqual([
      400,
      'the object provided is unrecognized (must be of type Event): couldn\'t get version/kind; json parse error: json: cannot unmarshal object into Go struct field .kind of type string ({"kind":{"toString":1}})',
    ]);
    await request(ev(), { method: 'POST', body: sampleEvent('proto', 'r') });
    const p = await request(`${ev()}/proto`, {
      method: 'PATCH',
      body: '{"kind":null,"__proto__":{"kind":"Pod"}}',
      headers: merge,
    });
    expect([p.status, p.body.kind]).toEqual([200, 'Event']);
    const label = await request(`${ev()}/proto`, {
      method: 'PATCH',
      body: '{"metadata":{"labels":{"__proto__":"x"}}}',
      headers: merge,
    });
    expect([label.status, label.body.details.causes[0].field]).toEqual([422, 'metadata.labels']);
    expect(label.body.message).toContain('Invalid value: "__proto__"');
    const smp = await request(`${ev()}/proto`, {
      method: 'PATCH',
      body: '{"kind":{"__proto__":{"toString":"x"}}}',
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    // As kube's smpPatcher: the patch, printed as Go's %+v, is the invalid value.
    expect([smp.status, smp.body.kind]).toEqual([422, 'Status']);
    expect(smp.body.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "map\[kind:map\[__proto__:map\[toString:x\]\]\]": /,
    );
  });

  it('7: a bad resourceVersion on get is a 400 worded as the etcd3 store words it', async () => {
    await request(ev(), { method: 'POST', body: sampleEvent('rv', 'r') });
    for (const rv of ['abc', '-1', '1.5', '0x10', '9007199254740993', '99999999999999999999999']) {
      for (const url of [`${ev()}/rv`, ev(), `${ev()}?watch=true`]) {
        const r = await request(`${url}${url.includes('?') ? '&' : '?'}resourceVersion=${rv}`);
        expect([rv, r.status, r.body.message]).toEqual([
          rv,
          400,
          expect.stringMatching(/^invalid resource version: resourceVersion: Invalid value: /),
        ]);
      }
    }
  });

  it('8: parser-level refusals are a Status too (431, unknown method, bad escape)', async () => {
    const big = await raw(`GET /api?x=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1.1 431 /);
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'Status', code: 431 });
    const foo = await raw('FOO /api HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(JSON.parse(foo.slice(foo.indexOf('\r\n\r\n') + 4))).toMatchObject({
      kind: 'Status',
      code: 400,
      reason: 'BadRequest',
    });
    const esc = await request(`${ev()}/%zz`);
    expect([esc.status, esc.body.message]).toEqual([400, 'invalid URL escape "%zz"']);
  });

  it('9: a no-op patch or update does not write, in either view', async () => {
    const created = await request(ev(), {
      method: 'POST',
      body: sampleEvent('noop', 'r', { metadata: { name: 'noop', namespace: 'r', labels: {}, annotations: {} } }),
    });
    const rv = created.body.metadata.resourceVersion;
    for (const url of [`${ev()}/noop`, `${srv.url}/api/v1/namespaces/r/events/noop`]) {
      expect((await request(url, { method: 'PATCH', body: '{}', headers: merge })).body.metadata.resourceVersion).toBe(
        rv,
      );
      const read = await request(url);
      expect((await request(url, { method: 'PUT', body: read.text })).body.metadata.resourceVersion).toBe(rv);
    }
  });

  it('13: MicroTime needs six fractional digits, as Go’s RFC3339Micro layout does', async () => {
    const r = await request(ev(), {
      method: 'POST',
      body: { ...sampleEvent('mt', 'r'), eventTime: '2026-11-22T01:00:00Z' },
    });
    expect([r.status, r.body.message]).toEqual([
      400,
      'Event in version "v1" cannot be handled as a Event: parsing time "2026-11-22T01:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    ]);
  });
});

describe('JSON patch limits (a PATCH took the server down)', () => {
  const jsonPatch = { 'content-type': 'application/json-patch+json' };
  const live = async (): Promise<void> => {
    const r = await request(`${srv.url}/livez`);
    expect([r.status, r.text]).toEqual([200, 'ok']);
  };
  const timed = async <T>(fn: () => Promise<T>): Promise<{ out: T; ms: number }> => {
    const t = performance.now();
    const out = await fn();
    return { out, ms: performance.now() - t };
  };

  it('moving the document into its own child is a 422; the server stays up and the event unchanged', async () => {
    const created = await request(ev(), { method: 'POST', body: sampleEvent('jp-move', 'r') });
    expect(created.status).toBe(201);
    const { out: r, ms } = await timed(() =>
      request(`${ev()}/jp-move`, {
        method: 'PATCH',
        body: '[{"op":"move","path":"/metadata/annotations","from":""}]',
        headers: jsonPatch,
      }),
    );
    expect([r.status, r.body.kind, r.body.reason, r.body.message]).toEqual([
      422,
      'Status',
      'Invalid',
      'the server rejected our request due to an error in our request: move operation does not apply: doc is missing from path: : missing value',
    ]);
    expect(ms).toBeLessThan(2000);
    const child = await request(`${ev()}/jp-move`, {
      method: 'PATCH',
      body: '[{"op":"move","from":"/metadata","path":"/metadata/labels/x"}]',
      headers: jsonPatch,
    });
    expect([child.status, child.body.reason]).toEqual([422, 'Invalid']);
    await live();
    expect((await request(`${ev()}/jp-move`)).body).toEqual(created.body);
  });

  it('forty copies of /metadata into itself stop at the copy limit (422); the server stays up', async () => {
    await request(ev(), { method: 'POST', body: sampleEvent('jp-copy', 'r') });
    const ops = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/c${i}` }));
    const { out: r, ms } = await timed(() =>
      request(`${ev()}/jp-copy`, { method: 'PATCH', body: ops, headers: jsonPatch }),
    );
    expect([r.status, r.body.reason]).toEqual([422, 'Invalid']);
    expect(r.body.message).toMatch(
      /^the server rejected our request due to an error in our request: Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
    );
    expect(ms).toBeLessThan(5000);
    await live();
  });

  it('more than 10,000 operations is a 413 with kube-apiserver’s text', async () => {
    await request(ev(), { method: 'POST', body: sampleEvent('jp-many', 'r') });
    const ops = Array(10_001).fill({ op: 'test', path: '/metadata/name', value: 'jp-many' });
    const r = await request(`${ev()}/jp-many`, { method: 'PATCH', body: ops, headers: jsonPatch });
    expect([r.status, r.body.reason, r.body.message]).toEqual([
      413,
      'RequestEntityTooLarge',
      'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    ]);
    const ok = await request(`${ev()}/jp-many`, { method: 'PATCH', body: ops.slice(1), headers: jsonPatch });
    expect(ok.status).toBe(200);
    await live();
  });

  it('YAML aliases as goyaml bounds them: 120 of one scalar are served, a billion laughs is a 400, nesting is bounded before parsing', async () => {
    const aliased = (name: string): string =>
      sampleEventYaml(name, 'r', [
        '  annotations:',
        '    a0: &v hello',
        ...Array.from({ length: 120 }, (_, i) => `    a${i + 1}: *v`),
      ]);
    const post = await request(ev(), {
      method: 'POST',
      body: aliased('yaml-aliases'),
      headers: { 'content-type': 'application/yaml' },
    });
    expect(post.status).toBe(201);
    expect(post.body.metadata.annotations.a120).toBe('hello');
    const apply = await request(`${ev()}/yaml-applied?fieldManager=m`, {
      method: 'PATCH',
      body: aliased('yaml-applied'),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(apply.status).toBe(201);
    const laughs = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) {
      const name = String.fromCharCode(97 + i);
      laughs.push(
        `${name}: &${name} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(', ')}]`,
      );
    }
    const bomb = await request(`${ev()}/bomb?fieldManager=m`, {
      method: 'PATCH',
      body: laughs.join('\n'),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect([bomb.status, bomb.body.message]).toEqual([
      400,
      'error decoding YAML: error converting YAML to JSON: yaml: document contains excessive aliasing',
    ]);
    // 3 MB of brackets: refused before the parser runs (it took the event loop ~8 s before).
    const deep = `metadata: {annotations: {a: ${'['.repeat(1_500_000)}${']'.repeat(1_500_000)}}}`;
    const started = Date.now();
    const nestedApply = await request(`${ev()}/deep?fieldManager=m`, {
      method: 'PATCH',
      body: deep,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect([nestedApply.status, nestedApply.body.message]).toEqual([
      400,
      "error decoding YAML: invalid character '[' exceeded max depth",
    ]);
    const nestedPost = await request(ev(), {
      method: 'POST',
      body: deep,
      headers: { 'content-type': 'application/yaml' },
    });
    expect([nestedPost.status, nestedPost.body.message]).toEqual([
      400,
      "the object provided is unrecognized (must be of type Event): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (6d657461646174613a207b616e6e6f746174696f6e733a207b613a205b5b ...)",
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    await live();
  });

  it('an applied `__proto__` key stays a key: an apply is validated as a create of the same object is (422)', async () => {
    const config = JSON.stringify(
      sampleEvent('proto-apply', 'r', { metadata: { name: 'proto-apply', labels: { ok: '1' } } }),
    ).replace('"labels":{', '"labels":{"__proto__":"x",');
    const apply = await request(`${ev()}/proto-apply?fieldManager=m`, {
      method: 'PATCH',
      body: config,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    const create = await request(ev(), { method: 'POST', body: config });
    for (const r of [apply, create]) {
      expect([r.status, r.body.reason]).toEqual([422, 'Invalid']);
      expect(r.body.message).toContain('metadata.labels: Invalid value: "__proto__"');
    }
    expect((await request(`${ev()}/proto-apply`)).status).toBe(404);
  });

  it('a YAML body that contains itself (an alias to its own anchor) is a 400, not a hang', async () => {
    const yaml = [
      'apiVersion: events.k8s.io/v1',
      'kind: Event',
      'metadata:',
      '  name: yaml-cycle',
      '  namespace: r',
      '  labels: &x',
      '    a: *x',
    ].join('\n');
    const r = await request(ev(), { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' } });
    // goyaml's words (sigs.k8s.io/yaml decodes with it), in kube's create handler's frame.
    expect([r.status, r.body.message]).toEqual([
      400,
      "the object provided is unrecognized (must be of type Event): yaml: anchor 'x' value contains itself (61706956657273696f6e3a206576656e74732e6b38732e696f2f76310a6b ...)",
    ]);
    await live();
  });

  it('a large YAML body is read off the event loop: other requests are answered meanwhile', async () => {
    const dense = `a: {${',\n'.repeat(500_000)}}`;
    const post = request(ev(), { method: 'POST', body: dense, headers: { 'content-type': 'application/yaml' } }).then(
      (r) => ({ r, at: Date.now() }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const get = await request(`${srv.url}/healthz`);
    const gotAt = Date.now();
    const { r, at } = await post;
    expect(get.status).toBe(200);
    expect(gotAt).toBeLessThan(at);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /^the object provided is unrecognized \(must be of type Event\): yaml: line 1: Unexpected , in flow map \(/,
    );
  });

  it('a small YAML body whose aliases expand past the body limit is a 400 (127 KB decoded to 200 MB and ran the server out of heap)', async () => {
    const labels = Array.from({ length: 2000 }, (_, i) => `    k${i}: *s\n`).join('');
    const body = `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: boom\n  labels:\n    k: &s ${'x'.repeat(100_000)}\n${labels}`;
    for (const [method, url, type] of [
      ['POST', `${srv.url}/apis/coordination.k8s.io/v1/namespaces/r/leases`, 'application/yaml'],
      [
        'PATCH',
        `${srv.url}/apis/coordination.k8s.io/v1/namespaces/r/leases/boom?fieldManager=m`,
        'application/apply-patch+yaml',
      ],
    ] as const) {
      const r = await request(url, { method, body, headers: { 'content-type': type } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('yaml: document contains excessive aliasing');
    }
    await live();
  });

  it('YAML keys cost linear time: 600 nested `? ` keys (19 s before) are a 400, 100,000 labels are read and refused for their number', async () => {
    const yaml = { 'content-type': 'application/yaml' };
    const keys = await request(ev(), { method: 'POST', body: `${'? '.repeat(600)}x\n`, headers: yaml });
    expect([keys.status, keys.body.message]).toEqual([
      400,
      'the object provided is unrecognized (must be of type Event): yaml: invalid map key: map[interface {}]interface {}{"x":interface {}(nil)} (3f203f203f203f203f203f203f203f203f203f203f203f203f203f203f20 ...)',
    ]);
    const applied = await request(`${ev()}/yaml-keys?fieldManager=m`, {
      method: 'PATCH',
      body: `metadata:\n  labels:\n    ${'? '.repeat(600)}x\n`,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(applied.status).toBe(400);
    // The yaml package's own repeated-key check cost 16 s for 60,000 keys. 100,000 labels are read
    // (in linear time) and refused for their number; 4,000 are one create.
    const body = (n: number): string =>
      `apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: many-labels\n  namespace: r\n  labels:\n${Array.from({ length: n }, (_, i) => `    k${i}: v`).join('\n')}\n    k1: w\neventTime: "2024-01-01T00:00:00.000000Z"\nreportingController: x/y\nreportingInstance: i\naction: A\nreason: R\ntype: Normal\nregarding: {kind: Pod, name: p, namespace: r}\n`;
    const started = Date.now();
    const many = await request(ev(), { method: 'POST', body: body(100_000), headers: yaml });
    expect([many.status, many.body.reason]).toEqual([413, 'RequestEntityTooLarge']);
    expect(Date.now() - started).toBeLessThan(60_000);
    const strict = await request(`${ev()}?fieldValidation=Strict`, {
      method: 'POST',
      body: body(4_000),
      headers: yaml,
    });
    expect([strict.status, strict.body.message]).toEqual([
      400,
      `strict decoding error: yaml: unmarshal errors:\n  line 4007: key "k1" already set in map`,
    ]);
    const created = await request(ev(), { method: 'POST', body: body(4_000), headers: yaml });
    expect(created.status).toBe(201);
    const labelsOut = (created.body.metadata as { labels: Record<string, string> }).labels;
    expect([Object.keys(labelsOut).length, labelsOut['k1']]).toEqual([4_000, 'w']);
    await live();
  });
});
