// A separate process holding N watch streams, so that the watchers do not share an event loop
// with the writer. Usage: node watchers.js URL N [PROBES]. The first PROBES streams (default 5)
// parse every line and time it; the others read and discard their bytes, so the load on the
// server is N full streams while this process stays light enough not to be the bottleneck.
// Prints "ready" when every stream is open; then reads one JSON line from stdin with the
// writer's send times ({name: wallMs}), and prints {p50, p99, max, deliveries}.
import http from 'node:http';

const [url, n, probes] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] ?? 5)];
const wall = () => performance.timeOrigin + performance.now();
const receipts = [];
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const nameRe = /"metadata":\{"name":"(w-\d+)"/;

let open = 0;
for (let w = 0; w < n; w++) {
  http.get(url, { agent }, (res) => {
    open++;
    if (open === n) process.stdout.write('ready\n');
    if (w >= probes) {
      res.resume();
      return;
    }
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
  }).on('error', (e) => {
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
  lat.sort((a, b) => a - b);
  const pct = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] : NaN);
  process.stdout.write(`${JSON.stringify({ p50: pct(50), p99: pct(99), max: lat[lat.length - 1] ?? NaN, deliveries: lat.length })}\n`);
  process.exit(0);
});
