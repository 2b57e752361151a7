import { describe, expect, it } from '@jest/globals';
import { isStorageError } from '@kevents/storage';
import type { Client } from './connection.js';
import { Deadline, isUnanswered, writeError } from './deadline.js';

/** Stands in for a ready ioredis client: a Deadline only passes it to the error mapper. */
const client = { status: 'ready', disconnect: () => undefined } as unknown as Client;
const after = <T>(ms: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));
const never = (): Promise<never> => new Promise<never>(() => undefined);

describe('Deadline', () => {
  it('gives the commands of one request the time in all: the second gets what the first left', async () => {
    const start = performance.now();
    const d = new Deadline(200);
    expect(await d.run(client, () => after(120, 'first'))).toBe('first');
    const err = await d.run(client, never).catch((e: unknown) => e);
    const total = performance.now() - start;
    expect(isStorageError(err, 'Unavailable')).toBe(true);
    expect((err as Error).message).toBe('redis unavailable: no answer within 200 ms (commandTimeoutMs)');
    // The second command waits only for what the first left: the request ends 200 ms after it
    // started (timers run late on a loaded machine; a fresh 200 ms would end at 320 or later).
    expect(total).toBeGreaterThanOrEqual(195);
    expect(total).toBeLessThan(300);
    // Sent and unanswered: a write's error says it may have been applied.
    expect(isUnanswered(err)).toBe(true);
    expect((writeError(err) as Error).message).toBe(
      'redis unavailable: no answer within 200 ms (commandTimeoutMs); the write may have been applied',
    );
  });

  it('does not send a command once the time is spent', async () => {
    const d = new Deadline(30);
    await d.run(client, never).catch(() => undefined);
    let sent = false;
    const err = await d
      .run(client, () => {
        sent = true;
        return Promise.resolve('late');
      })
      .catch((e: unknown) => e);
    expect(sent).toBe(false);
    expect(isStorageError(err, 'Unavailable')).toBe(true);
    expect(isUnanswered(err)).toBe(false);
    expect(writeError(err)).toBe(err);
  });

  it('maps what Redis answers: a refusal was not applied, a connection closed with the command in flight may have been', async () => {
    const reply = (message: string): Error => Object.assign(new Error(message), { name: 'ReplyError' });
    const refused = await new Deadline(100)
      .run(client, () => Promise.reject(reply("READONLY You can't write against a read only replica.")))
      .catch((e: unknown) => e);
    expect(isStorageError(refused, 'Unavailable')).toBe(true);
    expect(isUnanswered(refused)).toBe(false);
    const closed = await new Deadline(100)
      .run(client, () => Promise.reject(new Error('Connection is closed.')))
      .catch((e: unknown) => e);
    expect((writeError(closed) as Error).message).toBe(
      'redis unavailable: Connection is closed; the write may have been applied',
    );
    const notSent = await new Deadline(100)
      .run(client, () => Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false")))
      .catch((e: unknown) => e);
    expect(isUnanswered(notSent)).toBe(false);
    const script = await new Deadline(100)
      .run(client, () => Promise.reject(reply('ERR user_script:1: boom')))
      .catch((e: unknown) => e);
    expect(isStorageError(script, 'Internal')).toBe(true);
  });
});
