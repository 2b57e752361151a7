import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, TextMapPropagator, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { credentials } from '@grpc/grpc-js';
import type { TracingConfiguration } from '@kevents/api';
import { startDialBridge } from './bridge.js';
import type { DialBridge } from './bridge.js';
import { defaultEndpoint, describeAddress, parseEndpoint } from './endpoint.js';
import type { CollectorAddress } from './endpoint.js';
import { injectTraceHeaders, OtelRequestTrace } from './request-trace.js';
import { runInSpan } from './run-in-span.js';
import type { RequestTracers } from './request-trace.js';
import { samplerFor } from './sampler.js';

/** `service.instance.id` (the semantic-conventions name; kube-apiserver sets it to its APIServerID). */
const ATTR_SERVICE_INSTANCE_ID = 'service.instance.id';

/** A dialer as the egress selector gives one (`EgressSelector.lookup('controlplane')`). */
export type EgressDial = (
  address: { host: string; port: number },
  options: { signal: AbortSignal },
) => Duplex | Promise<Duplex>;

/** Options of {@link startTracing}. */
export interface TracingOptions {
  /** `service.name`: `kevents-apiserver` (default) or `kevents-controller`. */
  readonly serviceName?: string;
  /** `service.instance.id`; default a new UUID per process (kube-apiserver's `apiserver-<uuid>`). */
  readonly instanceId?: string;
  /** The egress `controlplane` dialer, when an egress selector is configured. */
  readonly dial?: EgressDial;
  /** Batch delay (ms); default the `OTEL_BSP_SCHEDULE_DELAY` variable, else the SDK's 5000. */
  readonly scheduledDelayMillis?: number;
  /** Replaces the OTLP exporter (tests of the span shapes only). */
  readonly exporter?: SpanExporter;
}

/**
 * The tracing of one process from a `TracingConfiguration` (kube-apiserver's component-base
 * `NewProvider`): the OTLP gRPC exporter (always plaintext) to `endpoint` or `localhost:4317`,
 * a batch span processor, `ParentBased(TraceIDRatioBased(rate/1e6))` (never sampling at 0 or unset),
 * a resource of only `service.name` and `service.instance.id`, and W3C trace context + baggage.
 * It implements the server's tracing seam (`@kevents/apiserver`'s `ServerTracing`).
 */
export class Tracing {
  /** One line for the startup log. */
  readonly summary: string;
  readonly propagator: TextMapPropagator;
  private readonly tracers: RequestTracers;
  private readonly neverSamplesRoots: boolean;

  readonly provider: TracerProvider;
  /** `samplingRatePerMillion` (0 when unset). */
  readonly rate: number;
  private readonly bridge: DialBridge | undefined;

  private constructor(provider: TracerProvider, bridge: DialBridge | undefined, rate: number, summary: string) {
    this.provider = provider;
    this.bridge = bridge;
    this.rate = rate;
    this.summary = summary;
    this.neverSamplesRoots = rate === 0;
    this.propagator = new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    });
    this.tracers = {
      http: provider.getTracer('go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp'),
      filters: provider.getTracer('k8s.op/apiserver/pkg/endpoints/filterlatency'),
      handlers: provider.getTracer('k8s.io/component-base/tracing'),
      propagator: this.propagator,
    };
  }

  /** Builds the provider, its exporter and (with a dialer or an abstract socket) the dial bridge. */
  static async start(config: TracingConfiguration, o: TracingOptions = {}): Promise<Tracing> {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const address = parseEndpoint(config.endpoint ?? defaultEndpoint);
    let bridge: DialBridge | undefined;
    let url: string | undefined;
    let via = 'direct';
    if (o.dial && address.kind === 'tcp') {
      const dial = o.dial;
      bridge = await startDialBridge(({ signal }) => dial({ host: address.host, port: address.port }, { signal }));
      url = bridge.url;
      via = 'egress controlplane';
    } else if (address.kind === 'unix-abstract') {
      bridge = await startDialBridge(() => connect({ path: `\0${address.name}` }));
      url = bridge.url;
    } else if (address.kind === 'unix') url = `unix://${address.path}`;
    else if (config.endpoint !== undefined) url = `http://${describeAddress(address)}`;
    // Unset endpoint, no dialer: the exporter's default (localhost:4317, or OTEL_EXPORTER_OTLP_* variables).
    const exporter =
      o.exporter ?? new OTLPTraceExporter({ ...(url ? { url } : {}), credentials: credentials.createInsecure() });
    const envDelay = Number(process.env['OTEL_BSP_SCHEDULE_DELAY']);
    const delay = o.scheduledDelayMillis ?? (envDelay > 0 ? envDelay : undefined);
    const rate = config.samplingRatePerMillion ?? 0;
    const provider = new TracerProvider({
      sampler: samplerFor(rate),
      resource: resourceFromAttributes({
        [ATTR_SERVICE_NAME]: o.serviceName ?? 'kevents-apiserver',
        [ATTR_SERVICE_INSTANCE_ID]: o.instanceId ?? randomUUID(),
      }),
      spanProcessors: [new BatchSpanProcessor({ exporter, ...(delay ? { scheduledDelayMillis: delay } : {}) })],
    });
    const summary = `tracing: OTLP gRPC to ${describeTarget(address, config.endpoint)} (${via}, plaintext), sampling ${rate} per million`;
    return new Tracing(provider, bridge, rate, summary);
  }

  /** The server seam: a request's trace, or undefined when nothing of it can be sampled. */
  begin(request: { readonly method: string; readonly headers: IncomingHttpHeaders }): OtelRequestTrace | undefined {
    // Rate 0 and no incoming context: every span of this request would be a NeverSample root.
    if (this.neverSamplesRoots && request.headers['traceparent'] === undefined) return undefined;
    return new OtelRequestTrace(this.tracers, request.headers);
  }

  /** A tracer of this provider (another instrumentation scope). */
  tracer(name: string): Tracer {
    return this.provider.getTracer(name);
  }

  /**
   * Runs `fn` in a span named `name` under the active span, as component-base `tracing.Start`
   * does: only when a span is recording (a traced request's handler); otherwise `fn` runs bare.
   */
  withSpan<T>(scope: string, name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
    const parent = trace.getActiveSpan();
    if (!parent?.isRecording()) return fn();
    const span = this.provider.getTracer(scope).startSpan(name, { attributes });
    return runInSpan(span, context.active(), fn);
  }

  /**
   * Wraps an HTTP GET seam (the OIDC issuer client of `@kevents/authn`, a webhook client): one
   * client span per call, named `HTTP GET`, with `url.full` and the status, and the trace context
   * and baggage written into the request's headers.
   */
  httpClient<I extends { headers?: Readonly<Record<string, string>> }, R extends { status: number }>(
    client: (url: string, init?: I) => Promise<R>,
    method = 'GET',
  ): (url: string, init?: I) => Promise<R> {
    return (url, init) => {
      const parent = trace.getActiveSpan();
      if (!parent?.isRecording()) return client(url, init);
      const span = this.tracers.http.startSpan(`HTTP ${method}`, {
        kind: 2 /* CLIENT */,
        attributes: { 'http.request.method': method, 'url.full': url },
      });
      const ctx = trace.setSpan(context.active(), span);
      const headers: Record<string, string> = { ...(init?.headers ?? {}) };
      context.with(ctx, () => injectTraceHeaders(this.propagator, headers));
      return context
        .with(ctx, () => client(url, { ...(init ?? {}), headers } as I))
        .then(
          (res) => {
            span.setAttribute('http.response.status_code', res.status);
            if (res.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            return res;
          },
          (err: unknown) => {
            span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
            span.end();
            throw err;
          },
        );
    };
  }

  /** Writes the active trace context and baggage into `headers` (for webhook clients to call). */
  inject(headers: Record<string, string>): void {
    injectTraceHeaders(this.propagator, headers);
  }

  /** Exports what is buffered. */
  async flush(): Promise<void> {
    await this.provider.forceFlush();
  }

  /** Exports what is buffered, then stops the exporter (and the dial bridge). */
  async shutdown(): Promise<void> {
    await this.provider.shutdown();
    await this.bridge?.close();
  }
}

const describeTarget = (a: CollectorAddress, endpoint: string | undefined): string =>
  endpoint === undefined ? `${describeAddress(a)} (default)` : describeAddress(a);

/** {@link Tracing.start}. */
export const startTracing = (config: TracingConfiguration, o?: TracingOptions): Promise<Tracing> =>
  Tracing.start(config, o);
