import type { CoreEvent } from '@kevents/api';
import { fromStorageError } from '../errors/api-error.js';
import { negotiate } from '../table/negotiate.js';
import { eventsToTable, parseIncludeObject } from '../table/table.js';
import { eventKey } from './context.js';
import type { Handler } from './context.js';
import { q } from './query.js';
import { isPretty, sendJSON, sendObject } from './respond.js';

/** GET one object (`resourceVersion` "0" = any, "N" = not older than N). */
export const getHandler: Handler = async (ctx, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const rep = negotiate(req.headers.accept);
  let obj: CoreEvent;
  try {
    obj = await ctx.storage.get<CoreEvent>(eventKey(namespace, name), { resourceVersion: q(req.query, 'resourceVersion') });
  } catch (err) {
    throw fromStorageError(err, ctx.view.gr, name);
  }
  const pretty = isPretty(req.query);
  if (rep.as === 'Table') {
    const include = parseIncludeObject(q(req.query, 'includeObject'));
    return sendJSON(reply, 200, eventsToTable(ctx.view, [obj], { resourceVersion: obj.metadata.resourceVersion }, { version: rep.version, include }), pretty);
  }
  return sendObject(reply, 200, ctx.view, obj, pretty);
};
