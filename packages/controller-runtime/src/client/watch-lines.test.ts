import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { WatchLineTooLong, readWatchLines } from './watch-lines.js';

async function* chunks(parts: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield p;
}

/** `bytes` cut at `cuts` (offsets, any order, repeats allowed). */
function cut(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

async function read(parts: readonly Uint8Array[], limit?: number): Promise<{ lines: string[]; progress: number }> {
  const lines: string[] = [];
  let progress = 0;
  await readWatchLines(
    chunks(parts),
    () => progress++,
    (l) => lines.push(l),
    limit,
  );
  return { lines, progress };
}

describe('readWatchLines', () => {
  it('reads the lines of any text cut anywhere, characters split between chunks included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('\n', '', ' ', '\r\n')), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (pieces, cuts) => {
          const text = pieces.join('');
          const bytes = new TextEncoder().encode(text);
          const { lines, progress } = await read(cut(bytes, cuts));
          expect(lines).toEqual(text.split('\n').filter((l) => l.trim() !== ''));
          expect(progress).toBe(cut(bytes, cuts).length);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('refuses a line past its bound, with or without a newline, and reads one at the bound', async () => {
    const enc = new TextEncoder();
    await expect(read([enc.encode('x'.repeat(10) + '\nok\n')], 10)).resolves.toEqual({
      lines: ['x'.repeat(10), 'ok'],
      progress: 1,
    });
    await expect(read([enc.encode('x'.repeat(11) + '\n')], 10)).rejects.toBeInstanceOf(WatchLineTooLong);
    await expect(read([enc.encode('ok\n' + 'x'.repeat(6)), enc.encode('x'.repeat(5))], 10)).rejects.toThrow(
      'a watch line is longer than 10 bytes',
    );
  });

  it('reads a 64 MiB line without a newline in time proportional to it, refusing it at 16 MiB', async () => {
    // Before: the pending text was scanned again per chunk: 16 MiB 7.8 s, 64 MiB 136 s.
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 1024; i++) yield chunk;
    }
    const t = performance.now();
    await expect(
      readWatchLines(
        endless(),
        () => undefined,
        () => undefined,
      ),
    ).rejects.toBeInstanceOf(WatchLineTooLong);
    expect(performance.now() - t).toBeLessThan(2_000);
  });
});
