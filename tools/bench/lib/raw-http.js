// A lean HTTP/1.1 client for load generation: keep-alive connections over plain sockets, one
// request in flight per connection, responses framed by Content-Length. It costs the bench
// process a fraction of what Node's http client does per request, so that on a small machine the
// load generator takes less CPU away from the server it measures.
import net from 'node:net';

/** A pool of `size` keep-alive connections to `host:port`. */
export class RawHttpPool {
  #idle = [];
  #waiting = [];
  #conns = [];

  constructor(host, port, size) {
    for (let i = 0; i < size; i++) {
      const c = new Conn(host, port, () => this.#release(c));
      this.#conns.push(c);
      this.#idle.push(c);
    }
  }

  /** Sends `method path` with a JSON `body`; resolves to { status, body } (body as a string). */
  request(method, path, body) {
    const data = body === undefined ? '' : JSON.stringify(body);
    const head = `${method} ${path} HTTP/1.1\r\nHost: bench\r\n${data ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(data)}\r\n` : ''}\r\n`;
    return new Promise((resolve, reject) => {
      const job = { bytes: head + data, resolve, reject };
      const c = this.#idle.pop();
      if (c) c.send(job);
      else this.#waiting.push(job);
    });
  }

  close() {
    for (const c of this.#conns) c.socket.destroy();
  }

  #release(c) {
    const next = this.#waiting.shift();
    if (next) c.send(next);
    else this.#idle.push(c);
  }
}

class Conn {
  constructor(host, port, onFree) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.setEncoding('latin1');
    this.onFree = onFree;
    this.job = undefined;
    this.buf = '';
    this.socket.on('data', (d) => this.#data(d));
    this.socket.on('error', (e) => this.job?.reject(e));
  }

  send(job) {
    this.job = job;
    this.socket.write(job.bytes);
  }

  #data(d) {
    this.buf += d;
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const m = /\r\ncontent-length: *(\d+)/i.exec(this.buf.slice(0, end));
    const len = m ? Number(m[1]) : 0;
    if (this.buf.length < end + 4 + len) return;
    const status = Number(this.buf.slice(9, 12));
    const body = this.buf.slice(end + 4, end + 4 + len);
    this.buf = this.buf.slice(end + 4 + len);
    const job = this.job;
    this.job = undefined;
    job.resolve({ status, body });
    this.onFree();
  }
}
