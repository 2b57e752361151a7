import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { WatchStream } from './watch-stream.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

/** A server that hands each response to `serve`; returns its URL. */
async function serving(serve: (res: ServerResponse) => void): Promise<string> {
  server = createServer((_req, res) => serve(res));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** GETs `url` and collects the decoded body until the response ends. */
function body(url: string, onResponse?: (headers: Record<string, unknown>) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      onResponse?.(res.headers);
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const line = (s: string): Buffer => Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { s } })}\n`);

describe('WatchStream', () => {
  it('sends each batch as one HTTP chunk that a standard client decodes, then ends the response', async () => {
    const a = line('a');
    const b = line('ü-multibyte');
    const url = await serving((res) => {
      const s = new WatchStream(res);
      expect(s.write([a, b])).toBeUndefined();
      expect(s.write([])).toBeUndefined();
      s.write([line('c')]);
      s.end();
      s.end();
      expect(s.closed).toBe(true);
      expect(s.write([line('late')])).toBeUndefined();
    });
    let headers: Record<string, unknown> = {};
    const text = await body(url, (h) => (headers = h));
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(headers['content-type']).toBe('application/json');
    expect(text).toBe(`${a.toString()}${b.toString()}${line('c').toString()}`);
  });

  it('gives streams woken together the same chunk', async () => {
    const lines = [line('x'), line('y')];
    const chunks: Buffer[] = [];
    const url = await serving((res) => {
      const socket = res.socket!;
      const write = socket.write.bind(socket);
      socket.write = ((chunk: Buffer, ...rest: never[]) => {
        if (Buffer.isBuffer(chunk)) chunks.push(chunk);
        return write(chunk, ...rest);
      }) as typeof socket.write;
      const s = new WatchStream(res);
      s.write(lines);
      s.end();
    });
    expect(await body(url)).toBe(lines.join(''));
    expect(await body(url)).toBe(lines.join(''));
    const framed = chunks.filter((c) => c.includes(lines[0]!));
    expect(framed).toHaveLength(2);
    expect(framed[0]).toBe(framed[1]);
    expect(framed[0]!.toString()).toBe(
      `${(lines[0]!.length + lines[1]!.length).toString(16)}\r\n${lines.join('')}\r\n`,
    );
  });

  it('keeps the chunk of each shared (frozen) array of lines, however they interleave', async () => {
    const x = Object.freeze([line('x')]);
    const y = Object.freeze([line('y'), line('z')]);
    const chunks: Buffer[] = [];
    const url = await serving((res) => {
      const socket = res.socket!;
      const write = socket.write.bind(socket);
      socket.write = ((chunk: Buffer, ...rest: never[]) => {
        if (Buffer.isBuffer(chunk)) chunks.push(chunk);
        return write(chunk, ...rest);
      }) as typeof socket.write;
      const s = new WatchStream(res);
      for (const lines of [x, y, x, y]) s.write(lines);
      s.end();
    });
    expect(await body(url)).toBe([x, y, x, y].map((l) => l.join('')).join(''));
    const framed = chunks.filter((c) => c.includes(x[0]!) || c.includes(y[0]!));
    expect(framed).toHaveLength(4);
    expect(framed[2]).toBe(framed[0]);
    expect(framed[3]).toBe(framed[1]);
    expect(framed[1]!.toString()).toBe(`${(y[0]!.length + y[1]!.length).toString(16)}\r\n${y.join('')}\r\n`);
  });

  it('asks the watch to wait while the client does not read, and resumes once it drains', async () => {
    let waited: Promise<void> | undefined;
    let resume: (() => void) | undefined;
    const big = Buffer.alloc(1 << 20, 'x');
    const url = await serving((res) => {
      const s = new WatchStream(res);
      for (let i = 0; i < 64 && waited === undefined; i++) waited = s.write([big]);
      void waited?.then(() => {
        s.write([line('after')]);
        s.end();
      });
    });
    const received = await new Promise<string>((resolve, reject) => {
      get(url, (res) => {
        res.pause();
        resume = () => {
          let tail = '';
          res.on('data', (d: Buffer) => (tail = (tail + d.toString('latin1')).slice(-200)));
          res.on('end', () => resolve(tail));
          res.resume();
        };
        setTimeout(() => resume!(), 200);
      }).on('error', reject);
    });
    expect(waited).toBeInstanceOf(Promise);
    expect(received.endsWith(line('after').toString())).toBe(true);
  });

  it('gives HTTP/2 streams woken together the same buffer: their unsent output is shared, not copied', async () => {
    const lines = Object.freeze([line('p'), line('q')]);
    const written: Buffer[] = [];
    const h2 = http2.createServer((_req, res) => {
      const stream = res.stream;
      const write = stream.write.bind(stream) as (...a: unknown[]) => boolean;
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (Buffer.isBuffer(chunk)) written.push(chunk);
        return write(chunk, ...rest);
      }) as typeof stream.write;
      const s = new WatchStream(res);
      s.writeBuffered(lines, 2);
      s.end();
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
    const session = http2.connect(`http://127.0.0.1:${(h2.address() as AddressInfo).port}`);
    try {
      const read = (): Promise<string> =>
        new Promise((resolve, reject) => {
          let text = '';
          const st = session.request({ ':path': '/' });
          st.setEncoding('utf8');
          st.on('data', (d: string) => (text += d));
          st.on('end', () => resolve(text));
          st.on('error', reject);
        });
      expect(await Promise.all([read(), read()])).toEqual([lines.join(''), lines.join('')]);
      const joined = written.filter((c) => c.includes(lines[0]!));
      expect(joined).toHaveLength(2);
      expect(joined[0]).toBe(joined[1]);
    } finally {
      session.destroy();
      await new Promise((r) => h2.close(r));
    }
  });

  it('counts the events its client has not read; backWithin is false when the client does not catch up in time, true once it does', async () => {
    let stream: WatchStream | undefined;
    const url = await serving((res) => {
      stream = new WatchStream(res);
    });
    const res = await new Promise<IncomingMessage>((resolve, reject) => get(url, resolve).on('error', reject));
    res.pause();
    const s = stream!;
    const ev = line('x'.repeat(4096));
    // 32 MiB: past what the kernel's buffers take, writes stay pending in the server.
    for (let i = 0; i < 8192; i++) s.writeBuffered([ev], 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(s.pendingEvents).toBeGreaterThan(50);
    expect(s.over(1 << 30, 50)).toBe(true);
    expect(s.over(1 << 30, 1 << 30)).toBe(false);
    expect(await s.backWithin(1 << 30, 50, 100)).toBe(false);
    const caughtUp = s.backWithin(1 << 30, 50, 10_000);
    const ended = new Promise((resolve) => res.on('end', resolve));
    res.on('data', () => undefined);
    res.resume();
    expect(await caughtUp).toBe(true);
    expect(s.over(1 << 30, 50)).toBe(false);
    s.end();
    await ended;
  });
});
