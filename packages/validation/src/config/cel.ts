import { CelError, compile, type CelEnvironmentName, type CompiledExpression, type CompileOptions } from '@kevents/cel';
import type { FieldPath } from '../field/path.js';
import { internalError, invalid, type FieldError } from '../field/error.js';

/**
 * Compiles an expression the way the Kubernetes validators do and turns a failure into the field
 * error `convertCELErrorToValidationError` makes: Invalid with the expression as value.
 */
export function compileAt(
  path: FieldPath,
  environment: CelEnvironmentName,
  expression: string,
  options?: CompileOptions,
): { compiled?: CompiledExpression; error?: FieldError } {
  try {
    return { compiled: compile(environment, expression, options) };
  } catch (e) {
    if (e instanceof CelError) return { error: invalid(path, expression, e.message) };
    return { error: internalError(path, e instanceof Error ? e : String(e)) };
  }
}
