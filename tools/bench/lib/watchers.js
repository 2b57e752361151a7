// A separate process holding N watch streams, so that the watchers do not share an event loop
// with the writer. Usage: node watchers.js URL N [PROBES]. The first PROBES streams (default 5)
// parse every line and time it; the others read and discard their bytes, so the load on the
// server is N full streams while this process stays light enough not to be the bottleneck.
// Prints "ready" when every stream is open; then reads one JSON line from stdin with the
// writer's send times ({name: wallMs}), and prints {p50, p99, max, deliveries}.
import http from 'node:http';
import net from 'node:net';

const [url, n, probes] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] ?? 5)];
const wall = () => performance.timeOrigin + performance.now();
const receipts = [];
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const nameRe = /"metadata":\{"name":"(w-\d+)"/;

let open = 0;
const opened = () => {
  if (++open === n) process.stdout.write('ready\n');
};
// The discarding streams read into one shared buffer over plain sockets: the server writes
// to them exactly as to any client, while this process spends as little as it can on them.
const { hostname, port, pathname, search } = new URL(url);
const sink = Buffer.allocUnsafe(256 * 1024);
for (let w = probes; w < n; w++) {
  let first = true;
  const socket = net.connect({
    host: hostname,
    port: Number(port),
    onread: {
      buffer: sink,
      callback: (bytes) => {
        if (first) {
          first = false;
          if (sink.latin1Slice(0, 12) !== 'HTTP/1.1 200') {
            process.stderr.write(`watch failed: ${sink.latin1Slice(0, Math.min(bytes, 200))}\n`);
            process.exit(1);
          }
          opened();
        }
        return true;
      },
    },
  });
  socket.on('connect', () => socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: bench\r\n\r\n`));
  socket.on('error', (e) => {
    process.stderr.write(`watch failed: ${e.message}\n`);
    process.exit(1);
  });
}
for (let w = 0; w < Math.min(probes, n); w++) {
  http
    .get(url, { agent }, (res) => {
      opened();
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const now = wall();
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (!line.startsWith('{"type":"ADDED"')) continue;
          const m = nameRe.exec(line);
          if (m) receipts.push(m[1], now);
        }
      });
      res.on('error', () => {});
    })
    .on('error', (e) => {
      process.stderr.write(`watch failed: ${e.message}\n`);
      process.exit(1);
    });
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  input += d;
  if (!input.includes('\n')) return;
  const sent = JSON.parse(input.slice(0, input.indexOf('\n')));
  const lat = [];
  for (let i = 0; i < receipts.length; i += 2) {
    const t = sent[receipts[i]];
    if (t !== undefined) lat.push(receipts[i + 1] - t);
  }
  if (process.env.BENCH_WATCH_TRACE) {
    const byWindow = new Map();
    for (let i = 0; i < receipts.length; i += 2) {
      const t = sent[receipts[i]];
      if (t === undefined) continue;
      const w = Math.floor(t / 250);
      (byWindow.get(w) ?? byWindow.set(w, []).get(w)).push(receipts[i + 1] - t);
    }
    const first = Math.min(...byWindow.keys());
    for (const [w, xs] of [...byWindow].sort((a, b) => a[0] - b[0])) {
      xs.sort((a, b) => a - b);
      process.stderr.write(
        `t=${((w - first) * 0.25).toFixed(2)}s n=${xs.length} p50=${xs[xs.length >> 1].toFixed(1)} p99=${xs[Math.floor(xs.length * 0.99)].toFixed(1)} max=${xs[xs.length - 1].toFixed(1)}\n`,
      );
    }
  }
  lat.sort((a, b) => a - b);
  const pct = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] : NaN);
  process.stdout.write(
    `${JSON.stringify({ p50: pct(50), p99: pct(99), max: lat[lat.length - 1] ?? NaN, deliveries: lat.length })}\n`,
  );
  process.exit(0);
});
