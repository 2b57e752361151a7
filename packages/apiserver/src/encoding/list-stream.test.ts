import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { goEscapeJSON } from '@kevents/api';
import { chunkStream, jsonListChunks, listStreamChunkChars, utf8Bytes } from './list-stream.js';
import type { JSONListShape } from './list-stream.js';

const shapeOf = (envelope: Record<string, unknown>, arrayKey: string, elements: readonly unknown[]): JSONListShape => ({
  envelope: { ...envelope, [arrayKey]: [] },
  arrayKey,
  length: elements.length,
  items: (from, to) => elements.slice(from, to).map((e) => JSON.stringify(e)),
  values: (from, to) => elements.slice(from, to),
});

const json = fc.jsonValue({ maxDepth: 4 }).filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v));

describe('jsonListChunks', () => {
  it("joins to exactly JSON.stringify of the whole object with Go's escapes: compact plus a newline, or indented without one (json.MarshalIndent)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((k) => k !== 'items'),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        fc.array(json, { maxLength: 200 }),
        fc.boolean(),
        (envelope, elements, pretty) => {
          const whole = { ...envelope, items: elements };
          const expected = goEscapeJSON(pretty ? JSON.stringify(whole, null, 2) : `${JSON.stringify(whole)}\n`);
          expect([...jsonListChunks(shapeOf(envelope, 'items', elements), pretty)].join('')).toBe(expected);
          // Items already escaped are written as they are.
          const escaped = { ...shapeOf(envelope, 'items', elements), escaped: true };
          const items = escaped.items;
          escaped.items = (from, to) => items(from, to).map(goEscapeJSON);
          expect([...jsonListChunks(escaped, pretty)].join('')).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts a large list into pieces of about the chunk size', () => {
    const elements = Array.from({ length: 5000 }, (_, i) => ({ metadata: { name: `e-${i}` }, note: 'x'.repeat(100) }));
    const chunks = [...jsonListChunks(shapeOf({ kind: 'EventList' }, 'items', elements), false)];
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeLessThan(listStreamChunkChars * 2);
    expect(chunks.join('')).toBe(`${JSON.stringify({ kind: 'EventList', items: elements })}\n`);
  });

  it('ends each piece within one item of the chunk size, however large the items', () => {
    for (const size of [10, 2_000, 9_000, 70_000]) {
      const elements = Array.from({ length: 300 }, (_, i) => ({
        metadata: { name: `e-${i}` },
        note: 'x'.repeat(size),
      }));
      const item = JSON.stringify(elements[0]).length + 1;
      const chunks = [...jsonListChunks(shapeOf({ kind: 'EventList' }, 'items', elements), false)];
      for (const c of chunks.slice(0, -1)) {
        expect(c.length).toBeGreaterThanOrEqual(listStreamChunkChars - 1);
        expect(c.length).toBeLessThan(listStreamChunkChars + item + 64);
      }
      expect(chunks.join('')).toBe(`${JSON.stringify({ kind: 'EventList', items: elements })}\n`);
    }
  });

  it('indents one element at a time: a piece ends within one element of the chunk size', () => {
    const elements = Array.from({ length: 100 }, (_, i) => ({
      metadata: { name: `e-${i}` },
      note: 'x'.repeat(100_000),
    }));
    let taken = 0;
    const shape: JSONListShape = {
      ...shapeOf({ kind: 'EventList' }, 'items', elements),
      values: (from, to) => {
        taken += to - from;
        return elements.slice(from, to);
      },
    };
    const chunks = jsonListChunks(shape, true);
    // 64 elements (of up to 3 MiB each) were indented before the first piece
    expect(chunks.next().value!.length).toBeLessThan(listStreamChunkChars + 100_200);
    expect(taken).toBe(1);
    expect(['', ...chunks].length).toBe(101);
  });

  it('refuses an envelope whose array is not its last member', () => {
    const shape = { ...shapeOf({}, 'items', [{}]), envelope: { items: [], kind: 'X' } };
    expect(() => [...jsonListChunks(shape, false)]).toThrow(/last member/);
    // Another empty array last: the text ends as if the list's were.
    const another = { ...shapeOf({}, 'items', [{}]), envelope: { items: [], more: [] } };
    expect(() => [...jsonListChunks(another, false)]).toThrow(/last member/);
  });
});

describe('chunkStream', () => {
  it('produces each chunk in its own turn, so other work runs before the stream ends', async () => {
    const log: string[] = [];
    function* chunks(): Generator<string, void, undefined> {
      for (let i = 0; i < 5; i++) {
        log.push(`chunk ${i}`);
        yield `${i}`;
      }
    }
    const stream = chunkStream(chunks());
    setImmediate(() => log.push('other'));
    let text = '';
    for await (const c of stream) text += String(c);
    expect(text).toBe('01234');
    const other = log.indexOf('other');
    expect(other).toBeGreaterThan(-1);
    expect(other).toBeLessThan(log.indexOf('chunk 4'));
  });

  it('stops the generator when destroyed (the client went away)', async () => {
    let finished = false;
    let made = 0;
    function* chunks(): Generator<string, void, undefined> {
      try {
        for (;;) {
          made++;
          yield 'x'.repeat(1024);
        }
      } finally {
        finished = true;
      }
    }
    const stream = chunkStream(chunks());
    await new Promise<void>((resolve) => stream.once('readable', () => resolve()));
    stream.destroy();
    await new Promise((r) => stream.once('close', r));
    expect(finished).toBe(true);
    const after = made;
    await new Promise((r) => setImmediate(r));
    expect(made).toBe(after);
  });

  it('passes a failure of the encoder to the stream', async () => {
    // eslint-disable-next-line require-yield
    function* chunks(): Generator<string, void, undefined> {
      throw new Error('boom');
    }
    const stream = chunkStream(chunks());
    await expect(
      (async () => {
        for await (const c of stream) void c;
      })(),
    ).rejects.toThrow('boom');
  });
});

describe('utf8Bytes', () => {
  it("is Buffer.from(text, 'utf8') for any text, wide characters, lone surrogates and all", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 300 }),
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00'), maxLength: 300 }),
        ),
        (text) => {
          expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
