import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { decodeEntry } from './codec.js';
import { RedisServer } from './testing/index.js';

let server: RedisServer;
let redis: Redis;
let stream = 0;
beforeAll(async () => {
  server = await RedisServer.start();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

/** Adds entries as the write script does (`XADD <rv>-0 t ... r ... n ... k ... b|p ... m ...`) and reads them back both ways. */
async function roundTrip(entries: readonly (readonly string[])[]): Promise<{ read: unknown[]; ranged: unknown[] }> {
  const key = `codec-${++stream}`;
  for (let i = 0; i < entries.length; i++) await redis.xadd(key, `${i + 1}-0`, ...entries[i]);
  const reply = (await redis.xreadBuffer('COUNT', 1000, 'STREAMS', key, '0-0')) as [Buffer, [Buffer, Buffer[]][]][];
  const ranged = (await redis.xrangeBuffer(key, '-', '+')) as [Buffer, Buffer[]][];
  return {
    read: reply[0][1].map(([id, fields]) => decodeEntry(id, fields)),
    ranged: ranged.map(([id, fields]) => decodeEntry(id, fields)),
  };
}

describe('decodeEntry (Stream entries as Redis sends them, buffers)', () => {
  it('decodes ADDED, MODIFIED and DELETED entries, the stored value of p as its body', async () => {
    const { read, ranged } = await roundTrip([
      ['t', 'A', 'r', 'events', 'n', 'ns-1', 'k', 'ns-1/a', 'b', '{"a":1}', 'm', '1700000000123'],
      ['t', 'M', 'r', 'events', 'n', 'ns-1', 'k', 'ns-1/a', 'b', '{"a":2}', 'p', '1\n"u"\n{"a":1}', 'm', '5'],
      ['t', 'D', 'r', 'leases', 'n', '', 'k', '/x', 'p', '2\n"u"\n{"a":2}', 'm', '6'],
    ]);
    const expected = [
      {
        rv: 1,
        type: 'ADDED',
        resource: 'events',
        namespace: 'ns-1',
        key: 'ns-1/a',
        body: '{"a":1}',
        prev: undefined,
      },
      {
        rv: 2,
        type: 'MODIFIED',
        resource: 'events',
        namespace: 'ns-1',
        key: 'ns-1/a',
        body: '{"a":2}',
        prev: '{"a":1}',
      },
      {
        rv: 3,
        type: 'DELETED',
        resource: 'leases',
        namespace: '',
        key: '/x',
        body: '{"a":2}',
        prev: undefined,
      },
    ];
    expect(read).toEqual(expected);
    expect(ranged).toEqual(expected);
  });

  it('skips fields it does not know (longer names, other letters)', async () => {
    const { read } = await roundTrip([
      ['x', '1', 't', 'A', 'rr', 'no', 'r', 'events', 'n', 'ns', 'k', 'ns/a', 'b', '{}', 'm', '7', 'z', ''],
    ]);
    expect(read).toEqual([
      { rv: 1, type: 'ADDED', resource: 'events', namespace: 'ns', key: 'ns/a', body: '{}', prev: undefined },
    ]);
  });

  it('gives back every body, namespace and key as written, whatever its characters (property)', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, text, text), { minLength: 1, maxLength: 5 }), async (rows) => {
        const { read, ranged } = await roundTrip(
          rows.map(([ns, key, body]) => ['t', 'A', 'r', 'events', 'n', ns, 'k', key, 'b', body, 'm', '1']),
        );
        const expected = rows.map(([ns, key, body], i) => ({
          rv: i + 1,
          type: 'ADDED',
          resource: 'events',
          namespace: ns,
          key,
          body,
          prev: undefined,
        }));
        expect(read).toEqual(expected);
        expect(ranged).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
