import { deleteOptionsSchema, makeStatus } from '@kevents/api';
import type { Preconditions } from '@kevents/storage';
import { decodeKind, mediaType, parseBodyOffLoop, parseProtobufBody, requireObjectMediaType } from './body.js';
import type { Handler } from '../scope/rest-scope.js';
import type { RestRequest } from '../request/rest-request.js';
import type { ValueLimits } from '../registry/value-limits.js';
import { buildPredicate } from './predicate.js';
import { invalid as fieldInvalid, notSupported } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import { invalid } from '../errors/api-error.js';
import { intParam, parseDryRun, parseFieldValidation, parseListOptions, q } from '../request/query.js';
import { queryBool } from '../request/query.js';
import { isPretty, sendNegotiated, sendProtobuf } from '../encoding/respond.js';
import { protobufMediaType, protobufStatus } from './protobuf-answer.js';
import { checkConversion, negotiateWrite, sendObjectAs } from './represent.js';
import { sendListAnswer } from './list-answer.js';

interface DeleteOptionsBody {
  preconditions?: Preconditions;
  dryRun?: string[];
  propagationPolicy?: string;
  orphanDependents?: boolean;
}

/** The `propagationPolicy` values Kubernetes accepts. */
const propagationPolicies = ['Foreground', 'Background', 'Orphan'];

/**
 * `ValidateDeleteOptions` (k8s.io/apimachinery meta/v1/validation): `propagationPolicy` among
 * Foreground, Background and Orphan, and not together with the deprecated `orphanDependents`.
 * A 422 `DeleteOptions.meta.k8s.io "" is invalid: ...` as kube's delete handlers answer.
 */
function validateDeleteOptions(options: { propagationPolicy?: string; orphanDependents?: boolean }): void {
  const errors: FieldError[] = [];
  const policy = options.propagationPolicy;
  if (options.orphanDependents !== undefined && policy !== undefined) {
    errors.push(
      fieldInvalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'),
    );
  }
  if (policy !== undefined && !propagationPolicies.includes(policy)) {
    // kube lists "nil" (unset) among the supported values.
    errors.push(notSupported('propagationPolicy', policy, [...propagationPolicies, 'nil']));
  }
  if (errors.length > 0) throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errors);
}

/**
 * Reads the optional DeleteOptions body, or without one the query's `propagationPolicy` and
 * `orphanDependents` (kube decodes the query only when there is no body), and validates them;
 * `dryRun` may come from the query or the body.
 */
async function readDeleteOptions(
  req: RestRequest,
  valueLimits: ValueLimits,
): Promise<{ preconditions?: Preconditions; dryRun: boolean }> {
  const raw = typeof req.body === 'string' ? req.body : '';
  // Protobuf bodies stay bytes (fastify-app.ts); every other body is text.
  const bytes = Buffer.isBuffer(req.body) ? req.body : undefined;
  let body: DeleteOptionsBody = {};
  if (bytes ? bytes.length > 0 : raw.trim() !== '') {
    // A body in another media type is a 415, as kube's input negotiation answers.
    requireObjectMediaType(req.headers['content-type'], true);
    const type = mediaType(req.headers['content-type']);
    const parsed =
      type === 'application/vnd.kubernetes.protobuf'
        ? parseProtobufBody(
            req.body,
            'meta/v1.DeleteOptions',
            { groupVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' },
            { valueLimits },
          )
        : await parseBodyOffLoop(raw, type === 'application/yaml' ? 'application/yaml' : 'application/json', {
            valueLimits,
          });
    const v = parsed.value as Record<string, unknown>;
    const gv = typeof v?.['apiVersion'] === 'string' ? (v['apiVersion'] as string) : 'v1';
    const expected = { groupVersion: gv, kind: 'DeleteOptions' };
    const fieldValidation = parseFieldValidation(req.query);
    body = decodeKind<DeleteOptionsBody>(parsed, deleteOptionsSchema, expected, fieldValidation, {
      valueLimits,
    }).object;
    validateDeleteOptions(body);
  } else {
    // Decoded as kube's parameter codec decodes it, though events have no graceful deletion.
    intParam(req.query, 'gracePeriodSeconds');
    const propagationPolicy = q(req.query, 'propagationPolicy');
    const orphanDependents = queryBool(req.query, 'orphanDependents');
    validateDeleteOptions({
      ...(propagationPolicy !== undefined ? { propagationPolicy } : {}),
      ...(orphanDependents !== undefined ? { orphanDependents } : {}),
    });
  }
  const dryRun = parseDryRun(req.query, 'DeleteOptions') || parseDryRun({ dryRun: body.dryRun }, 'DeleteOptions');
  return { ...(body.preconditions ? { preconditions: body.preconditions } : {}), dryRun };
}

/**
 * DELETE one object: 200 with a Success Status naming it when it is gone, or 200 with the object
 * when finalizers keep it (its deletion is then pending).
 */
export const deleteHandler: Handler = async (scope, req, reply) => {
  const { namespace = '', name = '' } = req.params;
  const negotiated = negotiateWrite(req, scope);
  const { preconditions, dryRun } = await readDeleteOptions(req, scope.valueLimits);
  checkConversion(negotiated, req, scope, 'status-or-object');
  const result = await scope.store.delete(namespace, name, { ...(preconditions ? { preconditions } : {}), dryRun });
  if (!result.deleted) return sendObjectAs(scope, req, reply, 200, result.object, negotiated);
  const view = scope.view;
  const details = {
    name,
    ...(view.group ? { group: view.group } : {}),
    kind: view.resource,
    uid: result.object.metadata.uid ?? '',
  };
  const status = makeStatus({ status: 'Success', details });
  if (negotiated.mediaType === protobufMediaType) return sendProtobuf(reply, 200, protobufStatus(status));
  return sendNegotiated(reply, 200, negotiated, status, negotiated.pretty || isPretty(req));
};

/**
 * DELETE a collection: lists with the selectors, deletes each item with the DeleteOptions, and
 * answers with the list of deleted items, as kube-apiserver's `DeleteCollection` does. The list
 * options are read (and refused) before the DeleteOptions, in kube's order.
 */
export const deleteCollectionHandler: Handler = async (scope, req, reply) => {
  const negotiated = negotiateWrite(req, scope);
  const opts = parseListOptions(req.query, false);
  const predicate = buildPredicate(scope, opts.labelSelector, opts.fieldSelector);
  const deleteOptions = await readDeleteOptions(req, scope.valueLimits);
  checkConversion(negotiated, req, scope, 'list');
  const listOptions = {
    predicate,
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
  };
  const { items, resourceVersion } = await scope.store.deleteCollection(
    req.params.namespace,
    listOptions,
    deleteOptions,
  );
  return sendListAnswer(scope, req, reply, negotiated, { items, resourceVersion });
};
