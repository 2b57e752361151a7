import type { CoreEvent } from '@kevents/api';
import type { Predicate } from '@kevents/storage';
import { badRequest } from '../errors/api-error.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector, SelectorParseError } from '../selectors/label-selector.js';
import { eventFieldValue } from '../registry/event-fields.js';
import type { ResourceView } from '../registry/resource-view.js';

/**
 * Builds the storage predicate for `labelSelector` and `fieldSelector`, mapping the view's field
 * labels onto the internal ones. An unknown field label is a 400
 * `field label not supported: X`; a malformed selector is a 400 with the parser's message.
 */
export function buildPredicate(view: ResourceView, labelSelector?: string, fieldSelector?: string): Predicate<CoreEvent> | undefined {
  try {
    const labels = parseLabelSelector(labelSelector);
    const fields = parseFieldSelector(fieldSelector);
    const mapped = fields.requirements.map((r) => {
      const internal = view.fieldLabel(r.field);
      if (!internal) throw badRequest(`field label not supported: ${r.field}`);
      return { ...r, field: internal };
    });
    if (labels.empty && mapped.length === 0) return undefined;
    return (e: CoreEvent) =>
      labels.matches(e.metadata.labels) && mapped.every((r) => (eventFieldValue(e, r.field) === r.value) === (r.op === '='));
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
}
