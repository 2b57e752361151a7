import { badRequest } from '../errors/api-error.js';
import type { Handler } from '../scope/rest-scope.js';
import { listHandler } from '../handlers/list.js';
import { q } from '../request/query.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { SelectorParseError } from '../selectors/label-selector.js';

/** fields.EscapeValue: `\`, `,` and `=` escaped with a backslash. */
const escapeFieldValue = (v: string): string => v.replace(/[\\,=]/g, (c) => `\\${c}`);

/** fields.Selector.RequiresExactMatch("metadata.name"): the value a `metadata.name=` term pins, if any. */
function pinnedName(selector: string): string | undefined {
  try {
    return parseFieldSelector(selector).requirements.find((r) => r.field === 'metadata.name' && r.op === '=')?.value;
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
}

/**
 * The handler of the watch verb's routes (kube's `ListResource` with `forceWatch`): the legacy
 * `/watch/` list paths, and the deprecated per-object path `/watch/[namespaces/NS/]RESOURCE/NAME`,
 * which watches the collection through a `metadata.name=NAME` field selector. A field selector
 * the client sent as well must pin that same name, else 400 `fieldSelector metadata.name doesn't
 * match requested name`, as kube-apiserver answers.
 */
export const watchListHandler: Handler = async (scope, req, reply) => {
  const name = req.params.name;
  if (name !== undefined) {
    const given = q(req.query, 'fieldSelector');
    if (given !== undefined && given.trim() !== '') {
      if (pinnedName(given) !== name) throw badRequest("fieldSelector metadata.name doesn't match requested name");
    } else {
      req.query = { ...req.query, fieldSelector: `metadata.name=${escapeFieldValue(name)}` };
    }
  }
  return listHandler(scope, req, reply);
};
