import { managerOrUserAgent } from '@kevents/managed-fields';
import type { Handler } from '../scope/rest-scope.js';
import { decodeObjectBody } from './decode.js';
import { parseWriteOptions } from '../request/write-options.js';
import { checkConversion, negotiateWrite, sendObjectAs } from './represent.js';
import { requireObjectMediaType } from './body.js';

/**
 * PUT: replace, or create when the strategy allows create-on-update. 200, or 201 when created.
 * The fields the replacement changes go to the writer's `Update` entry in managedFields.
 */
export const updateHandler: Handler = async (scope, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const negotiated = negotiateWrite(req, scope);
  requireObjectMediaType(req.headers['content-type'], scope.view.protobuf !== undefined);
  const { dryRun, fieldManager } = parseWriteOptions(req.query, { kind: 'UpdateOptions' });
  const body = decodeObjectBody(scope.view, req, scope.valueLimits);
  // JSON is decoded at once; only YAML (read off the event loop when large) is waited for.
  const { object, warnings } = body instanceof Promise ? await body : body;
  checkConversion(negotiated, req, scope, 'object');
  const manager = managerOrUserAgent(fieldManager, req.headers['user-agent']);
  const result = await scope.store.update(
    namespace,
    name,
    (current) => {
      const next = structuredClone(object);
      scope.fieldManager.update(current, next, manager);
      return next;
    },
    { allowCreate: scope.strategy.allowCreateOnUpdate, dryRun },
  );
  return sendObjectAs(scope, req, reply, result.created ? 201 : 200, result.object, negotiated, warnings);
};
