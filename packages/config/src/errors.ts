import type { FieldError } from '@kevents/validation';

/** Stable codes of the errors this package throws. */
export type ConfigErrorCode = 'CONFIG_READ' | 'CONFIG_INVALID';

/** A config file that cannot be read or is invalid; `errors` lists every field error. */
export class ConfigError extends Error {
  readonly code: ConfigErrorCode;
  readonly errors: readonly FieldError[];

  constructor(code: ConfigErrorCode, message: string, errors: readonly FieldError[]) {
    super(message);
    this.name = 'ConfigError';
    this.code = code;
    this.errors = errors;
  }
}
