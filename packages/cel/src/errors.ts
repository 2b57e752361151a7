/** Stable codes of the errors this package throws. */
export type CelErrorCode =
  'CEL_COMPILE' | 'CEL_RESULT_TYPE' | 'CEL_EVALUATION' | 'CEL_COST_LIMIT' | 'CEL_INVALID_INPUT';

/**
 * An error raised while compiling or evaluating a CEL expression. `message` reads the way
 * Kubernetes words it (`compilation failed: ERROR: <input>:1:1: ...`, `must evaluate to bool`).
 */
export class CelError extends Error {
  readonly code: CelErrorCode;
  readonly expression: string;
  /** For CEL_RESULT_TYPE: the type the expression actually has, in cel-go notation. */
  readonly outputType: string | undefined;

  constructor(
    code: CelErrorCode,
    expression: string,
    message: string,
    options?: { cause?: unknown; outputType?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CelError';
    this.code = code;
    this.expression = expression;
    this.outputType = options?.outputType;
  }
}
