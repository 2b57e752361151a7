/**
 * `content.IsPathSegmentName`: a name usable as one URL path segment. Like Kubernetes it checks
 * neither emptiness nor length.
 */
export function isPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isPathSegmentPrefix(name);
}

/** `content.IsPathSegmentPrefix`: a generateName prefix usable in one URL path segment. */
export function isPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}
