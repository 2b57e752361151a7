import { goFormatNumber, goQuote, isGoPrint } from '@kevents/api';
import { isJsonObject } from './json-value.js';
import type { JsonValue } from './json-value.js';

export { goFormatNumber, goQuote, isGoPrint };

/** Structured-merge-diff's `value.ToString`: how values appear in path strings (`[name="x"]`). */
export function goValueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goFormatNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goValueString).join(',') + ']';
  if (isJsonObject(v)) {
    return Object.keys(v)
      .map((k) => `${k}=${goValueString(v[k]!)}`)
      .join('');
  }
  return '{{undefined}}';
}
