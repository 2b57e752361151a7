import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { arrayOf, enumOf, field, int32, kindListSchema, kindSchema, mapOf, obj, str } from '@kevents/api';
import type { KubeObject, ObjectSchema } from '@kevents/api';
import { MemoryStorage } from '@kevents/storage';
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '@kevents/validation';
import { defineResource } from '../registry/resource.js';
import { schemaView } from '../registry/schema-view.js';
import { withSpecGeneration } from '../registry/generation.js';
import { leasesResource } from '../resources/leases/resource.js';
import { defaultTableConvertor } from '../table/table.js';
import { fuzzServer } from '../testing/hostile-requests.js';
import { buildApiServer } from './build-server.js';
import type { ApiServer } from './build-server.js';
import { namespaceUID } from './namespaces.js';

/** A kind of a user of the library: structural (required and enum enforced), with a spec/status split. */
interface Gadget extends KubeObject {
  spec?: { color?: string; size?: number; parts?: { name?: string; finish?: string }[] };
  status?: { phase?: string };
}

const partSchema: ObjectSchema = {
  id: 'com.example.v1.GadgetPart',
  goType: 'GadgetPart',
  description: 'A part.',
  fields: [
    field('name', str(), 'omitempty', 'name of the part.', { required: true }),
    field('finish', enumOf(['matte', 'gloss']), 'omitempty', 'finish of the part.'),
  ],
};
const specSchema: ObjectSchema = {
  id: 'com.example.v1.GadgetSpec',
  goType: 'GadgetSpec',
  description: 'What a gadget should be.',
  fields: [
    field('color', enumOf(['red', 'green', 'blue']), 'omitempty', 'color.', { required: true }),
    field('size', int32, 'omitempty', 'size.'),
    field('parts', arrayOf(obj(() => partSchema)), 'omitempty', 'parts.'),
    field('finishes', mapOf(enumOf(['matte', 'gloss'])), 'omitempty', 'finish by part.'),
  ],
};
const statusSchema: ObjectSchema = {
  id: 'com.example.v1.GadgetStatus',
  goType: 'GadgetStatus',
  description: 'What a gadget is.',
  fields: [field('phase', str(), 'omitempty', 'phase.')],
};
const gadgetSchema = kindSchema({
  id: 'com.example.v1.Gadget',
  group: 'example.com',
  version: 'v1',
  kind: 'Gadget',
  description: 'A gadget.',
  structural: true,
  fields: [
    field(
      'spec',
      obj(() => specSchema),
      'always',
      'spec.',
      { required: true },
    ),
    field(
      'status',
      obj(() => statusSchema),
      'omitempty',
      'status.',
    ),
  ],
});

const gadgets = defineResource<Gadget>({
  resource: 'gadgets',
  strategy: withSpecGeneration<Gadget>({
    namespaced: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    qualifiedKind: { group: 'example.com', kind: 'Gadget' },
    newObject: () => ({ metadata: {} }),
    validate: (g) => validateObjectMeta(g.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    validateUpdate: (g, old) => validateObjectMetaUpdate(g.metadata, old.metadata),
    fieldValue: () => '',
    table: defaultTableConvertor as never,
  }),
  views: [
    schemaView<Gadget>({
      group: 'example.com',
      version: 'v1',
      kind: 'Gadget',
      resource: 'gadgets',
      singularName: 'gadget',
      schema: gadgetSchema,
      listSchema: kindListSchema(gadgetSchema),
    }),
  ],
});

let server: ApiServer;
let url: string;
beforeAll(async () => {
  server = buildApiServer({
    storage: new MemoryStorage(),
    resources: [gadgets, leasesResource()],
    namespaceUIDSeed: 'gadgets',
    maxRequestBodyBytes: 64 * 1024,
  });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await server.watches.closeAll();
  await server.app.close();
});

const path = '/apis/example.com/v1/namespaces/ns/gadgets';
async function call(
  method: string,
  p: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ code: number; body: Record<string, unknown> }> {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': contentType },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { code: r.status, body: (await r.json()) as Record<string, unknown> };
}
const gadget = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'example.com/v1',
  kind: 'Gadget',
  metadata: { name },
  spec,
});

describe('a structural kind: required and enum enforced as kube-apiserver enforces a CRD schema', () => {
  it('answers 422 with every violation, worded and located as apiextensions-apiserver', async () => {
    const r = await call(
      'POST',
      path,
      gadget('bad', { color: 'purple', parts: [{ finish: 'shiny' }], finishes: { a: 'gloss', b: 'rough' } }),
    );
    expect(r.code).toBe(422);
    expect(r.body['reason']).toBe('Invalid');
    expect(r.body['message']).toBe(
      'Gadget.example.com "bad" is invalid: [spec.color: Unsupported value: "purple": supported values: "red", "green", "blue", ' +
        'spec.parts[0].finish: Unsupported value: "shiny": supported values: "matte", "gloss", spec.parts[0].name: Required value, ' +
        'spec.finishes.b: Unsupported value: "rough": supported values: "matte", "gloss"]',
    );
    expect(r.body['details']).toEqual({
      name: 'bad',
      group: 'example.com',
      kind: 'Gadget',
      causes: [
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "purple": supported values: "red", "green", "blue"',
          field: 'spec.color',
        },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "shiny": supported values: "matte", "gloss"',
          field: 'spec.parts[0].finish',
        },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.parts[0].name' },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "rough": supported values: "matte", "gloss"',
          field: 'spec.finishes.b',
        },
      ],
    });
  });

  it('reads a null or a missing spec as absent (Required), and type errors stay 400', async () => {
    const nullColor = await call('POST', path, gadget('n', { color: null }));
    expect([nullColor.code, nullColor.body['message']]).toEqual([
      422,
      'Gadget.example.com "n" is invalid: spec.color: Required value',
    ]);
    const noSpec = await call('POST', path, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'n' } });
    expect(noSpec.body['message']).toBe('Gadget.example.com "n" is invalid: spec: Required value');
    const typed = await call('POST', path, gadget('n', { color: 1 }));
    expect(typed.code).toBe(400);
    // Strict field validation answers unknown fields first (decoding), as for a custom resource.
    const unknown = await call('POST', `${path}?fieldValidation=Strict`, gadget('n', { colour: 'red' }));
    expect([unknown.code, unknown.body['message']]).toEqual([
      400,
      'strict decoding error: unknown field "spec.colour"',
    ]);
  });

  it('checks updates and patches the same way, and keeps the stored object', async () => {
    expect((await call('POST', path, gadget('ok', { color: 'red' }))).code).toBe(201);
    const put = await call('PUT', `${path}/ok`, gadget('ok', { color: 'pink' }));
    expect([put.code, put.body['message']]).toEqual([
      422,
      'Gadget.example.com "ok" is invalid: spec.color: Unsupported value: "pink": supported values: "red", "green", "blue"',
    ]);
    const merge = await call('PATCH', `${path}/ok`, { spec: { color: null } }, 'application/merge-patch+json');
    expect([merge.code, merge.body['message']]).toEqual([
      422,
      'Gadget.example.com "ok" is invalid: spec.color: Required value',
    ]);
    const stored = await call('GET', `${path}/ok`);
    expect((stored.body['spec'] as { color: string }).color).toBe('red');
    // What comes before validation in kube-apiserver comes first: a uid conflict, a missing object.
    const conflict = await call('PUT', `${path}/ok`, {
      ...gadget('ok', { color: 'pink' }),
      metadata: { name: 'ok', uid: '00000000-0000-4000-8000-000000000002' },
    });
    expect(conflict.code).toBe(409);
    const missing = await call('PUT', `${path}/nothing`, gadget('nothing', { color: 'pink' }));
    expect(missing.code).toBe(404);
  });
});

describe('metadata.generation of a kind with a spec/status split, over HTTP', () => {
  it('is 1 on create and goes up only when a write changes the spec', async () => {
    const created = await call('POST', path, {
      ...gadget('gen', { color: 'red' }),
      metadata: { name: 'gen', generation: 9 },
    });
    const generation = (r: { body: Record<string, unknown> }): unknown =>
      (r.body['metadata'] as { generation?: number }).generation;
    expect(generation(created)).toBe(1);
    const status = await call('PATCH', `${path}/gen`, { status: { phase: 'Ready' } }, 'application/merge-patch+json');
    expect(generation(status)).toBe(1);
    const labels = await call(
      'PATCH',
      `${path}/gen`,
      { metadata: { labels: { a: 'b' } } },
      'application/merge-patch+json',
    );
    expect(generation(labels)).toBe(1);
    const spec = await call('PATCH', `${path}/gen`, { spec: { size: 2 } }, 'application/merge-patch+json');
    expect(generation(spec)).toBe(2);
    const put = await call('PUT', `${path}/gen`, { ...spec.body, spec: { color: 'blue', size: 2 } });
    expect(generation(put)).toBe(3);
  });
});

describe('the options and defaults of buildApiServer', () => {
  it('serves Leases from the package, a default /version, the namespace uid seed and the body limit', async () => {
    const lease = await call('POST', '/apis/coordination.k8s.io/v1/namespaces/ns/leases', {
      metadata: { name: 'l' },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
    });
    expect([lease.code, lease.body['kind'], lease.body['apiVersion']]).toEqual([
      201,
      'Lease',
      'coordination.k8s.io/v1',
    ]);
    const version = await call('GET', '/version');
    expect(version.body).toMatchObject({ major: '1', minor: '34', gitVersion: 'v1.34.0', compiler: 'tsc' });
    const ns = await call('GET', '/api/v1/namespaces/ns');
    expect((ns.body['metadata'] as { uid: string }).uid).toBe(namespaceUID('ns', 'gadgets'));
    expect(namespaceUID('ns', 'gadgets')).not.toBe(namespaceUID('ns'));
    const big = await call('POST', path, gadget('big', { color: 'red', pad: 'x'.repeat(70 * 1024) }));
    expect([big.code, big.body['message']]).toEqual([413, `Request entity too large: limit is ${64 * 1024}`]);
  });
});

describe('the hostile-request fuzz on a kind of your own', () => {
  it('seeds valid objects from the given generator and finds nothing wrong', async () => {
    const seen: string[] = [];
    const report = await fuzzServer({
      baseURL: url,
      numRuns: 120,
      seed: 33,
      fieldNames: ['color', 'size', 'parts', 'finish'],
      validObject: (t, name, namespace) => {
        if (t.kind !== 'Gadget') return undefined;
        seen.push(name);
        return { apiVersion: t.groupVersion, kind: 'Gadget', metadata: { name, namespace }, spec: { color: 'green' } };
      },
    });
    expect(report.failures).toEqual([]);
    // The seeds, then the bases of mutated bodies, came from the generator.
    expect(seen.slice(0, 2)).toEqual(['fuzz-0', 'fuzz-1']);
    expect(seen.length).toBeGreaterThan(2);
    expect(report.requests).toBe(120);
  }, 60_000);
});
