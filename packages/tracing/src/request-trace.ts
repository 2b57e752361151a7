import { context, createContextKey, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Link, Span, TextMapPropagator, Tracer } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import { runInSpan } from './run-in-span.js';

/** Users whose incoming `traceparent` is honoured as the parent (kube-apiserver's public-endpoint rule). */
export const privilegedGroups: ReadonlySet<string> = new Set(['system:masters', 'system:monitoring']);

/** The context key holding a request's audit ID, for the spans below the handler (storage). */
export const auditIdKey = createContextKey('kevents audit-id');

/** The audit ID of the request whose work is running, if it is traced. */
export const currentAuditId = (): string | undefined => context.active().getValue(auditIdKey) as string | undefined;

/** The tracers of one provider, by the instrumentation scopes kube-apiserver uses. */
export interface RequestTracers {
  readonly http: Tracer;
  readonly filters: Tracer;
  readonly handlers: Tracer;
  readonly propagator: TextMapPropagator;
}

const headerGetter = {
  keys: (h: IncomingHttpHeaders) => Object.keys(h),
  get: (h: IncomingHttpHeaders, key: string) => h[key],
};

/**
 * One request's spans, as kube-apiserver emits them:
 * - `authentication` (filterlatency) starts first, from an empty context (it precedes `WithTracing`,
 *   so it is its own root, sampled by the ratio);
 * - the request span (otelhttp with Kubernetes' name formatter), backdated to the request's arrival:
 *   for `system:masters`/`system:monitoring` its parent is the incoming `traceparent` (or, without one,
 *   the authentication span); for everyone else it is a new root with a link to the incoming context;
 * - `authorization` and the handler span under it, and everything the handler runs (storage) under that.
 */
export class OtelRequestTrace {
  private readonly startTime = Date.now();
  private readonly extracted: Context;
  private readonly authnSpan: Span;
  private current: Context;
  private request?: Span;
  private requestContext?: Context;
  private filter?: Span;
  private ended = false;

  private readonly tracers: RequestTracers;

  constructor(tracers: RequestTracers, headers: IncomingHttpHeaders) {
    this.tracers = tracers;
    this.extracted = tracers.propagator.extract(ROOT_CONTEXT, headers, headerGetter);
    this.authnSpan = tracers.filters.startSpan('authentication', { startTime: this.startTime }, ROOT_CONTEXT);
    this.current = trace.setSpan(ROOT_CONTEXT, this.authnSpan);
  }

  enter(next: () => void): void {
    context.with(this.current, next);
  }

  authenticated(r: {
    user: { groups: readonly string[] } | undefined;
    name: string;
    method: string;
    target: string;
    auditId: string;
  }): void {
    this.authnSpan.end();
    const privileged = r.user?.groups.some((g) => privilegedGroups.has(g)) ?? false;
    const remote = trace.getSpanContext(this.extracted);
    const remoteValid = remote !== undefined && trace.isSpanContextValid(remote);
    let parent: Context;
    const links: Link[] = [];
    if (privileged) parent = remoteValid ? this.extracted : trace.setSpan(this.extracted, this.authnSpan);
    else {
      parent = trace.deleteSpan(this.extracted);
      if (remoteValid && remote.isRemote) links.push({ context: remote });
    }
    this.request = this.tracers.http.startSpan(
      r.name,
      {
        kind: SpanKind.SERVER,
        startTime: this.startTime,
        root: !privileged,
        links,
        attributes: { 'http.request.method': r.method, 'http.target': r.target, 'audit-id': r.auditId },
      },
      parent,
    );
    this.requestContext = trace.setSpan(parent, this.request).setValue(auditIdKey, r.auditId);
    this.current = this.requestContext;
  }

  startFilter(name: string): void {
    const parent = this.requestContext ?? this.current;
    this.filter = this.tracers.filters.startSpan(name, {}, parent);
    this.current = trace.setSpan(parent, this.filter);
  }

  endFilter(): void {
    this.filter?.end();
    this.filter = undefined;
    if (this.requestContext) this.current = this.requestContext;
  }

  handler<T>(name: string, attributes: Readonly<Record<string, string>>, fn: () => Promise<T>): Promise<T> {
    const parent = this.requestContext ?? this.current;
    const span = this.tracers.handlers.startSpan(name, { attributes }, parent);
    return runInSpan(span, parent, fn);
  }

  end(statusCode: number): void {
    if (this.ended) return;
    this.ended = true;
    this.filter?.end();
    if (!this.request) {
      this.authnSpan.end();
      return;
    }
    this.request.setAttribute('http.response.status_code', statusCode);
    if (statusCode >= 500) this.request.setStatus({ code: SpanStatusCode.ERROR });
    this.request.end();
  }
}

/** Writes the active trace context and baggage into outgoing request headers (webhooks, OIDC). */
export function injectTraceHeaders(propagator: TextMapPropagator, headers: Record<string, string>): void {
  propagator.inject(context.active(), headers, {
    set: (h: Record<string, string>, k: string, v: string) => {
      h[k] = v;
    },
  });
}
