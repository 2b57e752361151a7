import { afterEach, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { emptyFilters, type WireEvent } from './model.js';
import { watchEvents } from './watch.js';

const ev = (name: string, rv: string): WireEvent => ({ metadata: { name, uid: name, resourceVersion: rv } });
const stream = (lines: unknown[]): Response =>
  new Response(lines.map((l) => JSON.stringify(l) + '\n').join(''), { status: 200 });
const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status });

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Runs watchEvents over scripted responses; stops when the script is used up. */
async function run(script: ((url: string) => Response)[], filters = emptyFilters, token = '') {
  const urls: string[] = [];
  const headers: Record<string, string>[] = [];
  const log: string[] = [];
  const ac = new AbortController();
  globalThis.fetch = jest.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    urls.push(url);
    headers.push((init?.headers ?? {}) as Record<string, string>);
    const next = script.shift();
    if (!next) {
      ac.abort();
      throw new DOMException('aborted', 'AbortError');
    }
    return next(url);
  }) as typeof fetch;
  await watchEvents({
    filters,
    token,
    base: 'http://h/prefix/ui/',
    signal: ac.signal,
    sink: {
      reset: (items) => log.push(`reset ${items.map((i) => i.metadata.name).join(',')}`),
      upsert: (e) => log.push(`upsert ${e.metadata.name}`),
      remove: (e) => log.push(`remove ${e.metadata.name}`),
      status: (text, error) => log.push(`${error ? 'error' : 'status'} ${text}`),
    },
  });
  return { urls, headers, log };
}

describe('watchEvents', () => {
  it('lists in pages, watches from the list resourceVersion, resumes, and relists after 410', async () => {
    const { urls, log, headers } = await run(
      [
        () => json({ items: [ev('a', '5')], metadata: { resourceVersion: '10', continue: 'c1' } }),
        () => json({ items: [ev('b', '6')], metadata: { resourceVersion: '10' } }),
        () =>
          stream([
            { type: 'ADDED', object: ev('c', '11') },
            { type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } },
            { type: 'DELETED', object: ev('a', '16') },
          ]),
        // The watch ended: resumed from 16; then the server has compacted past it.
        () => stream([{ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } }]),
        () => json({ items: [ev('d', '30')], metadata: { resourceVersion: '30' } }),
        () => json({ kind: 'Status', code: 410, message: 'too old' }, 410),
        () => json({ items: [], metadata: { resourceVersion: '40' } }),
      ],
      { ...emptyFilters, namespace: 'shop', type: 'Warning' },
      'tok',
    );
    const q = (u: string) => Object.fromEntries(new URL(u).searchParams);
    expect(new URL(urls[0]!).pathname).toBe('/prefix/apis/events.k8s.io/v1/namespaces/shop/events');
    expect(q(urls[0]!)).toEqual({ fieldSelector: 'type=Warning', limit: '2000' });
    expect(q(urls[1]!)['continue']).toBe('c1');
    expect(q(urls[2]!)).toMatchObject({ watch: '1', resourceVersion: '10', allowWatchBookmarks: 'true' });
    expect(q(urls[3]!)['resourceVersion']).toBe('16');
    expect(q(urls[4]!)['watch']).toBeUndefined();
    expect(q(urls[5]!)['resourceVersion']).toBe('30');
    expect(q(urls[6]!)['watch']).toBeUndefined();
    expect(headers[0]!['Authorization']).toBe('Bearer tok');
    expect(log.filter((l) => !l.startsWith('status'))).toEqual([
      'reset a,b',
      'upsert c',
      'remove a',
      'reset d',
      'reset ',
    ]);
  });

  it('reports a refusal and lists again after it', async () => {
    const { log } = await run([
      () => json({ kind: 'Status', code: 401, message: 'Unauthorized' }, 401),
      () => json({ items: [ev('a', '1')], metadata: { resourceVersion: '1' } }),
    ]);
    expect(log).toContain('error 401: Unauthorized');
    expect(log).toContain('reset a');
  });
});

/** A 200 whose body is `bytes` delivered in chunks ending at `cuts` (byte offsets). */
const chunked = (bytes: Uint8Array, cuts: number[]): Response => {
  const ends = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const end of [...ends, bytes.length]) {
    if (end > at) parts.push(bytes.subarray(at, end));
    at = Math.max(at, end);
  }
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    }),
    { status: 200 },
  );
};

describe('watch lines', () => {
  it('are the same events however the stream is cut into chunks (inside lines, characters and newlines)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (names, cuts) => {
          const lines = names.map((n, i) => ({ type: 'ADDED', object: ev(`${n}-${i}`, String(11 + i)) }));
          const bytes = new TextEncoder().encode(lines.map((l) => `${JSON.stringify(l)}\n\n`).join(''));
          const { log } = await run([
            () => json({ items: [], metadata: { resourceVersion: '10' } }),
            () => chunked(bytes, cuts),
          ]);
          expect(log.filter((l) => l.startsWith('upsert'))).toEqual(
            lines.map((l) => `upsert ${l.object.metadata.name}`),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a 3 MiB line that arrives a few bytes at a time', async () => {
    const note = 'x'.repeat(3 * 1024 * 1024);
    const line = JSON.stringify({ type: 'ADDED', object: { ...ev('big', '11'), note } });
    const bytes = new TextEncoder().encode(`${line}\n`);
    const cuts = Array.from({ length: Math.floor(bytes.length / 1024) }, (_, i) => (i + 1) * 1024);
    const { log } = await run([
      () => json({ items: [], metadata: { resourceVersion: '10' } }),
      () => chunked(bytes, cuts),
    ]);
    expect(log.filter((l) => l.startsWith('upsert'))).toEqual(['upsert big']);
    // ~0.25 s; 28 s when each chunk was appended to one string searched from its start again.
  }, 10_000);
});
