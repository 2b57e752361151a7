// JSON with object members sorted, for the development checks that compare values whose member
// order does not count (Go's maps marshal sorted).

/** `value` as JSON text with every object's members in sorted order. */
export function canonicalJSON(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
