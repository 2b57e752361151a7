import autocannon from 'autocannon';
import { cpuSeconds } from './processes.js';

/**
 * Runs one bounded autocannon load (loopback only), after an optional warm-up of the same load
 * (so the JIT has compiled the server's hot paths), and returns throughput and latency.
 * `pid`: the server whose CPU per request is reported (`cpuPerRequestUs`); `otherPids`: more
 * processes whose CPU per request of the same load is reported by name (`otherCpuPerRequestUs`),
 * such as the redis-server a kevents on Redis keeps busy.
 * @param {{ url: string, method?: string, body?: string, headers?: Record<string,string>, seconds: number, connections: number, title: string, pid?: number, otherPids?: Record<string, number>, warmupSeconds?: number }} o
 */
export async function load(o) {
  if (o.warmupSeconds) {
    process.stderr.write(`  ${o.title}: warming up ${o.warmupSeconds}s ... `);
    await autocannon({
      url: o.url,
      method: o.method ?? 'GET',
      body: o.body,
      headers: o.headers,
      duration: o.warmupSeconds,
      connections: o.connections,
      pipelining: 1,
    });
    process.stderr.write('done\n');
  }
  const cpuBefore = o.pid ? cpuSeconds(o.pid) : undefined;
  const othersBefore = Object.entries(o.otherPids ?? {}).map(([name, pid]) => [name, pid, cpuSeconds(pid)]);
  process.stderr.write(`  ${o.title}: ${o.seconds}s with ${o.connections} connections ... `);
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    body: o.body,
    headers: o.headers,
    duration: o.seconds,
    connections: o.connections,
    pipelining: 1,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  const cpuAfter = o.pid ? cpuSeconds(o.pid) : undefined;
  const cpuPerRequestUs =
    cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0
      ? ((cpuAfter - cpuBefore) / result.requests.total) * 1e6
      : undefined;
  /** @type {Record<string, number>} */
  const otherCpuPerRequestUs = {};
  for (const [name, pid, before] of othersBefore)
    if (result.requests.total > 0)
      otherCpuPerRequestUs[name] = ((cpuSeconds(pid) - before) / result.requests.total) * 1e6;
  const out = {
    title: o.title,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: bad,
    cpuPerRequestUs,
    otherCpuPerRequestUs,
  };
  const others = Object.entries(otherCpuPerRequestUs)
    .map(([name, us]) => `, ${name} ${us.toFixed(0)} µs/request`)
    .join('');
  const cpu = cpuPerRequestUs === undefined ? '' : `, server CPU ${cpuPerRequestUs.toFixed(0)} µs/request${others}`;
  process.stderr.write(
    `${Math.round(out.rps)} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms${cpu}${bad ? `, ${bad} failed` : ''}\n`,
  );
  return out;
}
