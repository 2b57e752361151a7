/**
 * Go's formatting of the values kube-apiserver puts in its authentication errors, so the logged
 * text reads the same: `%q` of strings and string slices, and `time.Time.String()` in UTC.
 */

/** Go's `%q` of a string (a JSON string is the same for the printable ASCII that claims hold). */
export const goQuote = (s: string): string => JSON.stringify(s);

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
export const goQuoteList = (xs: readonly string[]): string => `[${xs.map(goQuote).join(' ')}]`;

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Go's `time.Time.String()` of a UTC instant: `2024-01-02 03:04:05 +0000 UTC`. */
export function goTime(ms: number): string {
  const d = new Date(ms);
  const frac = d.getUTCMilliseconds();
  const f = frac ? `.${pad(frac, 3).replace(/0+$/, '')}` : '';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${f} +0000 UTC`;
}

/** The JSON type name Go's encoding/json uses in `cannot unmarshal X into Go value of type T`. */
export function jsonTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** `json: cannot unmarshal number into Go value of type string`. */
export const unmarshalError = (v: unknown, goType: string): string =>
  `json: cannot unmarshal ${jsonTypeName(v)} into Go value of type ${goType}`;
