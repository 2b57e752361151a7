import { deleteOptionsSchema, makeStatus } from '@kevents/api';
import type { CoreEvent } from '@kevents/api';
import { isStorageError, uidConflictError, conflictError } from '@kevents/storage';
import type { Preconditions } from '@kevents/storage';
import { fromStorageError } from '../errors/api-error.js';
import { decodeKind, mediaType, parseBody } from './body.js';
import { eventKey } from './context.js';
import type { Handler, HandlerContext, RestRequest } from './context.js';
import { buildPredicate } from './predicate.js';
import { parseDryRun, parseFieldValidation, parseListOptions } from './query.js';
import { isPretty, sendJSON } from './respond.js';

interface DeleteOptionsBody {
  preconditions?: Preconditions;
  dryRun?: string[];
}

/** Reads the optional DeleteOptions body; `dryRun` may come from the query or the body. */
function readDeleteOptions(req: RestRequest): { preconditions?: Preconditions; dryRun: boolean } {
  const raw = typeof req.body === 'string' ? req.body : '';
  let body: DeleteOptionsBody = {};
  if (raw.trim() !== '') {
    const parsed = parseBody(raw, mediaType(req.headers['content-type']) === 'application/yaml' ? 'application/yaml' : 'application/json');
    const v = parsed.value as Record<string, unknown>;
    const gv = typeof v?.['apiVersion'] === 'string' ? (v['apiVersion'] as string) : 'v1';
    body = decodeKind<DeleteOptionsBody>(parsed, deleteOptionsSchema, { groupVersion: gv, kind: 'DeleteOptions' }, parseFieldValidation(req.query)).object;
  }
  const dryRun = parseDryRun(req.query, 'DeleteOptions') || parseDryRun({ dryRun: body.dryRun }, 'DeleteOptions');
  return { ...(body.preconditions ? { preconditions: body.preconditions } : {}), dryRun };
}

const checkPreconditions = (ctx: HandlerContext, e: CoreEvent, p: Preconditions | undefined): void => {
  const key = eventKey(e.metadata.namespace ?? '', e.metadata.name ?? '');
  if (p?.uid && p.uid !== e.metadata.uid) throw uidConflictError(key, p.uid, e.metadata.uid ?? '');
  if (p?.resourceVersion && p.resourceVersion !== e.metadata.resourceVersion) {
    throw conflictError(key, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${e.metadata.resourceVersion ?? ''}`);
  }
  void ctx;
};

/** DELETE one object: 200 with a Success Status naming it (events are deleted at once). */
export const deleteHandler: Handler = async (ctx, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const { preconditions, dryRun } = readDeleteOptions(req);
  const key = eventKey(namespace, name);
  let deleted: CoreEvent;
  try {
    if (dryRun) {
      deleted = await ctx.storage.get<CoreEvent>(key);
      checkPreconditions(ctx, deleted, preconditions);
    } else {
      deleted = await ctx.storage.delete<CoreEvent>(key, preconditions ? { preconditions } : {});
    }
  } catch (err) {
    throw fromStorageError(err, ctx.view.gr, name);
  }
  const details = { name, ...(ctx.view.group ? { group: ctx.view.group } : {}), kind: ctx.view.resource, uid: deleted.metadata.uid ?? '' };
  return sendJSON(reply, 200, makeStatus({ status: 'Success', details }), isPretty(req.query));
};

/**
 * DELETE a collection: lists with the selectors, deletes each item, and answers with the list
 * of deleted items, as kube-apiserver's `DeleteCollection` does.
 */
export const deleteCollectionHandler: Handler = async (ctx, req, reply) => {
  const namespace = req.params.namespace ?? '';
  const { dryRun } = readDeleteOptions(req);
  const opts = parseListOptions(req.query);
  const predicate = buildPredicate(ctx.view, opts.labelSelector, opts.fieldSelector);
  let items: CoreEvent[];
  let resourceVersion: string;
  try {
    const page = await ctx.storage.list<CoreEvent>({ resource: 'events', namespace }, { predicate, resourceVersion: opts.resourceVersion, resourceVersionMatch: opts.resourceVersionMatch });
    items = page.items;
    resourceVersion = page.resourceVersion;
    if (!dryRun) {
      const deleted: CoreEvent[] = [];
      for (const e of items) {
        try {
          deleted.push(await ctx.storage.delete<CoreEvent>(eventKey(namespace, e.metadata.name ?? ''), { preconditions: { uid: e.metadata.uid } }));
        } catch (err) {
          if (!isStorageError(err, 'NotFound') && !isStorageError(err, 'Conflict')) throw err;
        }
      }
      items = deleted;
    }
  } catch (err) {
    throw fromStorageError(err, ctx.view.gr);
  }
  return sendJSON(reply, 200, {
    kind: ctx.view.listKind,
    apiVersion: ctx.view.groupVersion,
    metadata: { resourceVersion },
    items: items.map((e) => ctx.view.toListItem(e)),
  }, isPretty(req.query));
};
