import { ApplyBadRequestError, ConflictsError, conflictStatus, FieldManagerError } from '@kevents/managed-fields';
import type { JsonObject } from '@kevents/managed-fields';
import { ApiError, badRequest, internalError } from '../../errors/api-error.js';
import type { FieldValidation } from '../../request/query.js';
import { maxDepthMessage } from '../json-depth.js';
import { readYaml, yamlStrictError, YamlInputError } from '../yaml-input.js';
import { readYamlOffLoop, YamlThreadBusyError, YamlThreadOutOfMemoryError } from '../yaml-thread.js';
import { bodyText, yamlBusy, yamlTooLarge } from '../body.js';
import type { YamlBody } from '../yaml-input.js';
import type { ValueLimits } from '../../registry/value-limits.js';

/** An apply configuration as read from the body, and what strict decoding found in it. */
export interface ApplyConfiguration {
  readonly object: JsonObject;
  /**
   * The body's duplicate keys in the words of `yaml.UnmarshalStrict` (one text, or none): a 400
   * under `fieldValidation=Strict`, a warning under `Warn`, nothing under `Ignore`. kube checks
   * it after the apply, so an apply error comes first.
   */
  readonly strictError?: string;
}

/** Go's name of a decoded value's JSON type (`json: cannot unmarshal <type> into ...`). */
const jsonType = (v: unknown): string =>
  Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : 'number';

/**
 * Reads an `application/apply-patch+yaml` body (YAML or JSON) into a map, as kube's apply
 * patcher unmarshals it (`sigs.k8s.io/yaml.Unmarshal`): an empty body is an empty map, anything
 * but a map or a YAML syntax error is a 400 `error decoding YAML: ...`. Duplicate keys are
 * allowed (the last one wins) and reported as {@link ApplyConfiguration.strictError}.
 */
export function readApplyConfiguration(raw: unknown): ApplyConfiguration {
  let read: YamlBody;
  try {
    read = readYaml(bodyText(raw));
  } catch (err) {
    throw applyReadFailure(err);
  }
  return applyConfigurationOf(read);
}

/**
 * {@link readApplyConfiguration} that reads a large YAML body on the YAML thread (yaml-thread.ts);
 * one the thread finds spelling more member names than `valueLimits` allow is a 413.
 */
export async function readApplyConfigurationOffLoop(
  raw: unknown,
  valueLimits?: ValueLimits,
): Promise<ApplyConfiguration> {
  let read: YamlBody;
  try {
    read = await readYamlOffLoop(bodyText(raw), valueLimits);
  } catch (err) {
    throw applyReadFailure(err);
  }
  return applyConfigurationOf(read);
}

function applyReadFailure(err: unknown): unknown {
  if (err instanceof YamlThreadBusyError) return yamlBusy();
  if (err instanceof YamlThreadOutOfMemoryError) return yamlTooLarge();
  if (!(err instanceof YamlInputError)) return err;
  if (err.kind === 'depth') return badRequest(`error decoding YAML: ${maxDepthMessage(err.char)}`);
  return badRequest(`error decoding YAML: error converting YAML to JSON: ${err.message}`);
}

function applyConfigurationOf(read: YamlBody): ApplyConfiguration {
  const { value, duplicateKeys } = read;
  if (value === null || value === undefined) return { object: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(
      `error decoding YAML: json: cannot unmarshal ${jsonType(value)} into Go value of type map[string]interface {}`,
    );
  }
  if (duplicateKeys.length === 0) return { object: value as JsonObject };
  // `yaml.UnmarshalStrict` (sigs.k8s.io/yaml) puts its conversion's error after this prefix.
  return {
    object: value as JsonObject,
    strictError: `error converting YAML to JSON: ${yamlStrictError(duplicateKeys)}`,
  };
}

/**
 * What the apply configuration's strict decoding means under `fieldValidation`: Strict throws
 * kube's 400 (`error strict decoding YAML: ...`), Warn gives the warning, Ignore nothing.
 */
export function strictApplyWarnings(config: ApplyConfiguration, fieldValidation: FieldValidation): string[] {
  if (config.strictError === undefined || fieldValidation === 'Ignore') return [];
  if (fieldValidation === 'Strict') throw badRequest(`error strict decoding YAML: ${config.strictError}`);
  return [config.strictError];
}

/**
 * The answer to a field manager error, as kube-apiserver's handlers give it: apply conflicts a
 * 409 Conflict listing the fields and their managers (`NewApplyConflict`), bad configurations a
 * 400, and the manager's own failures (a configuration that does not fit the schema, stored
 * managedFields that cannot be read) a 500.
 */
export function applyError(err: unknown): unknown {
  if (err instanceof ConflictsError) {
    const s = conflictStatus(err.conflicts);
    return new ApiError(s.code, s.reason, s.message, { causes: s.details.causes });
  }
  if (err instanceof ApplyBadRequestError) return badRequest(err.message);
  if (err instanceof FieldManagerError) return internalError(err);
  return err;
}
