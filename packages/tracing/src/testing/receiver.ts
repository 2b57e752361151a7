import { loadPackageDefinition, Server, ServerCredentials } from '@grpc/grpc-js';
import type { GrpcObject, ServiceClientConstructor, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import { otlpTraceDescriptor } from './otlp-proto.js';

/** An attribute value as the receiver reports it. */
export type AttributeValue = string | number | boolean | null | AttributeValue[];

/** One span as received, ids in lower-case hex. */
export interface ReceivedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly kind: number;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly links: readonly { traceId: string; spanId: string }[];
  readonly status: { code: number; message: string };
  /** The instrumentation scope's name. */
  readonly scope: string;
  /** The resource's attributes. */
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

interface RawKeyValue {
  key: string;
  value?: RawAnyValue;
}
interface RawAnyValue {
  value?: string;
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values?: RawAnyValue[] };
  bytesValue?: Buffer;
}
interface RawSpan {
  name: string;
  traceId: Buffer;
  spanId: Buffer;
  parentSpanId: Buffer;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: RawKeyValue[];
  links?: { traceId: Buffer; spanId: Buffer }[];
  status?: { code?: number; message?: string };
}
interface RawRequest {
  resourceSpans?: {
    resource?: { attributes?: RawKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: RawSpan[] }[];
  }[];
}

const anyValue = (v: RawAnyValue | undefined): AttributeValue => {
  if (!v) return null;
  switch (v.value) {
    case 'stringValue':
      return v.stringValue ?? '';
    case 'boolValue':
      return v.boolValue ?? false;
    case 'intValue':
      return Number(v.intValue);
    case 'doubleValue':
      return v.doubleValue ?? 0;
    case 'arrayValue':
      return (v.arrayValue?.values ?? []).map(anyValue);
    case 'bytesValue':
      return v.bytesValue?.toString('hex') ?? '';
    default:
      return null;
  }
};
const attributes = (kvs: RawKeyValue[] | undefined): Record<string, AttributeValue> =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, anyValue(kv.value)]));
const hex = (b: Buffer | undefined): string => (b ? Buffer.from(b).toString('hex') : '');

let service: ServiceClientConstructor['service'] | undefined;
function traceService(): ServiceClientConstructor['service'] {
  if (!service) {
    const def = fromJSON(otlpTraceDescriptor as Parameters<typeof fromJSON>[0], {
      longs: String,
      enums: Number,
      bytes: Buffer,
      defaults: true,
      oneofs: true,
    });
    const v1 = (
      ((loadPackageDefinition(def)['opentelemetry'] as GrpcObject)['proto'] as GrpcObject)['collector'] as GrpcObject
    )['trace'] as GrpcObject;
    service = ((v1['v1'] as GrpcObject)['TraceService'] as ServiceClientConstructor).service;
  }
  return service;
}

/**
 * A real OTLP/gRPC trace receiver (the collector's `TraceService/Export`) for tests and local
 * use: it keeps every span it is sent and lets a test wait for the spans it expects.
 */
export class OtlpTraceReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export calls received. */
  exports = 0;
  private waiters: { check: () => boolean; resolve: () => void }[] = [];

  private readonly server: Server;
  /** `127.0.0.1:<port>` or `unix:<path>`: what `TracingConfiguration.endpoint` should say. */
  readonly endpoint: string;

  private constructor(server: Server, endpoint: string) {
    this.server = server;
    this.endpoint = endpoint;
  }

  /** Called with each span as it arrives (a console printer, say). */
  onSpan?: (span: ReceivedSpan) => void;

  /** Listens on `127.0.0.1:0` (default), another `host:port`, or a Unix socket (`unix:///path`). */
  static async start(o: { address?: string } = {}): Promise<OtlpTraceReceiver> {
    const server = new Server();
    const holder: { receiver?: OtlpTraceReceiver } = {};
    server.addService(traceService(), {
      Export: (call: ServerUnaryCall<RawRequest, unknown>, callback: sendUnaryData<unknown>) => {
        holder.receiver?.receive(call.request);
        callback(null, {});
      },
    });
    const address = o.address ?? '127.0.0.1:0';
    const port = await new Promise<number>((ok, fail) =>
      server.bindAsync(address, ServerCredentials.createInsecure(), (err, p) => (err ? fail(err) : ok(p))),
    );
    holder.receiver = new OtlpTraceReceiver(server, address.startsWith('unix') ? address : `127.0.0.1:${port}`);
    return holder.receiver;
  }

  private receive(req: RawRequest): void {
    this.exports++;
    for (const rs of req.resourceSpans ?? []) {
      const resource = attributes(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            name: s.name,
            traceId: hex(s.traceId),
            spanId: hex(s.spanId),
            parentSpanId: hex(s.parentSpanId),
            kind: s.kind,
            startTimeUnixNano: BigInt(s.startTimeUnixNano),
            endTimeUnixNano: BigInt(s.endTimeUnixNano),
            attributes: attributes(s.attributes),
            links: (s.links ?? []).map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
            status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
            scope: ss.scope?.name ?? '',
            resource,
          });
          this.onSpan?.(this.spans[this.spans.length - 1]!);
        }
      }
    }
    this.waiters = this.waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `check(spans)` holds (checked on every export), or rejects after `timeoutMs`. */
  waitFor(check: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs = 20_000): Promise<void> {
    if (check(this.spans)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`OTLP receiver: condition not met within ${timeoutMs} ms (${this.spans.length} spans)`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ check: () => check(this.spans), resolve: done });
    });
  }

  /** Forgets the spans received so far. */
  clear(): void {
    this.spans.length = 0;
  }

  async close(): Promise<void> {
    await new Promise<void>((ok) => this.server.tryShutdown(() => ok()));
  }
}
