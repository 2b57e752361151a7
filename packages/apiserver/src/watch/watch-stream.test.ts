import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, get, type Server, type ServerResponse } from 'node:http';
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
});
