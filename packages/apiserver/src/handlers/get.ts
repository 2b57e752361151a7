import type { Handler } from '../scope/rest-scope.js';
import { checkResourceVersion, q } from '../request/query.js';
import { sendJSONText } from '../encoding/respond.js';
import { isPlain, partOf, sendObjectAs } from './represent.js';
import { negotiateOutput } from '../encoding/negotiate.js';
import { formatsOf } from './protobuf-answer.js';

/**
 * GET one object (`resourceVersion` "0" = any, "N" = not older than N), as negotiated: compact
 * JSON from the texts kept or encoded once, anything else from the object decoded to be read only.
 */
export const getHandler: Handler = async (scope, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const negotiated = negotiateOutput(req.headers.accept, formatsOf(scope.view));
  const resourceVersion = q(req.query, 'resourceVersion');
  checkResourceVersion(resourceVersion);
  if (isPlain(negotiated, req)) {
    const text = await scope.texts.getJSON(namespace, name, resourceVersion);
    if (text !== undefined) return sendJSONText(reply, 200, text, { escaped: true });
  }
  const obj =
    (await scope.texts.getObject(namespace, name, resourceVersion, partOf(negotiated))) ??
    (await scope.store.get(namespace, name, resourceVersion));
  return sendObjectAs(scope, req, reply, 200, obj, negotiated);
};
