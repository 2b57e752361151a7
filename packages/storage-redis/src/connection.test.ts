import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@kevents/api/testing';
import { closeClient, connectionError, openClient } from './connection.js';
import { parseRedisUrl } from './options.js';

/** A TCP server that accepts connections and says nothing (the test makes the errors). */
let server: Server;
let port: number;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = createServer((s) => void sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

describe('a Redis connection that fails twice', () => {
  it('survives a second error on its socket (a TLS alert, then ECONNRESET), which ioredis no longer listens for', async () => {
    const client = openClient(parseRedisUrl(`redis://127.0.0.1:${port}`), 500);
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      await waitFor(
        () => sockets.length > 0 && (client as unknown as { stream?: unknown }).stream !== undefined,
        5_000,
      );
      const stream = (client as unknown as { stream: Socket }).stream;
      stream.emit('error', new Error('tlsv13 alert certificate required'));
      expect(() =>
        stream.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
      ).not.toThrow();
      expect(uncaught).toEqual([]);
      expect(connectionError(client)).toBe('tlsv13 alert certificate required');
    } finally {
      process.off('uncaughtException', onUncaught);
      closeClient(client);
    }
  });
});
