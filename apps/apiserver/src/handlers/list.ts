import { listMetaSchema, serializeObject } from '@kevents/api';
import type { CoreEvent, ListMeta } from '@kevents/api';
import { fromStorageError } from '../errors/api-error.js';
import { negotiate } from '../table/negotiate.js';
import { eventsToTable, parseIncludeObject } from '../table/table.js';
import type { Handler } from './context.js';
import { buildPredicate } from './predicate.js';
import { parseListOptions, q } from './query.js';
import { isPretty, sendJSON, sendJSONText } from './respond.js';
import { serveWatch } from './watch.js';

/** GET a collection: a list, or a watch when `watch=true` (or on a legacy `/watch/` path). */
export const listHandler = (forceWatch: boolean): Handler => async (ctx, req, reply) => {
  const opts = parseListOptions(req.query, forceWatch);
  const rep = negotiate(req.headers.accept);
  const predicate = buildPredicate(ctx.view, opts.labelSelector, opts.fieldSelector);
  if (opts.watch) return serveWatch(ctx, req, reply, opts, predicate, rep);
  const namespace = req.params.namespace;
  let page;
  try {
    page = await ctx.storage.list<CoreEvent>(
      { resource: 'events', ...(namespace !== undefined ? { namespace } : {}) },
      {
        resourceVersion: opts.resourceVersion,
        resourceVersionMatch: opts.resourceVersionMatch,
        limit: opts.limit,
        continue: opts.continue,
        predicate,
      },
    );
  } catch (err) {
    throw fromStorageError(err, ctx.view.gr);
  }
  const meta: ListMeta = { resourceVersion: page.resourceVersion };
  if (page.continue) meta.continue = page.continue;
  if (page.remainingItemCount !== undefined && page.continue) meta.remainingItemCount = page.remainingItemCount;
  const pretty = isPretty(req.query);
  if (rep.as === 'Table') {
    const include = parseIncludeObject(q(req.query, 'includeObject'));
    return sendJSON(reply, 200, eventsToTable(ctx.view, page.items, meta, { version: rep.version, include }), pretty);
  }
  if (pretty) {
    return sendJSON(reply, 200, { kind: ctx.view.listKind, apiVersion: ctx.view.groupVersion, metadata: meta, items: page.items.map((e) => ctx.view.toListItem(e)) }, true);
  }
  const head = `{"kind":${JSON.stringify(ctx.view.listKind)},"apiVersion":${JSON.stringify(ctx.view.groupVersion)},"metadata":${serializeObject(meta, listMetaSchema)},"items":[`;
  return sendJSONText(reply, 200, `${head}${page.items.map((e) => ctx.view.toJSON(e, false)).join(',')}]}`);
};
