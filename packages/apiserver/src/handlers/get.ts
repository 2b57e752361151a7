import { negotiate } from '../table/negotiate.js';
import { parseIncludeObject, toTable } from '../table/table.js';
import type { Handler } from '../scope/rest-scope.js';
import { checkResourceVersion, q } from '../request/query.js';
import { isPretty, sendJSON, sendJSONText, sendObject } from '../encoding/respond.js';

/** GET one object (`resourceVersion` "0" = any, "N" = not older than N). */
export const getHandler: Handler = async (scope, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const rep = negotiate(req.headers.accept);
  const resourceVersion = q(req.query, 'resourceVersion');
  checkResourceVersion(resourceVersion);
  const pretty = isPretty(req.query);
  if (rep.as !== 'Table' && !pretty) {
    const text = await scope.texts.getJSON(namespace, name, resourceVersion);
    if (text !== undefined) return sendJSONText(reply, 200, text);
  }
  const obj = await scope.store.get(namespace, name, resourceVersion);
  if (rep.as === 'Table') {
    const include = parseIncludeObject(q(req.query, 'includeObject'));
    const table = toTable(
      scope,
      [obj],
      { resourceVersion: obj.metadata.resourceVersion },
      { version: rep.version, include },
    );
    return sendJSON(reply, 200, table, pretty);
  }
  return sendObject(reply, 200, scope.view, obj, pretty);
};
