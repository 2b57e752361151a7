import type { Handler } from './context.js';
import { decodeKind } from './body.js';
import { applyPatch, patchTypeOf } from './patch/apply.js';
import { parseDryRun, parseFieldValidation } from '../request/query.js';
import { isPretty, sendObject } from './respond.js';

/** PATCH with a JSON, merge or strategic merge patch; a missing object is a 404. */
export const patchHandler: Handler = async (scope, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const type = patchTypeOf(req.headers['content-type']);
  const dryRun = parseDryRun(req.query, 'PatchOptions');
  const fieldValidation = parseFieldValidation(req.query);
  const view = scope.view;
  let warnings: string[] = [];
  const result = await scope.store.update(
    namespace,
    name,
    (current) => {
      const patched = applyPatch(type, view.toExternal(current!), req.body);
      const decoded = decodeKind<Record<string, unknown>>(
        { value: patched, duplicates: [] },
        view.schema,
        view,
        fieldValidation,
      );
      warnings = decoded.warnings;
      const next = view.toInternal(decoded.object);
      next.metadata = next.metadata ?? {};
      return next;
    },
    { allowCreate: false, dryRun },
  );
  return sendObject(reply, 200, view, result.object, isPretty(req.query), warnings);
};
