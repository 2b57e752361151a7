import { FieldPath, forbidden, required, validateFieldManager } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import { invalid } from '../errors/api-error.js';
import type { Query } from './query.js';
import { boolParam, dryRunValues, q } from './query.js';

/** The options of a create, update or patch that kevents reads (`CreateOptions`, `UpdateOptions`, `PatchOptions`). */
export interface WriteOptions {
  readonly dryRun: boolean;
  /** `fieldManager`; empty when the request names none (the User-Agent then names the manager). */
  readonly fieldManager: string;
  /** `force` (apply only): take over the fields of conflicting managers. */
  readonly force: boolean;
}

/** Which write the options belong to; a patch says whether it is a server-side apply. */
export type WriteKind =
  { readonly kind: 'CreateOptions' | 'UpdateOptions' } | { readonly kind: 'PatchOptions'; readonly apply: boolean };

/**
 * Reads and validates the options of a write as kube-apiserver does (`ValidateCreateOptions`,
 * `ValidateUpdateOptions`, `ValidatePatchOptions`): `force` only on an apply, `fieldManager`
 * required for an apply and at most 128 printable characters, `dryRun` only `All`. Every error
 * goes into one 422 of the options kind (group `meta.k8s.io`), in kube's order.
 */
export function parseWriteOptions(query: Query, write: WriteKind): WriteOptions {
  const fieldManager = q(query, 'fieldManager') ?? '';
  const forceParam = boolParam(query, 'force');
  const dryRun = dryRunValues(query);
  const errs: FieldError[] = [];
  if (write.kind === 'PatchOptions') {
    if (!write.apply) {
      if (forceParam !== undefined)
        errs.push(forbidden(FieldPath.root('force'), 'may not be specified for non-apply patch'));
    } else if (fieldManager === '') {
      errs.push(required(FieldPath.root('fieldManager'), 'is required for apply patch'));
    }
  }
  errs.push(...validateFieldManager(fieldManager, FieldPath.root('fieldManager')));
  if (dryRun.error) errs.push(dryRun.error);
  if (errs.length) throw invalid({ group: 'meta.k8s.io', kind: write.kind }, '', errs);
  return { dryRun: dryRun.values.length > 0, fieldManager, force: forceParam === true };
}
