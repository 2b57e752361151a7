import { listMetaSchema, serializeObject } from '@kevents/api';
import type { ListMeta } from '@kevents/api';
import { negotiate } from '../table/negotiate.js';
import { parseIncludeObject, toTable } from '../table/table.js';
import type { Handler } from './context.js';
import { buildPredicate } from './predicate.js';
import { parseListOptions, q } from '../request/query.js';
import { isPretty, sendJSON, sendJSONText } from './respond.js';
import { serveWatch } from '../watch/watch.js';

/** GET a collection: a list, or a watch when RequestInfo says `watch` (`?watch=true` or a legacy `/watch/` path). */
export const listHandler: Handler = async (scope, req, reply) => {
  const opts = parseListOptions(req.query, req.requestInfo.verb === 'watch');
  const rep = negotiate(req.headers.accept);
  const predicate = buildPredicate(scope, opts.labelSelector, opts.fieldSelector);
  if (opts.watch) return serveWatch(scope, req, reply, opts, predicate, rep);
  const page = await scope.store.list(req.params.namespace, {
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    limit: opts.limit,
    continue: opts.continue,
    predicate,
  });
  const meta: ListMeta = { resourceVersion: page.resourceVersion };
  if (page.continue) meta.continue = page.continue;
  if (page.remainingItemCount !== undefined && page.continue) meta.remainingItemCount = page.remainingItemCount;
  const pretty = isPretty(req.query);
  const view = scope.view;
  if (rep.as === 'Table') {
    const include = parseIncludeObject(q(req.query, 'includeObject'));
    return sendJSON(reply, 200, toTable(scope, page.items, meta, { version: rep.version, include }), pretty);
  }
  if (pretty) {
    const items = page.items.map((o) => view.toListItem(o));
    return sendJSON(reply, 200, { kind: view.listKind, apiVersion: view.groupVersion, metadata: meta, items }, true);
  }
  const head = `{"kind":${JSON.stringify(view.listKind)},"apiVersion":${JSON.stringify(view.groupVersion)},"metadata":${serializeObject(meta, listMetaSchema)},"items":[`;
  return sendJSONText(reply, 200, `${head}${page.items.map((o) => view.toJSON(o, false)).join(',')}]}`);
};
