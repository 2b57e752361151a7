import { flagHelp } from '@kevents/cli';
import type { FlagSpecs } from '@kevents/cli';
import { apiserverFlags } from '../cli/flags.js';

/** The flags of `kevents-apiserver validate-config`. */
export const validateConfigFlags = {
  output: {
    name: 'output',
    short: 'o',
    type: 'string',
    default: 'text',
    values: ['text', 'json'],
    help: 'Output format: text (one line per error) or json (a list of error records).',
  },
  groupDomain: {
    ...apiserverFlags.groupDomain,
    help: 'API group domain of the config kinds (apiserver.config.<domain>), as kevents-apiserver --group-domain.',
  },
} as const satisfies FlagSpecs;

/** The `validate-config --help` text. */
export function validateConfigUsage(): string {
  return [
    'kevents-apiserver validate-config: check configuration files (AuthenticationConfiguration, AuthorizationConfiguration,',
    'EgressSelectorConfiguration, TracingConfiguration) as kevents-apiserver loads them. Exits 0 when every file is valid,',
    '1 when any is not, 2 on a usage error.',
    '',
    'Usage:',
    '  kevents-apiserver validate-config [flags] FILE...',
    '',
    'Flags:',
    ...flagHelp(validateConfigFlags, 28),
    '',
    'Example: kevents-apiserver validate-config -o json authn.yaml authz.yaml',
    '',
  ].join('\n');
}
