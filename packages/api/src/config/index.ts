import type { AuthenticationConfiguration } from './authentication.js';
import type { AuthorizationConfiguration } from './authorization.js';
import type { EgressSelectorConfiguration } from './egress.js';
import type { TracingConfiguration } from './tracing.js';

/** Any of the four configuration kinds. */
export type ConfigObject =
  AuthenticationConfiguration | AuthorizationConfiguration | EgressSelectorConfiguration | TracingConfiguration;
