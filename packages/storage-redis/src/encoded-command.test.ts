import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Command, Redis } from 'ioredis';
import { EncodedCommand, encodeCommand } from './encoded-command.js';
import { RedisServer } from './testing/index.js';

/** The bytes ioredis' own Command sends for these arguments (a string command is written as UTF-8). */
function ioredisBytes(name: string, args: readonly (string | Buffer)[]): Buffer {
  const written = new Command(name, [...args]).toWritable({});
  return typeof written === 'string' ? Buffer.from(written, 'utf8') : written;
}

/** Strings of every kind: ASCII, Latin-1, the BMP, astral characters, lone surrogates. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 400 }),
);

/** Command names as Redis spells them (ioredis looks a name up in a plain object: not `toString`). */
const commandName = fc.stringMatching(/^[a-z]{1,12}$/).filter((s) => !(s in Object.prototype));

describe('encodeCommand', () => {
  it('writes the bytes ioredis writes for any string arguments', () => {
    fc.assert(
      fc.property(commandName, fc.array(anyString, { maxLength: 20 }), (name, args) => {
        expect(encodeCommand(name, args).equals(ioredisBytes(name, args))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes byte counts across a change of width, long strings and buffers as ioredis does', () => {
    const cases: string[] = [
      'é'.repeat(4),
      'é'.repeat(5), // 10 bytes: the count is longer than the string's length
      '€'.repeat(40),
      'x'.repeat(9),
      'x'.repeat(10),
      '€'.repeat(334), // 1,002 bytes
      '\ud800'.repeat(50),
      'a'.repeat(100_000),
      '😀'.repeat(30_000),
      '',
    ];
    for (const s of cases) expect(encodeCommand('set', ['k', s]).equals(ioredisBytes('set', ['k', s]))).toBe(true);
    const bytes = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a]);
    expect(encodeCommand('set', ['k', bytes]).equals(ioredisBytes('set', ['k', bytes]))).toBe(true);
  });

  it('keeps no bytes of one command in the buffer it returns for another', () => {
    const first = encodeCommand('set', ['k', 'a'.repeat(1000)]);
    const copy = Buffer.from(first);
    encodeCommand('set', ['k', 'b'.repeat(1000)]);
    expect(first.equals(copy)).toBe(true);
  });
});

describe('EncodedCommand against a real Redis', () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it('sends keys and arguments that a script reads back as they were', async () => {
    const wellFormed = anyString.map((s) => Buffer.from(s).toString()); // lone surrogates as U+FFFD
    await fc.assert(
      fc.asyncProperty(
        fc.array(wellFormed, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 99 }),
        async (args, n) => {
          const command = new EncodedCommand('eval', ['return {KEYS[1], unpack(ARGV)}', 1, `k${n}`, ...args], {
            replyEncoding: 'utf8',
          });
          expect(await redis.sendCommand(command)).toEqual([`k${n}`, ...args]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is answered in order among ioredis commands on one connection', async () => {
    const replies = await Promise.all([
      redis.set('a', 'x€'),
      redis.sendCommand(new EncodedCommand('get', ['a'], { replyEncoding: 'utf8' })),
      redis.sendCommand(new EncodedCommand('set', ['b', '😀'.repeat(2000)], { replyEncoding: 'utf8' })),
      redis.strlen('b'),
    ]);
    expect(replies).toEqual(['OK', 'x€', 'OK', 8000]);
  });
});
