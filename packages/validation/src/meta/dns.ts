import { rememberValid } from './remember-valid.js';
import { goLen, maxLenError, maxLenBytesError, regexError } from './messages.js';

/** The regex text Kubernetes prints for a DNS-1123 label. */
export const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
/** The regex text Kubernetes prints for a DNS-1123 subdomain. */
export const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
/** `DNS1123LabelMaxLength` */
export const dns1123LabelMaxLength = 63;
/** `DNS1123SubdomainMaxLength` */
export const dns1123SubdomainMaxLength = 253;

const labelRe = new RegExp(`^${dns1123LabelFmt}$`);
const subdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/**
 * `validation.IsDNS1123Label`: Kubernetes' messages for a value that is not a lowercase RFC 1123
 * label (at most 63 bytes), or `[]` when it is one.
 */
export const isDNS1123Label = rememberValid(function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (goLen(value) > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!labelRe.test(value)) {
    errs.push(
      subdomainRe.test(value) ? 'must not contain dots' : regexError(labelMsg, dns1123LabelFmt, 'my-name', '123-abc'),
    );
  }
  return errs;
});

/**
 * `validation.IsDNS1123Subdomain`: Kubernetes' messages for a value that is not a lowercase RFC 1123
 * subdomain (at most 253 bytes), or `[]` when it is one. This is the util/validation variant used for
 * object and namespace names, whose length message says `characters`.
 */
export const isDNS1123Subdomain = rememberValid(isDNS1123SubdomainOnce);

/**
 * {@link isDNS1123Subdomain} without its memory of valid values, for values that seldom come
 * twice (object names: a lookup that always misses costs more than the check).
 */
export function isDNS1123SubdomainOnce(value: string): string[] {
  return subdomainErrors(value, maxLenError);
}

/** `content.IsDNS1123Subdomain`: as {@link isDNS1123Subdomain} but the length message says `bytes`. */
export function isDNS1123SubdomainContent(value: string): string[] {
  return subdomainErrors(value, maxLenBytesError);
}

function subdomainErrors(value: string, lenMsg: (n: number) => string): string[] {
  const errs: string[] = [];
  if (goLen(value) > dns1123SubdomainMaxLength) errs.push(lenMsg(dns1123SubdomainMaxLength));
  if (!subdomainRe.test(value)) errs.push(regexError(subdomainMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}
