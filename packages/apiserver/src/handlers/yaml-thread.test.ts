import { describe, expect, it } from '@jest/globals';
import { readYaml, YamlInputError } from './yaml-input.js';
import { ApiError } from '../errors/api-error.js';
import { maxBodyValues } from '../registry/object-values.js';
import { parseBodyOffLoop } from './body.js';
import {
  inlineYamlLimit,
  maxQueuedYamlBodies,
  readYamlOffLoop,
  YamlThreadBusyError,
  yamlThreadHeapMb,
} from './yaml-thread.js';

const big = (entries: number): string =>
  Array.from({ length: entries }, (_, i) => `k${i}: {on: ${i}, v: &a${i} [x, "y"], w: *a${i}}`).join('\n');

describe('readYamlOffLoop', () => {
  it('reads a large body on the YAML thread, answering what readYaml answers', async () => {
    const text = `${big(2000)}\n"__proto__": {polluted: yes}\nk1: again\n`;
    expect(text.length).toBeGreaterThan(inlineYamlLimit);
    const read = await readYamlOffLoop(text);
    expect(read).toEqual(readYaml(text));
    const value = read.value as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(read.duplicateKeys).toEqual([`line 2002: key "k1" already set in map`]);
  });

  it('refuses a body the thread reads into more member names than an object may hold values', async () => {
    const text = big(maxBodyValues / 4 + 1);
    const err = (await readYamlOffLoop(text).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.code, err.status.reason]).toEqual([413, 'RequestEntityTooLarge']);
  });

  it('answers refusals as YamlInputError, keeps the event loop free meanwhile, and reads in order', async () => {
    const dense = `a: {${',\n'.repeat(400_000)}}`;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    const [refused, fine] = await Promise.allSettled([readYamlOffLoop(dense), readYamlOffLoop(big(2000))]);
    clearInterval(timer);
    const elapsed = Date.now() - started;
    expect(refused.status).toBe('rejected');
    const err = (refused as PromiseRejectedResult).reason as YamlInputError;
    expect(err).toBeInstanceOf(YamlInputError);
    expect([err.kind, err.message]).toEqual(['syntax', 'yaml: line 1: Unexpected , in flow map']);
    expect(fine.status).toBe('fulfilled');
    // The timer kept running while the thread read: at least a tick for every 50 ms that passed.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 50));
  });

  it('reads JSON and small bodies here, without the thread', async () => {
    expect(await readYamlOffLoop('{"a": [1, 2]}')).toEqual({ value: { a: [1, 2] }, duplicateKeys: [] });
    await expect(readYamlOffLoop('a: [')).rejects.toBeInstanceOf(YamlInputError);
  });

  it(`refuses a body while ${maxQueuedYamlBodies} wait, as 429 with Retry-After, and takes bodies again once they are read`, async () => {
    const body = big(1500);
    expect(body.length).toBeGreaterThan(inlineYamlLimit);
    const reads = Array.from({ length: maxQueuedYamlBodies + 3 }, () => readYamlOffLoop(body));
    const settled = await Promise.allSettled(reads);
    const refused = settled.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(YamlThreadBusyError);
    const many = Array.from({ length: maxQueuedYamlBodies + 1 }, () => parseBodyOffLoop(body, 'application/yaml'));
    const last = await Promise.allSettled(many);
    const busy = (last.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as ApiError;
    expect([
      busy.code,
      busy.status.reason,
      busy.status.details?.retryAfterSeconds,
      busy.headers?.['Retry-After'],
    ]).toEqual([429, 'TooManyRequests', 1, '1']);
    expect((await readYamlOffLoop(body)).duplicateKeys).toEqual([]);
  });

  it('refuses a body the thread runs out of heap reading (3 MB of `{},` peaked at 1.7 GB), and reads the next on a new thread', async () => {
    // One read into a 1 GiB heap (~14 s alone): read through parseBodyOffLoop, whose 413 naming the
    // heap is the answer to a YamlThreadOutOfMemoryError only (a YamlInputError is a 400, another
    // failure passes through), so one crash shows both the thread's refusal and its 413.
    const dense = `pad: [${'{},'.repeat(1_000_000)}{}]\n`;
    const [huge, behind] = await Promise.allSettled([
      parseBodyOffLoop(dense, 'application/yaml'),
      readYamlOffLoop(big(1500)),
    ]);
    const status = (huge as PromiseRejectedResult).reason as ApiError;
    expect(status).toBeInstanceOf(ApiError);
    expect([status.code, status.status.reason, status.message]).toEqual([
      413,
      'RequestEntityTooLarge',
      `Request entity too large: reading the YAML body needs more than ${yamlThreadHeapMb} MiB; send it as JSON`,
    ]);
    expect((behind as PromiseRejectedResult).reason).toBeInstanceOf(YamlThreadBusyError);
    const next = await readYamlOffLoop(big(1500));
    expect(next.duplicateKeys).toEqual([]);
  }, 180_000);
});
