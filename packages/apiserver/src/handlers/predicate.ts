import type { KubeObject } from '@kevents/api';
import type { Predicate } from '@kevents/storage';
import { badRequest } from '../errors/api-error.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector, SelectorParseError } from '../selectors/label-selector.js';
import type { RestScope } from '../scope/rest-scope.js';

/** The value of an internal field label: `metadata.name`, `metadata.namespace`, or the strategy's. */
const fieldValueOf = <T extends KubeObject>(scope: RestScope<T>, obj: T, label: string): string => {
  if (label === 'metadata.name') return obj.metadata.name ?? '';
  if (label === 'metadata.namespace') return obj.metadata.namespace ?? '';
  return scope.strategy.fieldValue(obj, label);
};

/**
 * Builds the storage predicate for `labelSelector` and `fieldSelector`, mapping the view's field
 * labels onto the internal ones. An unknown field label is a 400
 * `field label not supported: X`; a malformed selector is a 400 with the parser's message.
 */
export function buildPredicate<T extends KubeObject>(
  scope: RestScope<T>,
  labelSelector?: string,
  fieldSelector?: string,
): Predicate<T> | undefined {
  try {
    const labels = parseLabelSelector(labelSelector);
    const fields = parseFieldSelector(fieldSelector);
    const mapped = fields.requirements.map((r) => {
      const internal = scope.view.fieldLabel(r.field);
      if (!internal) throw badRequest(`field label not supported: ${r.field}`);
      return { ...r, field: internal };
    });
    if (labels.empty && mapped.length === 0) return undefined;
    const predicate = (obj: T): boolean =>
      labels.matches(obj.metadata.labels) &&
      mapped.every((r) => (fieldValueOf(scope, obj, r.field) === r.value) === (r.op === '='));
    return Object.assign(predicate, { fields: mapped });
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
}
