import { resolve, sep } from 'node:path';
import ts from 'typescript';

/** A type the public API uses but does not export: where it is declared and who uses it. */
export interface UnexportedType {
  /** The type's name. */
  readonly name: string;
  /** The declaration file, relative to the package's folder (`dist/handlers/context.d.ts`). */
  readonly file: string;
  /** The exported name through which it is reached first (`ApiServerOptions`). */
  readonly via: string;
}

/**
 * Finds the types that a package's entry points' declarations (`dist/index.d.ts`, and
 * `dist/testing/index.d.ts` ...) reach but none of them exports: the types of exported
 * functions' parameters and results, of exported classes' public members and of exported
 * interfaces' properties, followed through every type they name in turn. A user can hold a
 * value of such a type but cannot name it. Types of other packages are not followed (their own
 * check covers them).
 */
export function unexportedTypes(
  packageDir: string,
  entries: readonly string[] = ['dist/index.d.ts'],
): UnexportedType[] {
  const root = resolve(packageDir);
  const entryFiles = entries.map((e) => resolve(root, e));
  const program = ts.createProgram(entryFiles, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const resolveAlias = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const ownDist = `${resolve(root, 'dist')}${sep}`;
  // Declared here only: an interface of another package that this one augments (fastify's
  // `FastifyRequest`) is that package's to export.
  const isOwn = (s: ts.Symbol): boolean =>
    (s.declarations ?? []).length > 0 &&
    (s.declarations ?? []).every((d) => resolve(d.getSourceFile().fileName).startsWith(ownDist));

  const exported = new Set<ts.Symbol>();
  const queue: { symbol: ts.Symbol; via: string }[] = [];
  for (const entryFile of entryFiles) {
    const source = program.getSourceFile(entryFile);
    if (!source) throw new Error(`no declarations at ${entryFile} (build the package first)`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    for (const e of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const target = resolveAlias(e);
      exported.add(target);
      queue.push({ symbol: target, via: e.name });
    }
  }
  const seen = new Set<ts.Symbol>(exported);
  const found: UnexportedType[] = [];

  /** Every type name used in a declaration, skipping private members and function bodies (none in .d.ts). */
  const visit = (node: ts.Node, via: string): void => {
    if (
      (ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node)) &&
      (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Private || ts.isPrivateIdentifier(node.name))
    )
      return;
    let name: ts.EntityName | ts.Expression | undefined;
    if (ts.isTypeReferenceNode(node)) name = node.typeName;
    else if (ts.isExpressionWithTypeArguments(node)) name = node.expression;
    else if (ts.isTypeQueryNode(node)) name = node.exprName;
    else if (ts.isImportTypeNode(node) && node.qualifier) name = node.qualifier;
    if (name) {
      const at = ts.isQualifiedName(name) ? name.right : ts.isPropertyAccessExpression(name) ? name.name : name;
      const symbol = checker.getSymbolAtLocation(at);
      if (symbol) {
        const target = resolveAlias(symbol);
        if (!(target.flags & ts.SymbolFlags.TypeParameter) && !seen.has(target) && isOwn(target)) {
          seen.add(target);
          const decl = target.declarations![0]!;
          found.push({
            name: target.name,
            file: resolve(decl.getSourceFile().fileName).slice(root.length + 1),
            via,
          });
          queue.push({ symbol: target, via });
        }
      }
    }
    ts.forEachChild(node, (child) => visit(child, via));
  };

  while (queue.length > 0) {
    const { symbol, via } = queue.shift()!;
    for (const decl of symbol.declarations ?? []) {
      if (!resolve(decl.getSourceFile().fileName).startsWith(ownDist)) continue;
      // A variable's declared type, or the declaration's own shape (interface, type, class, function).
      visit(decl, via);
    }
  }
  return found;
}
