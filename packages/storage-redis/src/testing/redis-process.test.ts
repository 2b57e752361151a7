import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { RedisServer } from './redis-process.js';

describe('RedisServer.start', () => {
  it('reports a redis-server that exits (its port taken) with its log, not a timeout', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as { port: number }).port;
    try {
      await expect(RedisServer.start({ port })).rejects.toThrow(
        new RegExp(`redis-server on ${port} exited: [\\s\\S]*Address already in use`),
      );
    } finally {
      holder.close();
    }
  });

  it('starts on a free port when none is given', async () => {
    const s = await RedisServer.start();
    try {
      expect(s.running).toBe(true);
      expect(s.url).toBe(`redis://127.0.0.1:${s.port}`);
    } finally {
      await s.stop();
    }
  });
});
