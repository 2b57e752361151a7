import { afterEach, describe, expect, it } from '@jest/globals';
import { connect } from 'node:http2';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendAtTurnEnd } from './turn-end-send.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** A barrier: the n-th arrival releases everyone, so n handlers go on in one turn of the loop. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((r) => (release = r));
  return () => {
    if (++arrived === n) release();
    return all;
  };
}

async function listen(app: FastifyInstance): Promise<number> {
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

/** One HTTP/1.1 POST on its own connection: status and body, or the socket error's code. */
function post(port: number, path: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

describe('sendAtTurnEnd', () => {
  it('sends the replies of one turn together, after every handler of the turn returned', async () => {
    const n = 6;
    const arrive = barrier(n);
    const log: string[] = [];
    const app = Fastify();
    app.post('/:i', async (req, reply: FastifyReply) => {
      const i = (req.params as { i: string }).i;
      reply.raw.on('finish', () => log.push(`sent ${i}`));
      await arrive();
      reply.code(201).header('content-type', 'text/plain');
      const r = sendAtTurnEnd(reply, `answer ${i}`);
      log.push(reply.sent || reply.raw.headersSent ? `early ${i}` : `queued ${i}`);
      return r;
    });
    const port = await listen(app);
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => post(port, `/${i}`)));
    expect(answers).toEqual(Array.from({ length: n }, (_, i) => ({ status: 201, body: `answer ${i}` })));
    expect(log.slice(0, n).every((l) => l.startsWith('queued '))).toBe(true);
    expect(log.slice(n).every((l) => l.startsWith('sent '))).toBe(true);
    expect(log).toHaveLength(2 * n);
  });

  it('answers a lone request in the same turn of the loop, before any timer', async () => {
    const app = Fastify();
    let timerFirst = false;
    app.post('/', async (_req, reply) => {
      setTimeout(() => (timerFirst = !reply.raw.writableEnded), 0);
      return sendAtTurnEnd(reply, 'ok');
    });
    const port = await listen(app);
    expect(await post(port, '/')).toEqual({ status: 200, body: 'ok' });
    expect(timerFirst).toBe(false);
  });

  it('a reply that cannot be sent closes its own connection and no other', async () => {
    const arrive = barrier(3);
    const app = Fastify();
    app.post('/:i', async (req, reply) => {
      const i = (req.params as { i: string }).i;
      await arrive();
      if (i === 'bad')
        // A fault injected where fastify would throw (a send from an onError hook, say).
        reply.send = () => {
          throw new Error('cannot send');
        };
      return sendAtTurnEnd(reply, `answer ${i}`);
    });
    const port = await listen(app);
    const [a, bad, b] = await Promise.all([post(port, '/a'), post(port, '/bad'), post(port, '/b')]);
    expect(a).toEqual({ status: 200, body: 'answer a' });
    expect(b).toEqual({ status: 200, body: 'answer b' });
    expect(bad.error).toBe('ECONNRESET');
  });

  it('an error met while sending goes through the error handler, which may queue its answer again', async () => {
    const app = Fastify();
    // A synchronous onSend failure runs the error handler inside the flush; its answer is queued
    // for the next turn and still sent.
    app.addHook('onSend', (_req, _reply, payload, done) =>
      payload === 'fail' ? done(new Error('onSend failed')) : done(null, payload),
    );
    app.setErrorHandler((err, _req, reply) => {
      reply.code(500).header('content-type', 'text/plain');
      return sendAtTurnEnd(reply, `error: ${(err as Error).message}`);
    });
    app.post('/', async (_req, reply) => sendAtTurnEnd(reply, 'fail'));
    const port = await listen(app);
    expect(await post(port, '/')).toEqual({ status: 500, body: 'error: onSend failed' });
  });

  it('waits for a reply that an async onSend hook sends later', async () => {
    const app = Fastify();
    app.addHook('onSend', async (_req, _reply, payload) => {
      await new Promise((r) => setTimeout(r, 20));
      return `${String(payload)} (late)`;
    });
    app.post('/', async (_req, reply) => sendAtTurnEnd(reply, 'answer'));
    const port = await listen(app);
    expect(await post(port, '/')).toEqual({ status: 200, body: 'answer (late)' });
  });

  it('sends HTTP/2 replies at once', async () => {
    // Typed as the HTTP/1.1 instance the helpers take: the two differ only in the raw server's types.
    const app = Fastify({ http2: true }) as unknown as FastifyInstance;
    let sentAtOnce: boolean | undefined;
    app.get('/', async (_req, reply) => {
      const r = sendAtTurnEnd(reply, 'h2');
      sentAtOnce = reply.sent;
      return r;
    });
    const port = await listen(app);
    const session = connect(`http://127.0.0.1:${port}`);
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const s = session.request({ ':path': '/' });
        let text = '';
        s.setEncoding('utf8');
        s.on('data', (c: string) => (text += c));
        s.on('end', () => resolve(text));
        s.on('error', reject);
      });
      expect(body).toBe('h2');
      expect(sentAtOnce).toBe(true);
    } finally {
      session.close();
    }
  });
});
