// The floor for watch delivery: a minimal node:http server that fans every created object out to
// its watch streams (`res.write` of one line per watcher, as chunked HTTP/1.1), with no store, no
// checks, no selectors, no resourceVersions and no bookmarks. It answers just what the watch
// benchmark asks (`POST` a create, `GET ...?watch=true`, `GET ...?limit=1`, `/readyz`, `/metrics`).
// Usage: node watch-floor-server.js --insecure-port=N (the apiserver's flag, so that the benchmark
// starts it as it starts kevents).
import http from 'node:http';

const portArg = process.argv.find((a) => a.startsWith('--insecure-port='));
if (portArg === undefined) throw new Error('usage: watch-floor-server.js --insecure-port=N');
const port = Number(portArg.slice('--insecure-port='.length));
const watchers = new Set();
let resourceVersion = 1;

http
  .createServer((req, res) => {
    if (req.method === 'POST') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        resourceVersion++;
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        const line = `{"type":"ADDED","object":${body}}\n`;
        for (const w of watchers) w.write(line);
      });
      return;
    }
    if (req.url.includes('watch=true')) {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      watchers.add(res);
      req.on('close', () => watchers.delete(res));
      return;
    }
    if (req.url === '/metrics') return res.end('');
    if (req.url === '/readyz') return res.end('ok');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ metadata: { resourceVersion: String(resourceVersion) }, items: [] }));
  })
  .listen(port, '127.0.0.1');
