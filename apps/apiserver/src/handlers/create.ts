import type { CoreEvent } from '@kevents/api';
import { isStorageError } from '@kevents/storage';
import { alreadyExists, ApiError, fromStorageError, invalid } from '../errors/api-error.js';
import { decodeKind, parseBody, requireObjectMediaType } from './body.js';
import { eventKey } from './context.js';
import type { Handler, HandlerContext } from './context.js';
import { generateName, prepareForCreate } from './prepare.js';
import { parseDryRun, parseFieldValidation } from './query.js';
import { isPretty, sendObject } from './respond.js';

const maxNameGenerationAttempts = 8;

/** Decodes a create/update body into the stored form, with the field-validation warnings. */
export function decodeEventBody(ctx: HandlerContext, req: Parameters<Handler>[1]): { event: CoreEvent; warnings: string[] } {
  requireObjectMediaType(req.headers['content-type']);
  const parsed = parseBody(req.body, req.headers['content-type']);
  const decoded = decodeKind<Record<string, unknown>>(parsed, ctx.view.schema, ctx.view, parseFieldValidation(req.query));
  const event = ctx.view.toInternal(decoded.object);
  event.metadata = event.metadata ?? {};
  return { event, warnings: decoded.warnings };
}

/** Validates a new event and answers 422 with Kubernetes' causes when it is invalid. */
export function validateForCreate(ctx: HandlerContext, e: CoreEvent): void {
  const errs = ctx.view.validateCreate(e);
  if (errs.length) throw invalid({ group: '', kind: ctx.view.kind }, e.metadata.name ?? '', errs);
}

/** Stores a prepared new event, retrying generated names on collision (RetryGenerateName). */
export async function storeNew(ctx: HandlerContext, e: CoreEvent, namespace: string, dryRun: boolean): Promise<CoreEvent> {
  const generated = !!e.metadata.generateName && e.metadata.name?.startsWith(e.metadata.generateName) === true;
  for (let attempt = 1; ; attempt++) {
    const key = eventKey(namespace, e.metadata.name ?? '');
    try {
      if (dryRun) {
        const exists = await ctx.storage.get(key).then(() => true, (err: unknown) => {
          if (isStorageError(err, 'NotFound')) return false;
          throw err;
        });
        if (exists) throw alreadyExists(ctx.view.gr, key.name);
        return e;
      }
      return await ctx.storage.create(key, e);
    } catch (err) {
      const conflict = isStorageError(err, 'AlreadyExists') || (err instanceof ApiError && err.status.reason === 'AlreadyExists');
      if (conflict && generated) {
        if (attempt >= maxNameGenerationAttempts) {
          throw alreadyExists(ctx.view.gr, key.name, ', the server was not able to generate a unique name for the object');
        }
        e.metadata.name = generateName(e.metadata.generateName!);
        continue;
      }
      throw fromStorageError(err, ctx.view.gr, key.name);
    }
  }
}

/** POST a new object to a namespaced collection: 201 with the stored object. */
export const createHandler: Handler = async (ctx, req, reply) => {
  const namespace = req.params.namespace ?? '';
  const dryRun = parseDryRun(req.query, 'CreateOptions');
  const { event, warnings } = decodeEventBody(ctx, req);
  prepareForCreate(event, namespace);
  validateForCreate(ctx, event);
  const stored = await storeNew(ctx, event, namespace, dryRun);
  return sendObject(reply, 201, ctx.view, stored, isPretty(req.query), warnings);
};
