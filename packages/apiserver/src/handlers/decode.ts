import type { KubeObject } from '@kevents/api';
import type { VersionedView } from '../registry/view.js';
import { decodeKind, parseBody, requireObjectMediaType } from './body.js';
import type { RestRequest } from '../request/rest-request.js';
import { parseFieldValidation } from '../request/query.js';

/** Decodes a create/update body into the stored form, with the field-validation warnings. */
export function decodeObjectBody<T extends KubeObject>(
  view: VersionedView<T>,
  req: RestRequest,
): { object: T; warnings: string[] } {
  requireObjectMediaType(req.headers['content-type']);
  const unrecognized = { unrecognizedKind: view.kind };
  const parsed = parseBody(req.body, req.headers['content-type'], unrecognized);
  const fieldValidation = parseFieldValidation(req.query);
  const decoded = decodeKind<Record<string, unknown>>(parsed, view.schema, view, fieldValidation, unrecognized);
  const object = view.toInternal(decoded.object);
  object.metadata = object.metadata ?? {};
  return { object, warnings: decoded.warnings };
}
