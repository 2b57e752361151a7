import type { CoreEvent } from '@kevents/api';
import { isStorageError, optimisticLockErrorMsg } from '@kevents/storage';
import { badRequest, conflict, fromStorageError, invalid, notFound } from '../errors/api-error.js';
import { decodeEventBody, storeNew, validateForCreate } from './create.js';
import { eventKey } from './context.js';
import type { Handler, HandlerContext } from './context.js';
import { deepEqual } from '@kevents/validation';
import { checkNamespace, prepareForCreate, prepareForUpdate } from './prepare.js';
import { parseDryRun } from './query.js';
import { isPretty, sendObject } from './respond.js';

/** Builds the new object from the current one (undefined when it does not exist). */
export type Transform = (current: CoreEvent | undefined) => CoreEvent;

const withoutRV = (e: CoreEvent): CoreEvent => ({ ...e, metadata: { ...e.metadata, resourceVersion: undefined } });

/**
 * The generic update of `registry.Store.Update`: read, transform, check the optimistic lock
 * (a non-empty resourceVersion must match), keep system fields, validate, and write only when
 * something changed. With `allowCreate` a missing object is created (201).
 */
export async function updateObject(
  ctx: HandlerContext,
  namespace: string,
  name: string,
  transform: Transform,
  opts: { allowCreate: boolean; dryRun: boolean },
): Promise<{ object: CoreEvent; created: boolean }> {
  const key = eventKey(namespace, name);
  let created = false;
  let unchanged: CoreEvent | undefined;
  const tryUpdate = (current: CoreEvent | undefined): CoreEvent => {
    unchanged = undefined;
    if (!current && !opts.allowCreate) throw notFound(ctx.view.gr, name);
    const next = transform(current);
    if (next.metadata.name !== name) {
      throw badRequest(`the name of the object (${next.metadata.name ?? ''}) does not match the name on the URL (${name})`);
    }
    if (!current) {
      created = true;
      next.metadata.resourceVersion = undefined;
      prepareForCreate(next, namespace);
      validateForCreate(ctx, next);
      return next;
    }
    created = false;
    checkNamespace(next, namespace);
    const rv = next.metadata.resourceVersion;
    if (rv && rv !== current.metadata.resourceVersion) throw conflict(ctx.view.gr, name, optimisticLockErrorMsg);
    prepareForUpdate(next, current);
    next.metadata.resourceVersion = current.metadata.resourceVersion;
    const errs = ctx.view.validateUpdate(next, current);
    if (errs.length) throw invalid({ group: '', kind: ctx.view.kind }, name, errs);
    if (deepEqual(withoutRV(next), withoutRV(current))) unchanged = current;
    return next;
  };
  try {
    if (opts.dryRun) {
      const current = await ctx.storage.get<CoreEvent>(key).catch((err: unknown) => {
        if (isStorageError(err, 'NotFound')) return undefined;
        throw err;
      });
      const next = tryUpdate(current);
      if (created) await storeNew(ctx, next, namespace, true);
      return { object: next, created };
    }
    const stored = await ctx.storage.guaranteedUpdate<CoreEvent>(key, (current) => {
      const next = tryUpdate(current);
      if (unchanged) throw new UnchangedSignal(unchanged);
      return next;
    }, { ignoreNotFound: opts.allowCreate });
    return { object: stored, created };
  } catch (err) {
    if (err instanceof UnchangedSignal) return { object: err.current, created: false };
    throw fromStorageError(err, ctx.view.gr, name);
  }
}

/** Ends a guaranteed update without a write when nothing changed (Kubernetes skips no-op writes). */
class UnchangedSignal extends Error {
  readonly current: CoreEvent;
  constructor(current: CoreEvent) {
    super('unchanged');
    this.current = current;
  }
}

/** PUT: replace (or create, since events allow create on update). 200, or 201 when created. */
export const updateHandler: Handler = async (ctx, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const dryRun = parseDryRun(req.query, 'UpdateOptions');
  const { event, warnings } = decodeEventBody(ctx, req);
  const result = await updateObject(ctx, namespace, name, () => structuredClone(event), { allowCreate: true, dryRun });
  return sendObject(reply, result.created ? 201 : 200, ctx.view, result.object, isPretty(req.query), warnings);
};
