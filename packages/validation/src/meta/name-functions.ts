import { isDNS1123Label, isDNS1123Subdomain, isDNS1123SubdomainOnce } from './dns.js';
import { isPathSegmentName, isPathSegmentPrefix } from './path-segment.js';

/**
 * `ValidateNameFunc`: the messages for an invalid name, or `[]`. `prefix` is true when the value is
 * a `generateName` prefix that will have characters appended.
 */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/** A trailing `-` is fine in a prefix: replace it (and the character before it, as Go does) before checking. */
const maskTrailingDash = (name: string): string =>
  name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;

/**
 * `NameIsDNSSubdomain`: names that must be DNS-1123 subdomains (events.k8s.io/v1 events). A
 * `generateName` prefix repeats and is remembered once valid; a name is nearly always new.
 */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  prefix ? isDNS1123Subdomain(maskTrailingDash(name)) : isDNS1123SubdomainOnce(name);

/** `NameIsDNSLabel`: names that must be DNS-1123 labels. */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** `ValidateNamespaceName`: namespaces are DNS-1123 labels. */
export const validateNamespaceName: ValidateNameFunc = nameIsDNSLabel;

/** `validatePathSegment` in the generic registry: names only need to be valid path segments (core/v1 events). */
export const nameIsPathSegment: ValidateNameFunc = (name, prefix) =>
  prefix ? isPathSegmentPrefix(name) : isPathSegmentName(name);
