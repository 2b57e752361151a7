import type { FieldPath } from '../field/path.js';
import { invalid, required, type FieldError } from '../field/error.js';
import { isDNS1123Subdomain } from '../meta/dns.js';

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

export { isDNS1123Subdomain };

/** apimachinery `IsDomainPrefixedPath`: `acme.io/foo`. */
export function isDomainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  if (value.length === 0) return [required(path)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) {
    return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const host = value.slice(0, slash);
  const errs = isDNS1123Subdomain(host).map((e) => invalid(path, host, e));
  const rest = value.slice(slash + 1);
  if (!httpPathRe.test(rest))
    errs.push(invalid(path, rest, `Invalid path (regex used for validation is '${httpPathFmt}')`));
  return errs;
}
