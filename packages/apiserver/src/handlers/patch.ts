import { managerOrUserAgent } from '@kevents/managed-fields';
import type { KubeObject } from '@kevents/api';
import type { FastifyReply } from 'fastify';
import type { Handler, RestScope } from '../scope/rest-scope.js';
import type { RestRequest } from '../request/rest-request.js';
import { bodyText, decodeKind } from './body.js';
import { applyPatchBody, applyPatchType, patchTypeOf, readPatch } from './patch/apply.js';
import type { MergingPatchType, PatchBody } from './patch/apply.js';
import { applyJSONPatchOffLoop, inlineJSONPatchLimit } from './patch/json-patch-thread.js';
import type { JSONPatchOutcome } from './patch/json-patch-thread.js';
import { refuseOverflowingNumbers } from './patch/number-overflow.js';
import { decodePatched } from './patch/patch-decode.js';
import { countValuesUpTo, tooManyValues } from '../registry/object-values.js';
import { applyError, readApplyConfigurationOffLoop, strictApplyWarnings } from './patch/server-side-apply.js';
import { parseFieldValidation } from '../request/query.js';
import type { FieldValidation } from '../request/query.js';
import { parseWriteOptions } from '../request/write-options.js';
import type { WriteOptions } from '../request/write-options.js';
import { checkConversion, negotiateWrite, sendObjectAs } from './represent.js';
import type { Negotiated } from '../encoding/negotiate.js';

/**
 * PATCH with a JSON, merge or strategic merge patch (a missing object is a 404), or a
 * server-side apply (`application/apply-patch+yaml`, which creates a missing object: 201).
 */
export const patchHandler: Handler = async (scope, req, reply) => {
  const type = patchTypeOf(req.headers['content-type']);
  const negotiated = negotiateWrite(req, scope);
  checkConversion(negotiated, req, scope, 'object');
  const options = parseWriteOptions(req.query, { kind: 'PatchOptions', apply: type === applyPatchType });
  const fieldValidation = parseFieldValidation(req.query);
  if (type === applyPatchType) return serverSideApply(scope, req, reply, negotiated, options, fieldValidation);
  return mergingPatch(scope, req, reply, negotiated, type, options, fieldValidation);
};

async function mergingPatch<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  reply: FastifyReply,
  negotiated: Negotiated,
  type: MergingPatchType,
  options: WriteOptions,
  fieldValidation: FieldValidation,
): Promise<unknown> {
  const { namespace = '', name = '' } = req.params;
  const view = scope.view;
  const manager = managerOrUserAgent(options.fieldManager, req.headers['user-agent']);
  let warnings: string[] = [];
  let early = await jsonPatchOffLoop(scope, req, type, fieldValidation);
  const result = await scope.store.update(
    namespace,
    name,
    (current) => {
      const live = scope.fieldManager.external(current!);
      const limits = scope.valueLimits;
      let patch: PatchBody;
      let patched: unknown;
      // The thread's outcome stands for the object it was worked out on, once.
      const outcome = early?.resourceVersion === current?.metadata.resourceVersion ? early?.outcome : undefined;
      early = undefined;
      if (outcome !== undefined) {
        if ('error' in outcome) throw outcome.error;
        patch = { text: bodyText(req.body), value: undefined, strictErrors: outcome.strictErrors };
        patched = outcome.patched;
      } else {
        patch = readPatch(req.body, type, fieldValidation, limits);
        refuseOverflowingNumbers(type, patch, fieldValidation);
        patched = applyPatchBody(type, live, patch, limits, view.schema);
      }
      const decoded = decodePatched<Record<string, unknown>>(type, patch, patched, view, fieldValidation, limits);
      warnings = decoded.warnings;
      const next = view.toInternal(decoded.object);
      next.metadata = next.metadata ?? {};
      scope.fieldManager.update(current, next, manager, live);
      return next;
    },
    { allowCreate: false, dryRun: options.dryRun },
  );
  return sendObjectAs(scope, req, reply, 200, result.object, negotiated, warnings);
}

/**
 * A large JSON patch ({@link inlineJSONPatchLimit}) read and applied on the JSON patch thread to
 * the object as it is stored now, before the update: its outcome, and the resourceVersion it
 * stands for. The update's transform uses it when it is given that same object (nearly always),
 * and answers its error there, where it would have been thrown; otherwise (the object changed
 * meanwhile, or is missing, or the thread left the patch to the event loop) the transform reads
 * and applies the patch itself, as for a small one.
 */
async function jsonPatchOffLoop<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  type: MergingPatchType,
  fieldValidation: FieldValidation,
): Promise<{ resourceVersion: string | undefined; outcome: JSONPatchOutcome } | undefined> {
  if (type !== 'application/json-patch+json') return undefined;
  const text = bodyText(req.body);
  if (text.length <= inlineJSONPatchLimit) return undefined;
  const { namespace = '', name = '' } = req.params;
  let current: T;
  try {
    current = await scope.store.get(namespace, name);
  } catch {
    return undefined;
  }
  const live = scope.fieldManager.external(current);
  const outcome = await applyJSONPatchOffLoop(text, live, fieldValidation, scope.valueLimits);
  return outcome && { resourceVersion: current.metadata.resourceVersion, outcome };
}

/**
 * Server-side apply: the configuration merged into the stored object (or the kind's zero value)
 * by the field manager, with ownership, conflicts and `force`; then the usual create or update
 * (strategy, validation, no write when nothing changed).
 */
async function serverSideApply<T extends KubeObject>(
  scope: RestScope<T>,
  req: RestRequest,
  reply: FastifyReply,
  negotiated: Negotiated,
  options: WriteOptions,
  fieldValidation: FieldValidation,
): Promise<unknown> {
  const { namespace = '', name = '' } = req.params;
  const view = scope.view;
  const limits = scope.valueLimits;
  const config = await readApplyConfigurationOffLoop(req.body, limits);
  if (countValuesUpTo(config.object, limits.bodyValues) > limits.bodyValues) throw tooManyValues(limits.objectValues);
  let warnings: string[] = [];
  const result = await scope.store.update(
    namespace,
    name,
    (current) => {
      let applied;
      try {
        applied = scope.fieldManager.apply(current, config.object, options.fieldManager, options.force);
      } catch (err) {
        throw applyError(err);
      }
      warnings = strictApplyWarnings(config, fieldValidation);
      const decoded = decodeKind<Record<string, unknown>>(
        { value: applied, text: '', duplicates: [] },
        view.schema,
        view,
        'Ignore',
        { valueLimits: limits },
      );
      const next = view.toInternal(decoded.object);
      next.metadata = next.metadata ?? {};
      return next;
    },
    { allowCreate: true, dryRun: options.dryRun },
  );
  return sendObjectAs(scope, req, reply, result.created ? 201 : 200, result.object, negotiated, warnings);
}
