import type { FieldPath } from '../field/path.js';
import { invalid, required, type FieldError } from '../field/error.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

/** apimachinery `IsDNS1123Subdomain`: the list of reasons the value is not a subdomain. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
        `(e.g. 'example.com', regex used for validation is '${dns1123SubdomainFmt}')`,
    );
  }
  return errs;
}

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
  if (!httpPathRe.test(rest)) errs.push(invalid(path, rest, `Invalid path (regex used for validation is '${httpPathFmt}')`));
  return errs;
}
