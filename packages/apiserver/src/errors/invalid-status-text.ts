import type { StatusDetails } from '@kevents/api';
import type { FieldError } from '@kevents/validation';

/** The JSON text of a string without its quotes: what it adds inside a longer JSON string. */
const inner = (quoted: string): string => quoted.slice(1, -1);

/**
 * The compact JSON text of the Invalid Status `invalid` builds (what `JSON.stringify` writes of
 * it), escaping each error's body once though the Status prints it twice, as its cause's message
 * and in the aggregated message: a body may quote a whole patched object, and 18,000 bodies
 * escaped twice are the largest cost of the answer. `prefix` is the message before `: `, `kept`
 * the positions of the errors the aggregated message names, in order.
 */
export function invalidStatusText(
  prefix: string,
  details: StatusDetails,
  errs: readonly FieldError[],
  kept: readonly number[],
): string {
  const causes: string[] = [];
  const parts: string[] = [];
  let lastField: string | undefined;
  let field = '';
  let next = 0;
  for (let i = 0; i < errs.length; i++) {
    const e = errs[i]!;
    if (e.field !== lastField) field = inner(JSON.stringify((lastField = e.field)));
    const body = JSON.stringify(e.body());
    causes.push(`{"reason":"${e.type}","message":${body}${field ? `,"field":"${field}"` : ''}}`);
    if (kept[next] === i) {
      next++;
      parts.push(`${field}: ${inner(body)}`);
    }
  }
  const aggregate = parts.length === 0 ? '' : parts.length === 1 ? `: ${parts[0]!}` : `: [${parts.join(', ')}]`;
  return (
    `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",` +
    `"message":"${inner(JSON.stringify(prefix))}${aggregate}","reason":"Invalid","details":{` +
    [
      ...(details.name ? [`"name":${JSON.stringify(details.name)}`] : []),
      ...(details.group ? [`"group":${JSON.stringify(details.group)}`] : []),
      ...(details.kind ? [`"kind":${JSON.stringify(details.kind)}`] : []),
      ...(causes.length ? [`"causes":[${causes.join(',')}]`] : []),
    ].join(',') +
    `},"code":422}`
  );
}
