import type { ASTNode } from '@marcbachmann/cel-js';

/** Internal view of a parsed node: cel-js keeps per-node metadata (macro expansions) in `meta`. */
export interface NodeInternals {
  op: string;
  args: unknown;
  pos: number;
  start: number;
  end: number;
  input: string;
  handle?: (...a: unknown[]) => unknown;
  evaluate: (ev: unknown, ast: unknown, ctx: unknown) => unknown;
  meta?: {
    alternate?: NodeInternals;
    macro?: unknown;
    evaluate?: (ev: unknown, ast: unknown, ctx: unknown) => unknown;
  };
}

export function isNode(x: unknown): x is ASTNode {
  return (
    typeof x === 'object' && x !== null && 'op' in x && 'args' in x && typeof (x as { op: unknown }).op === 'string'
  );
}

/** Visits every node written in the source, depth first (macro arguments included). */
export function walk(node: ASTNode, visit: (n: ASTNode) => void): void {
  visit(node);
  const visitArg = (a: unknown): void => {
    if (isNode(a)) walk(a, visit);
    else if (Array.isArray(a)) for (const x of a) visitArg(x);
  };
  visitArg(node.args);
}

/**
 * True when the expression selects `field` on the bare identifier `variable`
 * (`claims.email` or `claims.?email`), anywhere in the tree. Index syntax (`claims["email"]`)
 * does not count, as in Kubernetes.
 */
export function selectsField(root: ASTNode, variable: string, field: string): boolean {
  let found = false;
  walk(root, (n) => {
    if (found) return;
    if (n.op === '.' || n.op === '.?') {
      const [operand, name] = n.args;
      if (name === field && operand.op === 'id' && operand.args === variable) found = true;
    }
  });
  return found;
}

/** 1-based line and column of a source offset, as cel-go prints them. */
export function lineColumn(input: string, offset: number): { line: number; column: number; text: string } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < input.length; i++) {
    if (input[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  const lineEnd = input.indexOf('\n', lineStart);
  return { line, column: offset - lineStart + 1, text: input.slice(lineStart, lineEnd === -1 ? undefined : lineEnd) };
}
