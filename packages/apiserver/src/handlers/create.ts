import { managerOrUserAgent } from '@kevents/managed-fields';
import type { Handler } from '../scope/rest-scope.js';
import { decodeObjectBody } from './decode.js';
import { parseWriteOptions } from '../request/write-options.js';
import { sendSerialized } from '../encoding/respond.js';
import { checkConversion, isPlain, negotiateWrite, sendObjectAs } from './represent.js';
import { requireObjectMediaType } from './body.js';

/**
 * POST a new object to a collection: 201 with the stored object (as negotiated). Its managedFields get an
 * `Update` entry for the fields it sets, under `fieldManager` or the User-Agent's first segment.
 */
export const createHandler: Handler = async (scope, req, reply) => {
  const namespace = req.params.namespace ?? '';
  const negotiated = negotiateWrite(req, scope);
  // kube's order: the answer's media type (406), the body's (415), the options, the body.
  requireObjectMediaType(req.headers['content-type'], scope.view.protobuf !== undefined);
  const { dryRun, fieldManager } = parseWriteOptions(req.query, { kind: 'CreateOptions' });
  const body = decodeObjectBody(scope.view, req, scope.valueLimits);
  // JSON is decoded at once; only YAML (read off the event loop when large) is waited for.
  const { object, warnings, values } = body instanceof Promise ? await body : body;
  checkConversion(negotiated, req, scope, 'object');
  // The body's count stands for the object's when the server makes all of its managedFields.
  const decodedValues = object.metadata.managedFields === undefined ? values : undefined;
  scope.fieldManager.update(undefined, object, managerOrUserAgent(fieldManager, req.headers['user-agent']));
  const stored = await scope.store.create(object, namespace, dryRun, decodedValues);
  if (dryRun || !isPlain(negotiated, req)) return sendObjectAs(scope, req, reply, 201, stored, negotiated, warnings);
  return sendSerialized(reply, 201, scope.texts.createdJSON(stored), warnings);
};
