import { resolve } from 'node:path';

/** Where the OTLP exporter connects: a TCP host and port, a Unix socket path, or a Linux abstract socket. */
export type CollectorAddress =
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number }
  | { readonly kind: 'unix'; readonly path: string }
  | { readonly kind: 'unix-abstract'; readonly name: string };

/** The exporter's default collector (`localhost:4317`). */
export const defaultEndpoint = 'localhost:4317';

/**
 * Reads `TracingConfiguration.endpoint` as grpc-go reads the target kube-apiserver passes it
 * (https://github.com/grpc/grpc/blob/master/doc/naming.md): `host:port`, `dns:[//authority/]host[:port]`,
 * `unix:path` / `unix:///absolute-path`, `unix-abstract:name`. A missing port is gRPC's 443.
 * Validation (`@kevents/validation`) has already refused other schemes.
 */
export function parseEndpoint(endpoint: string = defaultEndpoint): CollectorAddress {
  if (endpoint.startsWith('unix-abstract:')) {
    const name = endpoint.slice('unix-abstract:'.length).replace(/^\/\//, '');
    return { kind: 'unix-abstract', name };
  }
  if (endpoint.startsWith('unix:')) {
    const rest = endpoint.slice('unix:'.length);
    const path = rest.startsWith('//') ? rest.slice(2) : rest;
    return { kind: 'unix', path: resolve(path) };
  }
  let hostport = endpoint;
  if (hostport.startsWith('dns:')) {
    hostport = hostport.slice('dns:'.length);
    if (hostport.startsWith('//')) hostport = hostport.slice(hostport.indexOf('/', 2) + 1);
  }
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostport) ?? /^([^:]*)(?::(\d+))?$/.exec(hostport);
  if (!m) throw new Error(`tracing: cannot read the endpoint ${JSON.stringify(endpoint)}`);
  return { kind: 'tcp', host: m[1] || 'localhost', port: m[2] ? Number(m[2]) : 443 };
}

/** One line for logs: `localhost:4317`, `unix:/run/otel.sock`, `unix-abstract:otel`. */
export function describeAddress(a: CollectorAddress): string {
  if (a.kind === 'tcp') return `${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
  return a.kind === 'unix' ? `unix:${a.path}` : `unix-abstract:${a.name}`;
}
