import { readFile } from 'node:fs/promises';
import type {
  AuthenticationConfiguration,
  AuthorizationConfiguration,
  ConfigKind,
  ConfigObject,
  EgressSelectorConfiguration,
  TracingConfiguration,
} from '@kevents/api';
import {
  validateAuthenticationConfiguration,
  validateAuthorizationConfiguration,
  validateEgressSelectorConfiguration,
  validateTracingConfiguration,
  type AuthenticationValidationOptions,
  type AuthorizationValidationOptions,
  type FieldError,
} from '@kevents/validation';
import { decodeConfig, documentError } from './decode.js';
import { convertEgress, defaultAuthorization } from './defaults.js';

/** How to read and validate a config document. */
export interface LoadOptions {
  /** `--group-domain`: the config group is `apiserver.config.<domain>`. Default `k8s.io`. */
  groupDomain?: string;
  /** Only accept this kind (the file given to `--authentication-config`, ...). */
  expectedKind?: ConfigKind;
  authentication?: AuthenticationValidationOptions;
  authorization?: AuthorizationValidationOptions;
}

/** A typed, defaulted, validated config, or every error found. */
export type LoadResult<T extends ConfigObject = ConfigObject> =
  { ok: true; kind: ConfigKind; config: T } | { ok: false; kind?: ConfigKind; errors: FieldError[] };

/** Decodes strictly, applies v1beta1 defaults and conversions, and validates. */
export function parseConfig<T extends ConfigObject = ConfigObject>(
  text: string,
  options: LoadOptions = {},
): LoadResult<T> {
  const decoded = decodeConfig(text, options);
  if (!decoded.ok) return decoded;
  const { kind, object } = decoded;
  let errors: FieldError[];
  switch (kind) {
    case 'AuthenticationConfiguration':
      errors = validateAuthenticationConfiguration(
        object as unknown as AuthenticationConfiguration,
        options.authentication,
      );
      break;
    case 'AuthorizationConfiguration':
      defaultAuthorization(object as unknown as AuthorizationConfiguration);
      errors = validateAuthorizationConfiguration(
        object as unknown as AuthorizationConfiguration,
        options.authorization,
      );
      break;
    case 'EgressSelectorConfiguration':
      convertEgress(object as unknown as EgressSelectorConfiguration);
      errors = validateEgressSelectorConfiguration(object as unknown as EgressSelectorConfiguration);
      break;
    case 'TracingConfiguration':
      errors = validateTracingConfiguration(object as unknown as TracingConfiguration);
      break;
  }
  return errors.length ? { ok: false, kind, errors } : { ok: true, kind, config: object as unknown as T };
}

/** Reads a file (YAML or JSON) and runs {@link parseConfig}; a read failure is a document error. */
export async function loadConfigFile<T extends ConfigObject = ConfigObject>(
  path: string,
  options: LoadOptions = {},
): Promise<LoadResult<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    return { ok: false, errors: [documentError(`open ${path}: ${reason}`)] };
  }
  return parseConfig<T>(text, options);
}
