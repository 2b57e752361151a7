import type { Handler } from './context.js';
import { decodeObjectBody } from './decode.js';
import { parseDryRun } from '../request/query.js';
import { isPretty, sendObject, sendSerialized } from './respond.js';

/** POST a new object to a collection: 201 with the stored object. */
export const createHandler: Handler = async (scope, req, reply) => {
  const namespace = req.params.namespace ?? '';
  const dryRun = parseDryRun(req.query, 'CreateOptions');
  const { object, warnings } = decodeObjectBody(scope.view, req);
  const stored = await scope.store.create(object, namespace, dryRun);
  const pretty = isPretty(req.query);
  if (dryRun || pretty) return sendObject(reply, 201, scope.view, stored, pretty, warnings);
  return sendSerialized(reply, 201, scope.store.storedJSON(stored), warnings);
};
