import type { FastifyRequest, onResponseHookHandler } from 'fastify';
import type { RestRouteConfig } from '../install/installer.js';
import type { Query } from '../request/query.js';
import type { RequestLabels, ServerMetrics } from './metrics.js';

type Variants = { plain: RequestLabels; dry: RequestLabels };
/** Label sets of one route (its `rest` config object) by scope, then by verb: no key is built per request. */
type RouteLabels = Map<string, Variants>[];
const scopeNames = ['resource', 'namespace', 'cluster'] as const;

/** The `apiserver_request_total` labels of a resource request, from its RequestInfo (cached per distinct set). */
function labelsFor(byScope: RouteLabels, req: FastifyRequest, rest: RestRouteConfig['rest']): RequestLabels {
  const info = req.requestInfo;
  // CleanScope: a named object or a create is "resource".
  const s = info.name || info.verb === 'create' ? 0 : info.namespace ? 1 : 2;
  let verb: string;
  if (info.verb === 'watch') verb = 'WATCH';
  else if (info.verb === 'list') verb = 'LIST';
  else if (info.verb === 'get') verb = 'GET';
  else verb = req.method === 'HEAD' ? 'GET' : req.method;
  let v = byScope[s]!.get(verb);
  if (!v) {
    const plain: RequestLabels = {
      verb,
      group: rest.group,
      version: rest.version,
      resource: rest.resource,
      subresource: '',
      scope: scopeNames[s],
      component: 'apiserver',
      dry_run: '',
    };
    v = { plain, dry: { ...plain, dry_run: 'All' } };
    byScope[s]!.set(verb, v);
  }
  return (req.query as Query)['dryRun'] !== undefined ? v.dry : v.plain;
}

/** The request metrics of the resource routes, in the shape `installResources` takes them. */
export interface RequestMetricsFilter {
  /** The `onResponse` hook of one resource's routes, holding its route's labels. */
  readonly onResponse: (rest: RestRouteConfig['rest']) => onResponseHookHandler;
  /**
   * Counts a watch its client ended: such a watch never finishes its response, so it is counted
   * when the client goes away (a per-watch listener; an onRequestAbort hook would put one on
   * every request).
   */
  readonly onWatchAbandoned: (req: FastifyRequest) => void;
}

/**
 * The metrics filter: `apiserver_request_total` and `apiserver_request_duration_seconds` of
 * every resource request, labelled from its RequestInfo (kube-apiserver's `MonitorRequest`).
 * It is an onResponse hook on the resource routes only; other paths are not counted.
 */
export function requestMetricsFilter(metrics: ServerMetrics): RequestMetricsFilter {
  const routeLabels = new WeakMap<RestRouteConfig['rest'], RouteLabels>();
  const labelsOf = (rest: RestRouteConfig['rest']): RouteLabels => {
    let byScope = routeLabels.get(rest);
    if (!byScope) routeLabels.set(rest, (byScope = [new Map(), new Map(), new Map()]));
    return byScope;
  };
  return {
    onResponse: (rest) => {
      const byScope = labelsOf(rest);
      return (req, reply, done) => {
        metrics.observe(labelsFor(byScope, req, rest), reply.statusCode, reply.elapsedTime / 1000);
        done();
      };
    },
    onWatchAbandoned: (req) => {
      const rest = (req.routeOptions.config as Partial<RestRouteConfig>).rest;
      if (rest) metrics.observe(labelsFor(labelsOf(rest), req, rest), 200, 0);
    },
  };
}
