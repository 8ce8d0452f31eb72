import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Repository root. */
export const root = join(import.meta.dirname, '..', '..');

/** Every public entry point as users import it, in the order an ambiguous name is imported from. */
export const ENTRY_POINTS: Readonly<Record<string, string>> = {
  '@mcpkit/core': 'packages/core/src/index.ts',
  '@mcpkit/schema': 'packages/schema/src/index.ts',
  '@mcpkit/schema/ajv': 'packages/schema/src/ajv.ts',
  '@mcpkit/server': 'packages/server/src/index.ts',
  '@mcpkit/server/http': 'packages/server/src/http.ts',
  '@mcpkit/client': 'packages/client/src/index.ts',
  '@mcpkit/client/http': 'packages/client/src/http.ts',
  '@mcpkit/node': 'packages/node/src/index.ts',
  '@mcpkit/node/stdio': 'packages/node/src/stdio.ts',
  '@mcpkit/node/http': 'packages/node/src/http.ts',
  '@mcpkit/node/http-client': 'packages/node/src/httpClient.ts',
  mcpkit: 'packages/cli/src/index.ts',
  '@mcpkit/auth/client': 'packages/auth/src/client.ts',
  '@mcpkit/auth/server': 'packages/auth/src/server.ts',
  '@mcpkit/host/gateway': 'packages/host/src/gateway.ts',
  '@mcpkit/host/ai-sdk': 'packages/host/src/ai-sdk.ts',
  '@mcpkit/host/langchain': 'packages/host/src/langchain.ts',
  '@mcpkit/apps': 'packages/apps/src/index.ts',
  '@mcpkit/apps/server': 'packages/apps/src/server.ts',
  '@mcpkit/apps/bridge': 'packages/apps/src/bridge.ts',
  '@mcpkit/apps/sandbox': 'packages/apps/src/sandbox.ts',
  '@mcpkit/console': 'packages/console/src/index.ts',
};

/** One ```ts block under an `@example` tag. */
export interface Example {
  /** `packages/<pkg>/src/<file>.ts:<line>` of the block's first code line. */
  where: string;
  /** The package directory the example documents, e.g. `server`. */
  pkg: string;
  code: string;
}

export const compilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  strict: true,
  noUncheckedIndexedAccess: true,
  customConditions: ['@mcpkit/source'],
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
};

/** A compiler host that serves `virtual` files from memory and the rest from disk. */
export function createHost(virtual: ReadonlyMap<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(compilerOptions);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(file);
    if (text === undefined) return getSourceFile.call(host, file, language, ...rest);
    return ts.createSourceFile(file, text, language, true);
  };
  return host;
}

/** Names an example binds at its top level (imports and declarations). */
function topLevelNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      else if (bindings) for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** Every identifier an example mentions. */
function mentionedNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The ```ts blocks under the `@example` tags of a declaration's JSDoc. */
function examplesOf(documented: ts.Node): Example[] {
  const source = documented.getSourceFile();
  const pkg = relative(join(root, 'packages'), source.fileName).split('/')[0]!;
  const tags = ts.getJSDocTags(documented);
  // What `stripInternal` leaves out of the published types is not documentation.
  if (tags.some((tag) => tag.tagName.text === 'internal')) return [];
  return tags
    .filter((tag) => tag.tagName.text === 'example')
    .flatMap((tag) => {
      const text = ts.getTextOfJSDocComment(tag.comment) ?? '';
      // The code starts two lines below the tag, after the fence.
      const line = source.getLineAndCharacterOfPosition(tag.getStart()).line + 3;
      return [...text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((match) => ({
        where: `${relative(root, source.fileName)}:${line}`,
        pkg,
        code: match[1]!,
      }));
    });
}

/** The names an entry point exports; entry points export by name, so this is syntax alone. */
function exportedNames(file: ts.SourceFile): string[] {
  return file.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause || !ts.isNamedExports(clause))
        throw new Error(`${file.fileName}: export * hides the public names`);
      return clause.elements.map((element) => element.name.text);
    }
    return isExported(statement) && declaredName(statement) ? [declaredName(statement)!] : [];
  });
}

function isExported(node: ts.Node): boolean {
  return (ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Export) !== 0;
}

function declaredName(statement: ts.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const [declaration] = statement.declarationList.declarations;
    return declaration && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  }
  const named = statement as ts.Statement & { name?: ts.Node };
  return named.name && ts.isIdentifier(named.name) ? named.name.text : undefined;
}

/** The public members of a class or interface. */
function membersOf(statement: ts.Statement): readonly ts.Node[] {
  if (!ts.isClassDeclaration(statement) && !ts.isInterfaceDeclaration(statement)) return [];
  return (statement.members as ts.NodeArray<ts.ClassElement | ts.TypeElement>).filter(
    (member) => !(ts.getCombinedModifierFlags(member as ts.Declaration) & ts.ModifierFlags.Private),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /(?<!\.test(?:-d)?)\.ts$/.test(entry.name) ? [path] : [];
  });
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
}

/**
 * What the packages offer: where each public name is imported from (per package, its own entry
 * points win, so `serve` in a `mcpkit` example is the CLI's and elsewhere `@mcpkit/node/http`'s),
 * and the examples in the JSDoc of the entry points, of the exported declarations that bear a
 * public name, and of their public members. Syntax alone, so that the test builds one Program.
 */
export function publicApi(): { names: Map<string, Map<string, string>>; examples: Example[] } {
  const names = new Map<string, Map<string, string>>();
  const examples: Example[] = [];
  for (const [specifier, entry] of Object.entries(ENTRY_POINTS)) {
    const pkg = entry.split('/')[1]!;
    const file = parse(join(root, entry));
    if (file.statements[0]) examples.push(...examplesOf(file.statements[0]));
    for (const name of exportedNames(file)) {
      const homes = names.get(name) ?? new Map<string, string>();
      if (!homes.has(pkg)) homes.set(pkg, specifier);
      if (!homes.has('*')) homes.set('*', specifier);
      names.set(name, homes);
    }
  }
  const entries = new Set(Object.values(ENTRY_POINTS).map((entry) => join(root, entry)));
  const packages = readdirSync(join(root, 'packages'));
  const statements = packages
    .flatMap((pkg) => sourceFiles(join(root, 'packages', pkg, 'src')))
    .filter((path) => !entries.has(path))
    .flatMap((path) => parse(path).statements.filter(isExported));
  const documented = withBaseClasses(statements, new Set(names.keys()));
  for (const statement of statements) {
    const name = declaredName(statement);
    if (!name || !documented.has(name)) continue;
    for (const node of [statement, ...membersOf(statement)]) examples.push(...examplesOf(node));
  }
  return { names, examples };
}

/**
 * The public names and the names of the classes public classes extend: a member a public class
 * inherits from a base the package does not export is public too.
 */
function withBaseClasses(statements: readonly ts.Statement[], names: Set<string>): Set<string> {
  const documented = new Set(names);
  let grew = true;
  while (grew) {
    grew = false;
    for (const statement of statements) {
      if (!ts.isClassDeclaration(statement) || !documented.has(declaredName(statement) ?? '')) continue;
      for (const clause of statement.heritageClauses ?? []) {
        if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
        const base = clause.types[0]?.expression;
        if (base && ts.isIdentifier(base) && !documented.has(base.text)) {
          documented.add(base.text);
          grew = true;
        }
      }
    }
  }
  return documented;
}

/** The example as a module: the public names it uses but does not bind are imported for it. */
export function toModule(example: Example, names: Map<string, Map<string, string>>): string {
  const source = ts.createSourceFile('example.ts', example.code, ts.ScriptTarget.ES2022);
  const bound = topLevelNames(source);
  const imports = new Map<string, string[]>();
  const header: string[] = [];
  for (const name of mentionedNames(source)) {
    const homes = names.get(name);
    if (bound.has(name)) continue;
    if (LIBRARIES[name]) header.push(LIBRARIES[name]);
    if (!homes) continue;
    const specifier = homes.get(example.pkg) ?? homes.get('*')!;
    imports.set(specifier, [...(imports.get(specifier) ?? []), name]);
  }
  for (const [specifier, list] of imports) header.push(`import { ${list.join(', ')} } from '${specifier}';`);
  // One line for the header keeps the example's own line numbers one off, which reports correct.
  return `${header.join(' ')}\n${example.code}\nexport {};\n`;
}

/** Imports of other libraries an example may use without writing them. */
const LIBRARIES: Readonly<Record<string, string>> = {
  z: "import { z } from 'zod';",
  v: "import * as v from 'valibot';",
};

/**
 * Placeholders every example may use without declaring them: the object a documented member is
 * called on, under the name the examples give it.
 */
export const PRELUDE = `
import type { McpServer, RequestContext, ServerSession, TaskContext, TaskManager } from '@mcpkit/server';
import type { McpClient } from '@mcpkit/client';
import type { McpHost, ServerEntry } from '@mcpkit/host';
import type {
  Connection, Implementation, JsonSchemaValidator, MessageSink, Resource, ResourceLink, ResourceTemplate, Root, Task,
  TaskRequestor, TaskStore, Tool, Transport,
} from '@mcpkit/core';
declare global {
  /** The name and version a server or client introduces itself with. */
  const info: Implementation;
  /** A high-level server. */
  const server: McpServer;
  /** A high-level client. */
  const client: McpClient;
  /** A host over several servers, and the servers of its configuration. */
  const host: McpHost;
  const servers: ServerEntry[];
  /** The context a server handler receives. */
  const ctx: RequestContext;
  /** Any transport. */
  const transport: Transport;
  /** A server's session with one client. */
  const session: ServerSession;
  /** A task's id. */
  const taskId: string;
  /** A server's task manager. */
  const tasks: TaskManager;
  /** The context a task's work receives. */
  const taskCtx: TaskContext;
  /** A task store. */
  const store: TaskStore;
  /** Who asked for a task (the key a store scopes tasks by). */
  const requestor: TaskRequestor;
  /** Protocol objects, as a server lists them or a client receives them. */
  const task: Task;
  const tool: Tool;
  const resource: Resource;
  const template: ResourceTemplate;
  const root: Root;
  const link: ResourceLink;
  /** The engine, and what a transport delivers to. */
  const connection: Connection;
  const sink: MessageSink;
  /** A server's URL, an API key. */
  const url: string;
  const key: string;
  /** Binary data of an image or a sound. */
  const pngBytes: Uint8Array;
  const wavBytes: Uint8Array;
  /** A JSON Schema validator. */
  const validator: JsonSchemaValidator;
}
`;
