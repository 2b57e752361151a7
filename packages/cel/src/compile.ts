import type { ASTNode, ParseResult } from '@marcbachmann/cel-js';
import { lineColumn, walk, type NodeInternals } from './ast.js';
import { lowerAscii, upperAscii } from './ascii.js';
import { celEnvironment, type CelEnvironmentName } from './environments.js';
import { CelError } from './errors.js';
import { re2Matches, regexError } from './regex.js';

/** Default ceiling on comprehension iterations in one evaluation (see {@link CompileOptions.costLimit}). */
export const DEFAULT_COST_LIMIT = 1_000_000;

/** How to compile one expression. */
export interface CompileOptions {
  /** Required output type; Kubernetes requires `bool` for validation rules and match conditions. */
  resultType?: 'bool';
  /**
   * Word a result-type failure as the authorization compiler does (`must evaluate to bool but got
   * string`) instead of the authentication one (`must evaluate to bool`).
   */
  reportActualType?: boolean;
  /** Most comprehension steps one evaluation may take; past it evaluation fails with CEL_COST_LIMIT. */
  costLimit?: number;
}

/** A type-checked expression, ready to evaluate many times. */
export interface CompiledExpression {
  readonly expression: string;
  readonly environment: CelEnvironmentName;
  /** The checked output type in cel-go notation (`bool`, `dyn`, `list(string)`). */
  readonly outputType: string;
  /** The parsed syntax tree (for syntax-tree checks such as the email_verified rule). */
  readonly ast: ASTNode;
  /**
   * Evaluates against an activation (`{claims}`, `{user}` or `{request}`; integers as bigint, see
   * `toCelValue`). Throws CelError CEL_EVALUATION or CEL_COST_LIMIT.
   */
  evaluate(activation: Record<string, unknown>): unknown;
}

/**
 * Parses and type-checks an expression in one of the three environments, validates regex,
 * duration and timestamp literals, and enforces the required result type.
 * @throws CelError CEL_COMPILE (message `compilation failed: ERROR: <input>:L:C: ...`) or
 *   CEL_RESULT_TYPE (`must evaluate to bool`).
 */
export function compile(
  environment: CelEnvironmentName,
  expression: string,
  options: CompileOptions = {},
): CompiledExpression {
  const env = celEnvironment(environment);
  let parsed: ParseResult;
  try {
    parsed = env.parse(expression);
  } catch (e) {
    throw compileError(expression, e, true);
  }
  const checked = parsed.check();
  if (!checked.valid) throw compileError(expression, checked.error, false);
  validateLiterals(expression, parsed.ast);

  const outputType = celGoTypeName(checked.type ?? 'dyn');
  if (options.resultType && outputType !== options.resultType) {
    const message = options.reportActualType
      ? `must evaluate to ${options.resultType} but got ${outputType}`
      : `must evaluate to ${options.resultType}`;
    throw new CelError('CEL_RESULT_TYPE', expression, message, { outputType });
  }

  const budget = { used: 0, limit: options.costLimit ?? DEFAULT_COST_LIMIT };
  instrument(parsed.ast, budget, expression);
  return {
    expression,
    environment,
    outputType,
    ast: parsed.ast,
    evaluate(activation) {
      budget.used = 0;
      try {
        return parsed(activation);
      } catch (e) {
        if (e instanceof CelError) throw e;
        throw new CelError('CEL_EVALUATION', expression, evaluationMessage(e), { cause: e });
      }
    },
  };
}

/** cel-js writes `list<string>`; cel-go writes `list(string)` and `optional_type(T)`. */
export function celGoTypeName(t: string): string {
  if (t === 'list') return 'list(dyn)';
  if (t === 'map') return 'map(dyn, dyn)';
  return t
    .replace(/optional</g, 'optional_type<')
    .replace(/</g, '(')
    .replace(/>/g, ')');
}

interface PositionedError {
  summary?: string;
  message?: string;
  range?: { start: number };
  node?: { pos?: number; start?: number };
}

function compileError(expression: string, err: unknown, syntax: boolean): CelError {
  const e = (err ?? {}) as PositionedError;
  const summary = (e.summary ?? e.message ?? String(err)).split('\n')[0]!;
  const offset = e.range?.start ?? e.node?.start ?? e.node?.pos ?? 0;
  return new CelError(
    'CEL_COMPILE',
    expression,
    `compilation failed: ${issue(expression, offset, syntax ? `Syntax error: ${lowerFirst(summary)}` : translate(summary))}`,
    { cause: err },
  );
}

/** One cel-go issue line plus its caret diagram. */
function issue(expression: string, offset: number, text: string): string {
  const { line, column, text: src } = lineColumn(expression, offset);
  return `ERROR: <input>:${line}:${column}: ${text}\n | ${src}\n | ${' '.repeat(Math.max(0, column - 1))}^`;
}

function translate(summary: string): string {
  let m = /^Unknown variable: (.*)$/.exec(summary);
  if (m) return `undeclared reference to '${m[1]}' (in container '')`;
  m = /^No such key: (.*)$/.exec(summary);
  if (m) return `undefined field '${m[1]}'`;
  return summary;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function evaluationMessage(err: unknown): string {
  const e = err as PositionedError;
  return lowerFirst((e.summary ?? e.message ?? String(err)).split('\n')[0]!);
}

/** Kubernetes (1.29+) rejects bad regex, duration and timestamp literals at compile time. */
function validateLiterals(expression: string, root: ASTNode): void {
  walk(root, (n) => {
    let problem: string | undefined;
    if (n.op === 'rcall' && ['matches', 'find', 'findAll'].includes(n.args[0])) {
      const pattern = n.args[2][0];
      if (pattern?.op === 'value' && typeof pattern.args === 'string') {
        const err = regexError(pattern.args);
        if (err) problem = `invalid regular expression: ${err}`;
      }
    } else if (n.op === 'call' && (n.args[0] === 'duration' || n.args[0] === 'timestamp') && n.args[1].length === 1) {
      const lit = n.args[1][0]!;
      if (lit.op === 'value' && typeof lit.args === 'string') {
        try {
          celEnvironment('claims').evaluate(`${n.args[0]}(${JSON.stringify(lit.args)})`);
        } catch (e) {
          problem = `invalid ${n.args[0]} literal: ${lowerFirst(evaluationMessage(e))}`;
        }
      }
    }
    if (problem)
      throw new CelError('CEL_COMPILE', expression, `compilation failed: ${issue(expression, n.start, problem)}`);
  });
}

type Evaluate = (ev: unknown, ast: unknown, ctx: unknown) => unknown;

function resolvedEvaluate(node: NodeInternals): Evaluate {
  const meta = node.meta!;
  if (meta.alternate) {
    const alt = meta.alternate;
    return (ev, _ast, ctx) => alt.evaluate(ev, alt, ctx);
  }
  if (meta.macro) {
    const macro = meta.macro as { evaluate: Evaluate };
    return (ev, _ast, ctx) => macro.evaluate(ev, macro, ctx);
  }
  return meta.evaluate!;
}

const overrides: Record<string, (args: unknown[]) => unknown> = {
  matches: (a) => re2Matches(a[0] as string, a[1] as string),
  lowerAscii: (a) => lowerAscii(a[0] as string),
  upperAscii: (a) => upperAscii(a[0] as string),
};

/**
 * After type checking: routes `matches` through RE2 and the ASCII case functions through ASCII-only
 * versions (cel-js uses JavaScript RegExp and Unicode case mapping), and counts comprehension steps.
 * Relies on cel-js 8.0.0 internals (pinned): the checked node's `handle` and `meta`.
 */
function instrument(root: ASTNode, budget: { used: number; limit: number }, expression: string): void {
  walk(root, (n) => {
    const node = n as unknown as NodeInternals;
    if (n.op === 'rcall' && Object.hasOwn(overrides, n.args[0]) && node.handle) {
      const fallback = node.handle;
      const impl = overrides[n.args[0]]!;
      node.handle = function (this: unknown, args: unknown, ...rest: unknown[]) {
        if (Array.isArray(args) && args.every((x) => typeof x === 'string')) {
          try {
            return impl(args);
          } catch (e) {
            throw new CelError(
              'CEL_EVALUATION',
              expression,
              `invalid regular expression: ${e instanceof Error ? e.message : e}`,
              { cause: e },
            );
          }
        }
        return fallback.call(this, args, ...rest);
      };
    }
    const comprehension = node.meta?.alternate;
    if (comprehension?.op === 'comprehension') {
      const step = (comprehension.args as { step: NodeInternals }).step;
      const inner = resolvedEvaluate(step);
      step.evaluate = function (ev, ast, ctx) {
        if (++budget.used > budget.limit) {
          throw new CelError('CEL_COST_LIMIT', expression, `operation cancelled: actual cost limit exceeded`);
        }
        return inner.call(this, ev, ast, ctx);
      };
    }
  });
}
