import { rememberValid } from './remember-valid.js';
import { isDNS1123SubdomainContent } from './dns.js';
import { emptyError, goLen, maxLenBytesError, regexError } from './messages.js';

/** The regex text Kubernetes prints for the name part of a qualified name. */
export const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
/** The regex text Kubernetes prints for a label value. */
export const labelValueFmt = `(${qualifiedNameFmt})?`;
/** Longest name part of a qualified name, and longest label value. */
export const qualifiedNameMaxLength = 63;
/** `LabelValueMaxLength` */
export const labelValueMaxLength = 63;

const nameRe = new RegExp(`^${qualifiedNameFmt}$`);
const valueRe = new RegExp(`^${labelValueFmt}$`);
const nameMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const valueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const nameRegexMsg = regexError(nameMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc');

/**
 * `validation.IsQualifiedName` (= `content.IsLabelKey`): an optional DNS-1123 subdomain prefix and
 * `/`, then a name of at most 63 bytes. Returns every failure message, so `""` gives two
 * (`name part must be non-empty` and the regex message).
 */
export const isQualifiedName = rememberValid(function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  const [first = '', second = ''] = parts;
  let name = first;
  if (parts.length === 2) {
    const prefix = first;
    name = second;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123SubdomainContent(prefix).map((m) => `prefix part ${m}`));
  } else if (parts.length > 2) {
    return [
      `a valid label key ${nameRegexMsg} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (goLen(name) > qualifiedNameMaxLength) errs.push(`name part ${maxLenBytesError(qualifiedNameMaxLength)}`);
  if (!nameRe.test(name)) errs.push(`name part ${nameRegexMsg}`);
  return errs;
});

/** `validation.IsValidLabelValue` (= `content.IsLabelValue`): empty, or a name part of at most 63 bytes. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (goLen(value) > labelValueMaxLength) errs.push(maxLenBytesError(labelValueMaxLength));
  if (!valueRe.test(value)) errs.push(regexError(valueMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}
