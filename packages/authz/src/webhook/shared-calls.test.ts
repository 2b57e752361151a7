import { describe, expect, it } from '@jest/globals';
import { SharedCalls } from './shared-calls.js';

/** A call the test settles by hand, recording the signal it was given. */
function deferred(): {
  start: (signal: AbortSignal) => Promise<string>;
  resolve: (v: string) => void;
  reject: (e: Error) => void;
  signals: AbortSignal[];
} {
  const signals: AbortSignal[] = [];
  let resolve!: (v: string) => void;
  let reject!: (e: Error) => void;
  const start = (signal: AbortSignal): Promise<string> => {
    signals.push(signal);
    return new Promise<string>((res, rej) => {
      resolve = res;
      reject = rej;
    });
  };
  return { start, resolve: (v) => resolve(v), reject: (e) => reject(e), signals };
}

const gone = (reason: unknown): string => `gone: ${String(reason)}`;

describe('SharedCalls', () => {
  it('makes one call per key while it runs, and a new one after it settled', async () => {
    const calls = new SharedCalls<string>();
    const d = deferred();
    const a = calls.join('k', undefined, d.start, gone);
    const b = calls.join('k', new AbortController().signal, d.start, gone);
    const other = deferred();
    const c = calls.join('other', undefined, other.start, gone);
    expect(d.signals).toHaveLength(1);
    expect(other.signals).toHaveLength(1);
    expect(calls.size).toBe(2);
    d.resolve('answer');
    other.resolve('x');
    expect(await Promise.all([a, b, c])).toEqual(['answer', 'answer', 'x']);
    expect(calls.size).toBe(0);
    const again = deferred();
    const next = calls.join('k', undefined, again.start, gone);
    expect(again.signals).toHaveLength(1);
    again.resolve('later');
    expect(await next).toBe('later');
  });

  it('rejects every caller with the call’s error and keeps nothing', async () => {
    const calls = new SharedCalls<string>();
    const d = deferred();
    const a = calls.join('k', undefined, d.start, gone);
    const b = calls.join('k', new AbortController().signal, d.start, gone);
    d.reject(new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    await expect(b).rejects.toThrow('boom');
    expect(calls.size).toBe(0);
  });

  it('lets a caller go at once, and aborts the call only when the last one has gone', async () => {
    const calls = new SharedCalls<string>();
    const d = deferred();
    const [x, y] = [new AbortController(), new AbortController()];
    const px = calls.join('k', x.signal, d.start, gone);
    const py = calls.join('k', y.signal, d.start, gone);
    x.abort('x left');
    expect(await px).toBe('gone: x left');
    expect(d.signals[0]!.aborted).toBe(false);
    y.abort('y left');
    expect(await py).toBe('gone: y left');
    expect(d.signals[0]!.aborted).toBe(true);
    expect(d.signals[0]!.reason).toBe('y left');
    expect(calls.size).toBe(0);
    // The cut call settling late changes nothing; the next caller starts afresh.
    const again = deferred();
    const next = calls.join('k', undefined, again.start, gone);
    d.resolve('late');
    again.resolve('fresh');
    expect(await next).toBe('fresh');
  });

  it('never aborts a call a caller without a signal waits for', async () => {
    const calls = new SharedCalls<string>();
    const d = deferred();
    const x = new AbortController();
    const px = calls.join('k', x.signal, d.start, gone);
    const stays = calls.join('k', undefined, d.start, gone);
    x.abort('x left');
    expect(await px).toBe('gone: x left');
    expect(d.signals[0]!.aborted).toBe(false);
    d.resolve('answer');
    expect(await stays).toBe('answer');
  });

  it('starts nothing for a caller already gone', async () => {
    const calls = new SharedCalls<string>();
    const d = deferred();
    expect(await calls.join('k', AbortSignal.abort('before'), d.start, gone)).toBe('gone: before');
    expect(d.signals).toHaveLength(0);
    expect(calls.size).toBe(0);
  });
});
