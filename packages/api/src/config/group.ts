import { apiserverConfigGroup, defaultGroupDomain } from '../constants.js';

/** The version of every config kind this server reads. */
export const configVersion = 'v1beta1';

/** The four configuration kinds. */
export type ConfigKind =
  'AuthenticationConfiguration' | 'AuthorizationConfiguration' | 'EgressSelectorConfiguration' | 'TracingConfiguration';

/** Every config kind, in documentation order. */
export const configKinds: readonly ConfigKind[] = [
  'AuthenticationConfiguration',
  'AuthorizationConfiguration',
  'EgressSelectorConfiguration',
  'TracingConfiguration',
];

/** `apiserver.<domain>`: where Kubernetes registers EgressSelectorConfiguration v1beta1. */
export const apiserverGroup = (domain: string = defaultGroupDomain): string => `apiserver.${domain}`;

/**
 * The apiVersions accepted for a kind: `apiserver.config.<domain>/v1beta1` for all four, plus
 * `apiserver.<domain>/v1beta1` for EgressSelectorConfiguration as Kubernetes registers it.
 */
export function configApiVersions(kind: ConfigKind, domain: string = defaultGroupDomain): string[] {
  const versions = [`${apiserverConfigGroup(domain)}/${configVersion}`];
  if (kind === 'EgressSelectorConfiguration') versions.push(`${apiserverGroup(domain)}/${configVersion}`);
  return versions;
}
