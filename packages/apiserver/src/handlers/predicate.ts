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

/** What a field selector asks of one field, its terms merged: each object reads the field once. */
interface FieldCheck {
  readonly field: string;
  /** The value every `=` term names (undefined without one). */
  readonly equals: string | undefined;
  /** Two `=` terms name different values: nothing matches. */
  readonly never: boolean;
  readonly notIn: ReadonlySet<string>;
}

function fieldChecks(terms: readonly { field: string; op: '=' | '!='; value: string }[]): FieldCheck[] {
  const byField = new Map<string, { equals: string | undefined; never: boolean; notIn: Set<string> }>();
  for (const t of terms) {
    let c = byField.get(t.field);
    if (c === undefined) byField.set(t.field, (c = { equals: undefined, never: false, notIn: new Set() }));
    if (t.op === '!=') c.notIn.add(t.value);
    else if (c.equals === undefined) c.equals = t.value;
    else if (c.equals !== t.value) c.never = true;
  }
  return [...byField].map(([field, c]) => ({ field, ...c }));
}

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
    const checks = fieldChecks(mapped);
    const predicate = (obj: T): boolean =>
      labels.matches(obj.metadata.labels) &&
      checks.every((c) => {
        if (c.never) return false;
        const v = fieldValueOf(scope, obj, c.field);
        return (c.equals === undefined || v === c.equals) && !c.notIn.has(v);
      });
    return Object.assign(predicate, { fields: mapped });
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
}
