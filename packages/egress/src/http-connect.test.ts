import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import fc from 'fast-check';
import { connectExchange, HttpConnectDialer } from './http-connect.js';

/** A stream standing in for the proxy's socket: the answer arrives in exactly the given reads. */
async function exchange(reads: readonly Buffer[]): Promise<string> {
  const socket = new Duplex({
    read() {
      // the test pushes the reads
    },
    write(_c, _e, cb) {
      cb();
    },
  });
  const done = connectExchange(socket as unknown as Socket, 'proxy:1', 'x:1', new AbortController().signal).then(
    () => 'ok',
    (e: Error) => e.message,
  );
  for (const r of reads) {
    socket.push(r);
    await new Promise((resolve) => setImmediate(resolve));
  }
  socket.push(null);
  return done;
}

const headerLine = fc.stringMatching(/^[A-Za-z-]{1,12}: [ -~]{0,40}$/).map((l) => `${l}\r\n`);
const answer = fc
  .record({
    status: fc.constantFrom('HTTP/1.1 200 OK', 'HTTP/1.0 200 Connection established', 'HTTP/1.1 407 Auth', 'bogus'),
    headers: fc.array(headerLine, { maxLength: 8 }),
  })
  .map(({ status, headers }) => Buffer.from(`${status}\r\n${headers.join('')}\r\n`, 'latin1'));

describe('connectExchange reads the answer whatever its reads', () => {
  // Bytes after the blank line count only when they came in the same read (Go's bufio.Reader has
  // them buffered then, not later): answers here end at their blank line.
  it('property: any split of an answer gives the outcome of the whole answer in one read', async () => {
    await fc.assert(
      fc.asyncProperty(answer, fc.array(fc.nat(), { maxLength: 12 }), async (bytes, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const reads: Buffer[] = [];
        let at = 0;
        for (const p of points) {
          reads.push(bytes.subarray(at, p));
          at = p;
        }
        reads.push(bytes.subarray(at));
        expect(await exchange(reads.filter((r) => r.length > 0))).toBe(await exchange([bytes]));
      }),
      { numRuns: 300 },
    );
  });

  it('finds a blank line split byte by byte across reads', async () => {
    const bytes = Buffer.from('HTTP/1.1 200 OK\r\nA: b\r\n\r\n');
    expect(await exchange([...bytes].map((b) => Buffer.from([b])))).toBe('ok');
    expect(await exchange([Buffer.from('HTTP/1.1 200 OK\r\n\r'), Buffer.from('\nzz')])).toBe(
      'unexpected 2 bytes of buffered data from CONNECT proxy "proxy:1"',
    );
  });
});

describe('a proxy sending a 1 MiB answer in small writes (a real TCP proxy in another process)', () => {
  let proxy: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    // Answers every CONNECT with a status line and 1 MiB of 1,000-byte header lines, never the blank line.
    const script = `
      const s = require('node:net').createServer((c) => {
        c.setNoDelay(true);
        c.once('data', async () => {
          c.write('HTTP/1.1 200 OK\\r\\n');
          const line = 'X-A: ' + 'a'.repeat(993) + '\\r\\n';
          for (let sent = 0; sent < 1 << 20 && !c.destroyed; sent += line.length) {
            c.write(line);
            await new Promise((r) => setTimeout(r, 0));
          }
        });
        c.on('error', () => {});
      });
      s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
    proxy = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<number>((resolve) =>
      proxy.stdout!.once('data', (d: Buffer) => resolve(Number(String(d)))),
    );
  });
  afterAll(() => {
    proxy.kill();
  });

  it('reads it in time linear in its length (before: ~1 s of CPU per dial)', async () => {
    const dialer = new HttpConnectDialer('cluster', { kind: 'tcp', host: '127.0.0.1', port });
    const start = process.cpuUsage();
    await expect(dialer.dial({ host: 'x', port: 1 }, { timeoutMs: 30_000 })).rejects.toThrow(
      'reading HTTP response from CONNECT to x:1 via proxy 127.0.0.1:' + port + ' failed: EOF',
    );
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(400);
  });
});
