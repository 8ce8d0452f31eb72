import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compilerOptions, ENTRY_POINTS as PUBLIC_ENTRY_POINTS, root } from './support/jsdocExamples.js';

const ENTRY_POINTS = Object.values(PUBLIC_ENTRY_POINTS).map((entry) => join(root, entry));

function exportsWithoutExample(): string[] {
  const program = ts.createProgram(ENTRY_POINTS, compilerOptions);
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
