import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../errors/api-error.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import type { ResultMetrics } from '@kevents/metrics';
import { clientGone, whileClientWaits } from './authentication.js';
import { goQuote } from '@kevents/api';
import type { Authorizer, Decision, RequestAttributes, SelectorRequirement, UserInfo } from '@kevents/api';

/** Paths answered without asking the authorizer (kube-apiserver's `--authorization-always-allow-paths` default). */
export const alwaysAllowPaths: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/livez']);

const first = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

/** Field selector requirements as a SubjectAccessReview carries them; undefined when absent or unparsable. */
export function fieldSelectorRequirements(raw: string | undefined): SelectorRequirement[] | undefined {
  if (!raw) return undefined;
  try {
    const reqs = parseFieldSelector(raw).requirements.map((r): SelectorRequirement => ({
      key: r.field,
      operator: r.op === '=' ? 'In' : 'NotIn',
      values: [r.value],
    }));
    return reqs.length ? reqs : undefined;
  } catch {
    return undefined;
  }
}

const labelOperators: Readonly<Record<string, SelectorRequirement['operator']>> = {
  '=': 'In',
  '==': 'In',
  in: 'In',
  '!=': 'NotIn',
  notin: 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

/** Label selector requirements as a SubjectAccessReview carries them (`gt`/`lt` are dropped, as Kubernetes drops them). */
export function labelSelectorRequirements(raw: string | undefined): SelectorRequirement[] | undefined {
  if (!raw) return undefined;
  try {
    const out: SelectorRequirement[] = [];
    for (const r of parseLabelSelector(raw).requirements) {
      const operator = labelOperators[r.op];
      if (!operator) continue;
      out.push({ key: r.key, operator, ...(r.values.length ? { values: [...r.values] } : {}) });
    }
    return out.length ? out : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A request's authorization attributes and, made on first read (by an authorizer about to wait
 * on I/O: a webhook's cache miss), the signal the filter aborts when the client goes away. One
 * object per request, as the plain attributes were: a decision given at once costs no signal.
 */
class FilterAttributes implements RequestAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldSelector: readonly SelectorRequirement[] | undefined;
  readonly labelSelector: readonly SelectorRequirement[] | undefined;
  #controller: AbortController | undefined = undefined;

  constructor(req: FastifyRequest) {
    const info = req.requestInfo;
    this.user = req.user;
    this.verb = info.verb;
    this.isResourceRequest = info.isResourceRequest;
    this.path = info.path;
    this.apiGroup = info.apiGroup;
    this.apiVersion = info.apiVersion;
    this.resource = info.resource;
    this.subresource = info.subresource;
    this.namespace = info.namespace;
    this.name = info.name;
    if (info.isResourceRequest) {
      const q = (req.query ?? {}) as Record<string, unknown>;
      this.fieldSelector = fieldSelectorRequirements(first(q['fieldSelector']));
      this.labelSelector = labelSelectorRequirements(first(q['labelSelector']));
    } else {
      this.fieldSelector = undefined;
      this.labelSelector = undefined;
    }
  }

  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  /** Aborts the signal, when one was made. */
  abort(): void {
    this.#controller?.abort();
  }
}

/**
 * The authorization attributes of a request: its RequestInfo, its user and its selectors (absent
 * fields are `undefined`). Its `signal` is aborted only by the authorization filter, for the
 * attributes it builds itself.
 */
export function requestAttributes(req: FastifyRequest): RequestAttributes {
  return new FilterAttributes(req);
}

/** Go's `%q` of a string (close enough for the ASCII of user names and paths). */

/** responsewriters' sanitizer: `&`, `<` and `>` HTML-escaped. */
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The text kube-apiserver puts in a 403 (handlers/responsewriters/errors.go `forbiddenMessage`):
 * `User "u" cannot list resource "events" in API group "events.k8s.io" in the namespace "ns"`.
 */
export function forbiddenMessage(attrs: RequestAttributes): string {
  const user = attrs.user.username;
  if (!attrs.isResourceRequest) return `User ${goQuote(user)} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace ${goQuote(attrs.namespace)}` : 'at the cluster scope';
  return `User ${goQuote(user)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)} ${where}`;
}

/** The plain-text 500 of responsewriters.InternalError: `Internal Server Error: "<RequestURI>": <err>`. */
export function internalErrorText(requestURI: string, err: Error): string {
  return sanitize(`Internal Server Error: ${goQuote(requestURI)}: ${err.message}`);
}

type AttemptResult = 'allowed' | 'denied' | 'no-opinion' | 'error';

/**
 * The authorization filter (`WithAuthorization`): asks the authorizer before a request's body is
 * read. Allow passes; an answer with an error is a plain-text 500 (a failing webhook with
 * failurePolicy Deny, or one nobody overruled); any other answer is Kubernetes' 403 Status.
 * Nothing is installed for AlwaysAllow, so it costs nothing then.
 */
export function installAuthorization(
  app: FastifyInstance,
  authorizer: Authorizer | undefined,
  metrics?: { readonly authorization: ResultMetrics },
): void {
  if (!authorizer || authorizer.name === 'AlwaysAllow') return;
  const authorizations = metrics?.authorization;
  const record = (result: AttemptResult, start: number): void => {
    authorizations?.observe(result, (performance.now() - start) / 1000);
  };
  /** Carries the decision out: `done()` for Allow, a 500 sent here for an error, else `done(403)`. */
  const answer = (
    req: FastifyRequest,
    reply: FastifyReply,
    attrs: RequestAttributes,
    d: Decision,
    start: number,
    done: (err?: Error) => void,
  ): void => {
    if (d.decision === 'Allow') {
      record('allowed', start);
      return done();
    }
    if (d.error) {
      record('error', start);
      void reply
        .code(500)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(`${internalErrorText(req.url, d.error)}\n`);
      return; // answered: the chain stops without done()
    }
    record(d.decision === 'Deny' ? 'denied' : 'no-opinion', start);
    const msg = sanitize(forbiddenMessage(attrs));
    const why = d.reason ? `${msg}: ${d.reason}` : msg;
    const gr = attrs.isResourceRequest ? { group: attrs.apiGroup, resource: attrs.resource } : undefined;
    reply.header('x-content-type-options', 'nosniff');
    done(forbidden(why, gr, attrs.name || undefined));
  };
  const failed = (e: unknown): Decision => ({
    decision: 'NoOpinion',
    reason: '',
    error: e instanceof Error ? e : new Error(String(e)),
  });
  // A callback hook: a decision the authorizer gives synchronously (a warm webhook cache) passes
  // the request on without a promise, a signal or a listener. While a decision is pending the
  // client is watched: when it goes away (kube-apiserver's request context canceled) the signal
  // is aborted, which cuts the webhook call and its retries, and the chain stops here: nothing is
  // sent, the handler never runs, and no attempt is counted.
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (alwaysAllowPaths.has(req.requestInfo.path)) return done();
    // Gone while an earlier filter waited (one that does not watch the client): stop here.
    if (clientGone(reply.raw)) return;
    const attrs = new FilterAttributes(req);
    const start = authorizations ? performance.now() : 0;
    let d: Decision | Promise<Decision>;
    try {
      d = authorizer.authorize(attrs);
    } catch (e) {
      d = failed(e);
    }
    if (!(d instanceof Promise)) return answer(req, reply, attrs, d, start, done);
    let gone = false;
    const stop = whileClientWaits(reply.raw, () => {
      gone = true;
      attrs.abort();
    });
    d.then(
      (x) => x,
      (e: unknown) => failed(e),
    ).then((x) => {
      stop();
      if (!gone) answer(req, reply, attrs, x, start, done);
    });
  });
}
