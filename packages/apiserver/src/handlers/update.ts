import type { Handler } from './context.js';
import { decodeObjectBody } from './decode.js';
import { parseDryRun } from '../request/query.js';
import { isPretty, sendObject } from './respond.js';

/** PUT: replace, or create when the strategy allows create-on-update. 200, or 201 when created. */
export const updateHandler: Handler = async (scope, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const dryRun = parseDryRun(req.query, 'UpdateOptions');
  const { object, warnings } = decodeObjectBody(scope.view, req);
  const result = await scope.store.update(namespace, name, () => structuredClone(object), {
    allowCreate: scope.strategy.allowCreateOnUpdate,
    dryRun,
  });
  return sendObject(reply, result.created ? 201 : 200, scope.view, result.object, isPretty(req.query), warnings);
};
