import { randomUUID } from '../request/random-uuid.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserInfo } from '@kevents/api';
import type { RequestInfo } from '../request/request-info.js';
import { declareAuditId, setAuditId, tracedAuditId } from '../request/audit-id.js';

/**
 * Tracing as the server sees it: a seam with no OpenTelemetry in it. `@kevents/tracing`
 * implements it and the app passes it as {@link ApiServerOptions.tracing}; without it nothing
 * below is installed, so a server without tracing pays nothing, not even a check.
 */
export interface ServerTracing {
  /**
   * A request arrived (before authentication). Undefined when nothing of this request can be
   * sampled (rate 0 and no `traceparent`): the rest of the request then costs one field read.
   */
  begin(request: { readonly method: string; readonly headers: IncomingHttpHeaders }): RequestTrace | undefined;
}

/** What the server reports of one traced request, in order. */
export interface RequestTrace {
  /** Calls `next` inside the trace's current span, so the async work `next` starts inherits it. */
  enter(next: () => void): void;
  /** Authentication is over: ends its span and starts the request span, parented per the user. */
  authenticated(request: AuthenticatedRequest): void;
  /** Starts a filter span (`authorization`) under the request span. */
  startFilter(name: string): void;
  /** Ends the open filter span. */
  endFilter(): void;
  /** Runs a REST handler in a span of this name under the request span (`Create`, `List`...). */
  handler<T>(name: string, attributes: Readonly<Record<string, string>>, fn: () => Promise<T>): Promise<T>;
  /** The response went out (or the request ended early): ends every open span. */
  end(statusCode: number): void;
}

/** The request span's inputs, known once authentication is over. */
export interface AuthenticatedRequest {
  readonly user: UserInfo | undefined;
  /** Kubernetes' span name: `POST /apis/events.k8s.io/v1/namespaces/{:namespace}/events`, or the method. */
  readonly name: string;
  readonly method: string;
  /** The request URI (`http.target`). */
  readonly target: string;
  readonly auditId: string;
}

const traceSlot = 'keventsTrace';
type Traced = FastifyRequest & { [traceSlot]: RequestTrace | null };

/** The trace of a request, when tracing is on and the request can be sampled. */
export const requestTrace = (req: FastifyRequest): RequestTrace | null | undefined => (req as Traced)[traceSlot];

/**
 * kube-apiserver's span name (`endpoints/filters/traces.go` `getSpanNameFromRequestInfo`):
 * `<METHOD> /<api|apis>[/<group>]/<version>[/namespaces/{:namespace}]/<resource>[/{:name}][/<subresource>]`,
 * or the method alone for a non-resource request.
 */
export function requestSpanName(method: string, info: RequestInfo): string {
  if (!info.isResourceRequest) return method;
  let name = `${method} /${info.apiPrefix}`;
  if (info.apiGroup) name += `/${info.apiGroup}`;
  name += `/${info.apiVersion}`;
  if (info.namespace && !(info.resource === 'namespaces' && info.name === info.namespace))
    name += '/namespaces/{:namespace}';
  name += `/${info.resource}`;
  if (info.name) name += '/{:name}';
  if (info.subresource) name += `/${info.subresource}`;
  return name;
}

/**
 * Installs the hook that starts a request's trace; call it just before the authentication filter.
 * It also fixes the request's `Audit-Id` (the client's, or a new UUID) so spans and response agree.
 */
export function installTracingStart(app: FastifyInstance, tracing: ServerTracing): void {
  app.decorateRequest(traceSlot, null);
  declareAuditId(app);
  app.addHook('onRequest', (req, reply, done) => {
    const trace = tracing.begin(req);
    if (!trace) return done();
    const r = req as Traced;
    const given = req.headers['audit-id'];
    const auditId = typeof given === 'string' && given ? given : randomUUID();
    setAuditId(req, auditId);
    reply.header('Audit-Id', auditId);
    r[traceSlot] = trace;
    trace.enter(done);
  });
  app.addHook('onResponse', (req, reply, done) => {
    (req as Traced)[traceSlot]?.end(reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (req, done) => {
    (req as Traced)[traceSlot]?.end(499);
    done();
  });
}

/** Installs the hook after authentication (request span, then the `authorization` span). */
export function installTracingAuthenticated(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const r = req as Traced;
    const trace = r[traceSlot];
    if (!trace) return done();
    trace.authenticated({
      user: req.user ?? undefined,
      name: requestSpanName(req.method, req.requestInfo),
      method: req.method,
      target: req.url,
      auditId: tracedAuditId(req) ?? '',
    });
    trace.startFilter('authorization');
    trace.enter(done);
  });
}

/** Installs the hook after authorization (ends its span). */
export function installTracingAuthorized(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    (req as Traced)[traceSlot]?.endFilter();
    done();
  });
}

/** kube-apiserver's handler span names, by RequestInfo verb. */
const handlerSpanNames: Readonly<Record<string, string>> = {
  create: 'Create',
  update: 'Update',
  patch: 'Patch',
  delete: 'Delete',
  deletecollection: 'Delete',
  get: 'Get',
  list: 'List',
  watch: 'WatchList',
};

/**
 * Runs a REST handler, inside its span (`Create`, `List`, ...) when the request is traced, with
 * the attributes of kube-apiserver's `traceFields`.
 */
export function traceHandler<T>(req: FastifyRequest, fn: () => Promise<T>): Promise<T> {
  const trace = (req as Partial<Traced>)[traceSlot];
  if (!trace) return fn();
  const info = req.requestInfo;
  const name = handlerSpanNames[info.verb] ?? info.verb;
  const scope = info.name || info.verb === 'create' ? 'resource' : info.namespace ? 'namespace' : 'cluster';
  const ua = req.headers['user-agent'] ?? '';
  return trace.handler(
    name,
    {
      accept: req.headers.accept ?? '',
      'audit-id': tracedAuditId(req) ?? '',
      client: req.ip,
      'api-group': info.apiGroup,
      'api-version': info.apiVersion,
      name: info.name,
      subresource: info.subresource,
      namespace: info.namespace,
      protocol: `HTTP/${req.raw.httpVersion === '2.0' ? '2.0' : req.raw.httpVersion}`,
      resource: info.resource,
      scope,
      url: info.path,
      'user-agent': ua.length > 256 ? `${ua.slice(0, 256)}...` : ua,
      verb: info.verb === 'watch' ? 'WATCH' : info.verb === 'list' ? 'LIST' : req.method,
    },
    fn,
  );
}
