/**
 * The import graph of a package's sources, read with TypeScript's own parser (no resolution of
 * types, no program: one `createSourceFile` per file), and the strongly connected components of it.
 *
 * An edge is *type-only* when nothing of it survives compilation: `import type`, `export type … from`,
 * an import or re-export whose every named binding is marked `type`, or `import('…')` in a type
 * position. Every other edge (including a dynamic `import()` call) is a runtime edge. Only relative
 * specifiers become edges; a package name (`@mcpkit/core`) is kept as an external import of the
 * file so rules about what a folder may import can see it.
 *
 * @example
 * ```ts
 * const graph = readImportGraph('packages/server/src');
 * const circles = circlesOf(graph, { runtimeOnly: true });
 * expect(circles).toEqual([]);
 * ```
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import or re-export statement of a file. */
export interface ImportEdge {
  /** The importing file, relative to the graph's root. */
  from: string;
  /** The imported file relative to the root, or the bare specifier for a package import. */
  to: string;
  /** Whether `to` is a package (a bare specifier) rather than a file of this package. */
  external: boolean;
  /** Whether nothing of the edge survives compilation. */
  typeOnly: boolean;
}

/** Every source file under a root and every import between them. */
export interface ImportGraph {
  root: string;
  files: string[];
  edges: ImportEdge[];
}

/** What counts as a source file: TypeScript, not a test, not a type test, not a declaration. */
function isSource(name: string): boolean {
  return name.endsWith('.ts') && !name.endsWith('.d.ts') && !/\.test(-d)?\.ts$/.test(name);
}

function listSources(dir: string, root: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules' && name !== 'fixtures') listSources(full, root, out);
    } else if (isSource(name)) {
      out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  }
}

/** `./a.js` from `x/b.ts` → `x/a.ts` (or `x/a/index.ts`), as the bundler and `tsc` resolve it. */
function resolveRelative(root: string, fromFile: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const stem = base.replace(/\.(js|ts|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}/index.ts`]) {
    if (existsSync(path.join(root, candidate))) return candidate;
  }
  return undefined;
}

function everyBindingIsType(clause: ts.ImportClause): boolean {
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function everyExportIsType(declaration: ts.ExportDeclaration): boolean {
  if (declaration.isTypeOnly) return true;
  const clause = declaration.exportClause;
  if (!clause || !ts.isNamedExports(clause)) return false;
  return clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

/** Each `(specifier, typeOnly)` one file's text imports. */
export function importsOfSource(fileName: string, text: string): Array<[string, boolean]> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Array<[string, boolean]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.importClause !== undefined && everyBindingIsType(node.importClause);
      found.push([node.moduleSpecifier.text, typeOnly]);
      return;
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push([node.moduleSpecifier.text, everyExportIsType(node)]);
      return;
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push([literal.text, true]);
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0]!)
    ) {
      found.push([(node.arguments[0] as ts.StringLiteralLike).text, false]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The graph of every source file under `root` (a package's `src/`, absolute or relative to the
 * working directory).
 */
export function readImportGraph(root: string): ImportGraph {
  const files: string[] = [];
  listSources(root, root, files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const [specifier, typeOnly] of importsOfSource(file, text)) {
      if (specifier.startsWith('.')) {
        const to = resolveRelative(root, file, specifier);
        if (to === undefined) throw new Error(`${file}: cannot resolve ${specifier}`);
        edges.push({ from: file, to, external: false, typeOnly });
      } else {
        edges.push({ from: file, to: specifier, external: true, typeOnly });
      }
    }
  }
  return { root, files, edges };
}

/**
 * The circles of the graph: its strongly connected components of more than one file (and a file
 * that imports itself), each sorted, largest first. `runtimeOnly` leaves type-only edges out.
 */
export function circlesOf(graph: ImportGraph, options: { runtimeOnly?: boolean } = {}): string[][] {
  const next = new Map<string, Set<string>>();
  for (const file of graph.files) next.set(file, new Set());
  const selfLoops = new Set<string>();
  for (const edge of graph.edges) {
    if (edge.external || (options.runtimeOnly && edge.typeOnly)) continue;
    if (edge.from === edge.to) selfLoops.add(edge.from);
    next.get(edge.from)!.add(edge.to);
  }
  // Tarjan's algorithm, iterative so a long chain of imports cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.files) {
    if (index.has(start)) continue;
    const work: Array<[string, Iterator<string>]> = [];
    const enter = (file: string): void => {
      index.set(file, counter);
      low.set(file, counter);
      counter++;
      stack.push(file);
      onStack.add(file);
      work.push([file, next.get(file)!.values()]);
    };
    enter(start);
    while (work.length > 0) {
      const [file, targets] = work[work.length - 1]!;
      const step = targets.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(file)!));
      }
      if (low.get(file) === index.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== file);
        if (component.length > 1 || selfLoops.has(file)) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** The folder a file sits in, relative to the root (`''` for the root itself). */
export function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}
