import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Every public entry point, as users import it. */
const ENTRY_POINTS = [
  'packages/core/src/index.ts',
  'packages/schema/src/index.ts',
  'packages/schema/src/ajv.ts',
  'packages/server/src/index.ts',
  'packages/server/src/http.ts',
  'packages/client/src/index.ts',
  'packages/client/src/http.ts',
  'packages/node/src/index.ts',
  'packages/node/src/stdio.ts',
  'packages/node/src/http.ts',
  'packages/node/src/metrics.ts',
  'packages/otel/src/index.ts',
  'packages/cli/src/index.ts',
  'packages/auth/src/client.ts',
  'packages/auth/src/server.ts',
].map((entry) => join(root, entry));

function exportsWithoutExample(): string[] {
  const program = ts.createProgram(ENTRY_POINTS, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    customConditions: ['@mcpkit/source'],
    types: ['node'],
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const missing: string[] = [];
  for (const entry of ENTRY_POINTS) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      // Values (functions, classes, constants) are what users call; each shows how in an example.
      const isValue =
        symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable);
      if (!declaration || !isValue) continue;
      const documented = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
      if (!ts.getJSDocTags(documented).some((tag) => tag.tagName.text === 'example')) {
        missing.push(`${exported.name} (${declaration.getSourceFile().fileName.slice(root.length + 1)})`);
      }
    }
  }
  return missing;
}

describe('documentation', () => {
  it('every public function, class and constant has JSDoc with an @example', () => {
    expect(exportsWithoutExample()).toEqual([]);
  }, 60_000);
});
