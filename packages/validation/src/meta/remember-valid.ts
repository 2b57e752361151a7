/**
 * Wraps a string check (which returns its error messages) so that values found valid once are
 * not checked again: events repeat the same namespaces, controllers and label keys on every
 * write. At most `max` valid values are remembered; invalid ones are always checked.
 */
export function rememberValid(check: (value: string) => string[], max = 4096): (value: string) => string[] {
  const valid = new Set<string>();
  return (value) => {
    if (valid.has(value)) return [];
    const errs = check(value);
    if (errs.length === 0 && valid.size < max) valid.add(value);
    return errs;
  };
}
