import { describe, expect, it, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { fetch as undiciFetch } from 'undici';
import { waitFor } from '@kevents/api/testing';
import { EgressHttpAgent, egressDispatcher } from './adapters.js';
import type { EgressDialer } from './dialer.js';
import { EgressDialError } from './errors.js';
import { EgressSelector } from './selector.js';
import { ConnectProxy, KonnectivityServer, Tinyproxy } from './testing/index.js';

let dir: string;
let origin: Server;
let originPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kevents-egress-'));
  origin = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(`hello ${req.method} ${req.url} ${Buffer.concat(chunks).length}`));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => origin.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function get(dialer: EgressDialer, path = '/x', body?: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: originPort, path, method: body ? 'POST' : 'GET', agent: new EgressHttpAgent(dialer) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function selector(connection: object, registry = new Registry(), name = 'cluster'): Promise<EgressSelector> {
  return EgressSelector.fromConfiguration(
    {
      apiVersion: 'apiserver.k8s.io/v1beta1',
      kind: 'EgressSelectorConfiguration',
      egressSelections: [{ name, connection }],
    },
    { registry, konnectivityTimeouts: { dialMs: 300, connectMs: 2_000 } },
  );
}

async function metric(registry: Registry, name: string): Promise<Record<string, number>> {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
  const out: Record<string, number> = {};
  for (const v of (m?.values ?? []) as {
    labels: Record<string, string | number>;
    value: number;
    metricName?: string;
  }[]) {
    if (v.metricName && v.metricName !== `${name}_count` && String(m?.type) === 'histogram') continue;
    out[Object.values(v.labels).join(',')] = v.value;
  }
  return out;
}

describe('selector', () => {
  it('reads master as controlplane with a warning, and has no dialer for unconfigured selections', async () => {
    const warnings: string[] = [];
    const s = await EgressSelector.fromConfiguration(
      {
        apiVersion: 'apiserver.k8s.io/v1beta1',
        kind: 'EgressSelectorConfiguration',
        egressSelections: [{ name: 'master', connection: { proxyProtocol: 'Direct' } }],
      },
      { log: { warn: (_o, msg) => warnings.push(msg) } },
    );
    expect(warnings).toEqual(["EgressSelection name 'master' is deprecated, use 'controlplane' instead"]);
    expect(s.lookup('controlplane')?.protocol).toBe('Direct');
    expect(s.lookup('cluster')).toBeUndefined();
    expect(await get(s.lookup('controlplane')!)).toBe('hello GET /x 0');
  });

  it('names the selection and the files when the TLS key pair cannot be read', async () => {
    await expect(
      selector({
        proxyProtocol: 'HTTPConnect',
        transport: {
          tcp: { url: 'https://127.0.0.1:1', tlsConfig: { clientCert: '/nope.crt', clientKey: '/nope.key' } },
        },
      }),
    ).rejects.toThrow(
      /^failed to create dialer for egressSelection "cluster": failed to read key pair \/nope.crt & \/nope.key, got /,
    );
  });
});

describe('HTTPConnect over a Unix socket', () => {
  it('sends the exact CONNECT request, tunnels, and meters the dial', async () => {
    const path = join(dir, 'connect.sock');
    const proxy = await ConnectProxy.start({ path });
    const registry = new Registry();
    try {
      const d = (
        await selector({ proxyProtocol: 'HTTPConnect', transport: { uds: { udsName: path } } }, registry)
      ).lookup('cluster')!;
      expect(await get(d, '/through', Buffer.alloc(100_000, 1))).toBe('hello POST /through 100000');
      expect(proxy.connects.map((c) => c.head)).toEqual([
        `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      ]);
      expect(await metric(registry, 'apiserver_egress_dialer_dial_start_total')).toEqual({ 'http_connect,uds': 1 });
      expect(await metric(registry, 'apiserver_egress_dialer_dial_duration_seconds')).toEqual({
        'http_connect,uds': 1,
      });
    } finally {
      await proxy.close();
    }
  });

  it('fails with kube-apiserver errors: refused, extra bytes, hanging, down', async () => {
    const path = join(dir, 'connect2.sock');
    const proxy = await ConnectProxy.start({ path });
    const registry = new Registry();
    const d = (
      await selector({ proxyProtocol: 'HTTPConnect', transport: { uds: { udsName: path } } }, registry)
    ).lookup('cluster')!;
    const addr = { host: '127.0.0.1', port: originPort };
    try {
      proxy.mode = 'refuse';
      await expect(d.dial(addr)).rejects.toThrow(
        `proxy error from ${path} while dialing 127.0.0.1:${originPort}, code 403: 403 Forbidden`,
      );
      proxy.mode = 'extra';
      await expect(d.dial(addr)).rejects.toThrow(`unexpected 5 bytes of buffered data from CONNECT proxy "${path}"`);
      proxy.mode = 'hang';
      const started = Date.now();
      const e = await d.dial(addr, { signal: AbortSignal.timeout(300) }).catch((x: unknown) => x);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(e).toBeInstanceOf(EgressDialError);
      expect((e as EgressDialError).message).toBe(
        `reading HTTP response from CONNECT to 127.0.0.1:${originPort} via proxy ${path} failed: context deadline exceeded`,
      );
      expect((e as EgressDialError).selection).toBe('cluster');
    } finally {
      await proxy.close();
    }
    await expect(d.dial(addr)).rejects.toThrow(`dial unix ${path}: connect: no such file or directory`);
    expect(await metric(registry, 'apiserver_egress_dialer_dial_failure_count')).toEqual({
      'http_connect,uds,proxy': 3,
      'http_connect,uds,connect': 1,
    });
  });
});

describe('HTTPConnect over TCP through tinyproxy (http:// URL)', () => {
  it('crosses tinyproxy, as its log shows, and fails cleanly once it is down', async () => {
    const tp = await Tinyproxy.start(dir);
    const d = (
      await selector({ proxyProtocol: 'HTTPConnect', transport: { tcp: { url: `http://127.0.0.1:${tp.port}` } } })
    ).lookup('cluster')!;
    try {
      expect(await get(d, '/tiny')).toBe('hello GET /tiny 0');
      expect(tp.connectRequests().join('\n')).toContain(`CONNECT 127.0.0.1:${originPort} HTTP/1.1`);
    } finally {
      await tp.close();
    }
    await expect(d.dial({ host: '127.0.0.1', port: originPort })).rejects.toThrow(
      `dial tcp 127.0.0.1:${tp.port}: connect: connection refused`,
    );
  });
});

describe('GRPC (konnectivity) over a Unix socket', () => {
  it('dials with DIAL_REQ, carries DATA both ways, closes with CLOSE_REQ/CLOSE_RSP', async () => {
    const path = join(dir, 'konn.sock');
    const server = await KonnectivityServer.start(path);
    const registry = new Registry();
    try {
      const d = (await selector({ proxyProtocol: 'GRPC', transport: { uds: { udsName: path } } }, registry)).lookup(
        'cluster',
      )!;
      expect(await get(d, '/k', Buffer.alloc(200_000, 2))).toBe('hello POST /k 200000');
      expect(server.dials).toEqual([`127.0.0.1:${originPort}`]);
      // Undici through the same dialer (fetch as jose and other fetch clients use it).
      const dispatcher = egressDispatcher(d);
      const res = await undiciFetch(`http://127.0.0.1:${originPort}/u`, { dispatcher });
      expect(await res.text()).toBe('hello GET /u 0');
      await dispatcher.close();
      expect(server.dials).toHaveLength(2);
      expect(server.received[0]).toBe('DIAL_REQ');
      expect(server.received).toContain('DATA');
      // Both connections were closed by the client: CLOSE_REQ, answered with CLOSE_RSP.
      await waitFor(() => server.received.filter((t) => t === 'CLOSE_REQ').length === 2, 5_000, undefined, {
        intervalMs: 10,
      });
      await waitFor(
        async () =>
          ((await metric(registry, 'konnectivity_network_proxy_client_stream_packets_total'))['to_client,CLOSE_RSP'] ??
            0) >= 2,
        5_000,
        undefined,
        { intervalMs: 10 },
      );
      const packets = await metric(registry, 'konnectivity_network_proxy_client_stream_packets_total');
      expect(packets['from_client,DIAL_REQ']).toBe(2);
      expect(packets['to_client,DIAL_RSP']).toBe(2);
      expect(await metric(registry, 'apiserver_egress_dialer_dial_start_total')).toEqual({ 'grpc,uds': 2 });
    } finally {
      await server.close();
    }
  });

  it('fails a dial as the konnectivity client does: endpoint error, backstop, dial closed, context, down', async () => {
    const path = join(dir, 'konn2.sock');
    const server = await KonnectivityServer.start(path);
    const registry = new Registry();
    const d = (await selector({ proxyProtocol: 'GRPC', transport: { uds: { udsName: path } } }, registry)).lookup(
      'cluster',
    )!;
    try {
      await expect(d.dial({ host: '127.0.0.1', port: 1 })).rejects.toThrow(/connect ECONNREFUSED 127\.0\.0\.1:1/);
      server.mode = 'silent';
      await expect(d.dial({ host: '127.0.0.1', port: originPort })).rejects.toThrow('dial timeout, backstop');
      await waitFor(() => server.received.at(-1) === 'DIAL_CLS', 5_000, undefined, { intervalMs: 10 });
      expect(server.received.slice(-2)).toEqual(['DIAL_REQ', 'DIAL_CLS']);
      const e = await d.dial({ host: '127.0.0.1', port: originPort }, { signal: AbortSignal.timeout(50) }).then(
        () => new Error('the dial succeeded'),
        (x: unknown) => x as EgressDialError,
      );
      expect(e.message === 'dial timeout, context' || e.message.startsWith('context canceled')).toBe(true);
      server.mode = 'dialclose';
      await expect(d.dial({ host: '127.0.0.1', port: originPort })).rejects.toThrow('dial closed');
    } finally {
      await server.close();
    }
    const started = Date.now();
    await expect(d.dial({ host: '127.0.0.1', port: originPort }, { signal: AbortSignal.timeout(500) })).rejects.toThrow(
      `context canceled: connection error: desc = "transport: Error while dialing: dial unix ${path}: connect: no such file or directory"`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const failures = await metric(registry, 'konnectivity_network_proxy_client_dial_failure_total');
    expect(failures['endpoint']).toBe(1);
    expect(failures['timeout']).toBe(1);
    expect(failures['dialclosed']).toBe(1);
  });
});
