import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

let srv: TestServer;
let storage: MemoryStorage;
const path = (group: 'core' | 'events') =>
  group === 'core' ? `${srv.url}/api/v1/namespaces/ro/events` : `${srv.url}/apis/events.k8s.io/v1/namespaces/ro/events`;

beforeAll(async () => {
  storage = new MemoryStorage();
  srv = await startTestServer({ storage });
  for (const name of ['a', 'b', 'c']) {
    const r = await request(`${path('events')}`, { method: 'POST', body: sampleEvent(name, 'ro') });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => srv.close());

const answers = [
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/yaml',
  'application/json;as=Table;v=v1;g=meta.k8s.io;pretty=1',
];

describe('gets answered from objects decoded to be read only', () => {
  it.each(['core', 'events'] as const)(
    'decode the stored object from its revision (shared values frozen), not as a fresh copy: %s',
    async (group) => {
      const get = jest.spyOn(storage, 'get');
      try {
        for (const accept of answers) {
          const one = await fetch(`${path(group)}/a`, { headers: { accept } });
          expect([accept, one.status]).toEqual([accept, 200]);
          await one.arrayBuffer();
        }
        expect(get).not.toHaveBeenCalled();
      } finally {
        get.mockRestore();
      }
    },
  );

  it('answers as the fresh copies did: a Table and a PartialObjectMetadata', async () => {
    const table = await request(`${path('core')}/a`, { headers: { accept: answers[0]! } });
    expect(table.body.rows.map((r: { cells: unknown[] }) => r.cells[9])).toEqual(['a']);
    expect(table.body.rows[0].object.metadata.managedFields[0].manager).toBeDefined();
    const pom = await request(`${path('events')}/b`, { headers: { accept: answers[1]! } });
    const plain = await request(`${path('events')}/b`);
    expect(pom.body.metadata).toEqual(plain.body.metadata);
  });
});

const listAnswers = [
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/yaml',
];

describe('lists answered from objects decoded to be read only, a slice at a time', () => {
  it.each(['core', 'events'] as const)(
    'decode the page from its revisions, not as fresh copies; a list with a selector through the store: %s',
    async (group) => {
      const list = jest.spyOn(storage, 'list');
      try {
        for (const accept of listAnswers) {
          const all = await fetch(path(group), { headers: { accept } });
          expect([accept, all.status]).toEqual([accept, 200]);
          await all.arrayBuffer();
        }
        expect(list).not.toHaveBeenCalled();
        const selected = await request(`${path(group)}?fieldSelector=metadata.name%3Db`, {
          headers: { accept: listAnswers[0]! },
        });
        expect(selected.body.rows).toHaveLength(1);
        expect(list).toHaveBeenCalled();
      } finally {
        list.mockRestore();
      }
    },
  );

  it('answers as the fresh copies did: a Table row and a PartialObjectMetadata per item', async () => {
    const table = await request(path('core'), { headers: { accept: listAnswers[0]! } });
    expect(table.body.rows.map((r: { cells: unknown[] }) => r.cells[9])).toEqual(['a', 'b', 'c']);
    const poml = await request(path('events'), { headers: { accept: listAnswers[1]! } });
    const plain = await request(path('events'));
    expect(poml.body.items.map((i: { metadata: unknown }) => i.metadata)).toEqual(
      plain.body.items.map((i: { metadata: unknown }) => i.metadata),
    );
  });
});

describe('PartialObjectMetadata answers', () => {
  /** Counts which decoder the answers use for the revisions the store reads. */
  const spyDecodes = () => {
    const used: string[] = [];
    const wrap = <R extends object>(rev: R): R =>
      new Proxy(rev, {
        get(target, prop) {
          const v = Reflect.get(target, prop, target) as unknown;
          if (typeof v !== 'function') return v;
          return (...args: unknown[]) => {
            used.push(String(prop));
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    const getRevision = storage.getRevision.bind(storage);
    const listRevisions = storage.listRevisions.bind(storage);
    const one = jest.spyOn(storage, 'getRevision').mockImplementation(async (...a) => wrap(await getRevision(...a)));
    const many = jest.spyOn(storage, 'listRevisions').mockImplementation(async (...a) => {
      const page = await listRevisions(...a);
      return { ...page, items: page.items.map(wrap) };
    });
    return { used, restore: () => (one.mockRestore(), many.mockRestore()) };
  };

  it.each([
    ['a get', '/a', 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io'],
    ['a get in protobuf', '/a', 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;v=v1;g=meta.k8s.io'],
    ['a list', '', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'],
    ['a list in protobuf', '', 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'],
  ])('decode only the stored metadata: %s', async (_name, suffix, accept) => {
    const { used, restore } = spyDecodes();
    try {
      const r = await fetch(`${path('events')}${suffix}`, { headers: { accept } });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
      expect(used.length).toBeGreaterThan(0);
      expect(new Set(used)).toEqual(new Set(['decodeMetadata']));
    } finally {
      restore();
    }
  });
});
