import { readFile } from 'node:fs/promises';
import type { JWTAuthenticator, TracingConfiguration } from '@kevents/api';
import { parseConfig } from '@kevents/config';
import type { ServerTracing } from '@kevents/apiserver';
import type { IssuerHttpClient } from '@kevents/authn';
import type { WebhookTransport } from '@kevents/authz';
import type { EgressSelector } from '@kevents/egress';
import type { Storage } from '@kevents/storage';
import { tracedStorage } from './traced-storage.js';

/** The tracing of `--tracing-config-file` and what it decorates. */
export interface TracingSetup {
  /** The server seam; undefined without a file (no hook is installed then). */
  readonly server?: ServerTracing;
  /** One line for the startup log. */
  readonly summary: string;
  /** The store with storage spans (the same store without a file). */
  storage(storage: Storage): Storage;
  /** The OIDC issuer clients with one span per fetch (the same clients without a file). */
  httpClientFor(inner: (a: JWTAuthenticator) => IssuerHttpClient): (a: JWTAuthenticator) => IssuerHttpClient;
  /**
   * The webhook authorizers' calls with one `HTTP POST` client span each and the trace context in
   * their headers (the calls unchanged without a file).
   */
  webhookTransport(transport: WebhookTransport, server: string): WebhookTransport;
  /** Exports the spans still buffered and stops the exporter (awaited by the graceful shutdown). */
  shutdown(): Promise<void>;
}

const none: TracingSetup = {
  summary: 'tracing: no --tracing-config-file; no spans are made',
  storage: (s) => s,
  httpClientFor: (inner) => inner,
  webhookTransport: (transport) => transport,
  shutdown: async () => undefined,
};

/**
 * Builds the tracing of `--tracing-config-file` (already validated by main). The OpenTelemetry
 * SDK is imported only here, only when a file is given: without one nothing of it is loaded.
 * With an egress selector, the exporter dials through its `controlplane` selection.
 */
export async function startTracing(o: {
  readonly file?: string;
  readonly groupDomain?: string;
  readonly egress?: EgressSelector;
  readonly serviceName?: string;
}): Promise<TracingSetup> {
  if (!o.file) return none;
  const parsed = parseConfig<TracingConfiguration>(await readFile(o.file, 'utf8'), {
    ...(o.groupDomain ? { groupDomain: o.groupDomain } : {}),
    expectedKind: 'TracingConfiguration',
  });
  if (!parsed.ok) throw new Error(`${o.file}: ${parsed.errors.map(String).join('; ')}`);
  const { Tracing, currentAuditId } = await import('@kevents/tracing');
  const controlplane = o.egress?.lookup('controlplane');
  const tracing = await Tracing.start(parsed.config, {
    serviceName: o.serviceName ?? 'kevents-apiserver',
    ...(controlplane ? { dial: (address, options) => controlplane.dial(address, options) } : {}),
  });
  return {
    server: tracing,
    summary: `${tracing.summary} (from ${o.file})`,
    storage: (s) => tracedStorage(s, tracing, currentAuditId),
    httpClientFor: (inner) => (a) => tracing.httpClient(inner(a)),
    webhookTransport: (transport, server) => {
      type Init = { headers?: Readonly<Record<string, string>>; body?: string; signal?: AbortSignal };
      const traced = tracing.httpClient(
        (_url: string, init?: Init) => transport(init?.body ?? '', init?.headers, init?.signal),
        'POST',
      );
      return (body, headers, signal) =>
        traced(server, { body, ...(headers ? { headers } : {}), ...(signal ? { signal } : {}) });
    },
    shutdown: () => tracing.shutdown(),
  };
}
