import type { Handler } from './context.js';
import { decodeKind } from './body.js';
import { applyPatch, patchTypeOf } from './patch/apply.js';
import { parseDryRun, parseFieldValidation } from './query.js';
import { isPretty, sendObject } from './respond.js';
import { updateObject } from './update.js';

/** PATCH with a JSON, merge or strategic merge patch; a missing object is a 404. */
export const patchHandler: Handler = async (ctx, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const type = patchTypeOf(req.headers['content-type']);
  const dryRun = parseDryRun(req.query, 'PatchOptions');
  const fieldValidation = parseFieldValidation(req.query);
  let warnings: string[] = [];
  const result = await updateObject(ctx, namespace, name, (current) => {
    const patched = applyPatch(type, ctx.view.toExternal(current!), req.body);
    const decoded = decodeKind<Record<string, unknown>>({ value: patched, duplicates: [] }, ctx.view.schema, ctx.view, fieldValidation);
    warnings = decoded.warnings;
    const next = ctx.view.toInternal(decoded.object);
    next.metadata = next.metadata ?? {};
    return next;
  }, { allowCreate: false, dryRun });
  return sendObject(reply, 200, ctx.view, result.object, isPretty(req.query), warnings);
};
