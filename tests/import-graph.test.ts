/**
 * Issue 30's shape, kept: the import graph of every package, read with TypeScript's parser
 * (tests/support/importGraph.ts), against the rules of docs/design/kernel.md. A failure names the
 * files, so the fix is where the message points.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { circlesOf, folderOf, type ImportGraph, readImportGraph } from './support/importGraph.js';
import { repoRoot } from './support/officialSchema.js';

const PACKAGES = readdirSync(path.join(repoRoot, 'packages')).sort();
const graphs = new Map<string, ImportGraph>(
  PACKAGES.map((name) => [name, readImportGraph(path.join(repoRoot, 'packages', name, 'src'))]),
);
const server = graphs.get('server')!;

/** The largest circle (type-only edges included) any package may have, always inside one folder. */
const MAX_CIRCLE = 4;

function describeCircle(circle: readonly string[]): string {
  return `${circle.length} files: ${circle.join(', ')}`;
}

describe('import graph (issue 30)', () => {
  it('reads every package (a sanity floor: the walker finds the files and their imports)', () => {
    expect(server.files).toContain('kernel/session.ts');
    expect(server.edges.length).toBeGreaterThan(300);
    for (const name of PACKAGES) expect(graphs.get(name)!.files.length, name).toBeGreaterThan(0);
  });

  it('packages/server/src/kernel/ imports only kernel/ and @mcpkit/core (runtime and type)', () => {
    const outside = server.edges
      .filter((edge) => edge.from.startsWith('kernel/'))
      .filter((edge) =>
        edge.external
          ? edge.to !== '@mcpkit/core' && !edge.to.startsWith('@mcpkit/core/')
          : !edge.to.startsWith('kernel/'),
      )
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect(outside).toEqual([]);
  });

  it.each(PACKAGES)('%s: the runtime import graph is acyclic', (name) => {
    const circles = circlesOf(graphs.get(name)!, { runtimeOnly: true }).map(describeCircle);
    expect(circles).toEqual([]);
  });

  it.each(PACKAGES)(`%s: no circle spans two folders, and none has more than ${MAX_CIRCLE} files`, (name) => {
    const offending = circlesOf(graphs.get(name)!)
      .filter((circle) => new Set(circle.map(folderOf)).size > 1 || circle.length > MAX_CIRCLE)
      .map(describeCircle);
    expect(offending).toEqual([]);
  });

  it('the era rule: only modern/, mrtr/, the HTTP transport and the composition root (server.ts) know the era', () => {
    const mayKnowEra = (file: string) =>
      file.startsWith('modern/') ||
      file.startsWith('mrtr/') ||
      file.startsWith('http/') ||
      file === 'server.ts';
    // Nothing else loads modern/, not even for its types (the package's entry re-exports the era's
    // public types only): features reach the era through the kernel's ports (the request
    // context's era port, `Era.plug`).
    const loads = server.edges
      .filter((edge) => !edge.external && edge.to.startsWith('modern/'))
      .filter((edge) => !mayKnowEra(edge.from) && !(edge.from === 'index.ts' && edge.typeOnly))
      .map((edge) => `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);
    expect(loads).toEqual([]);
    const detects = server.files.filter(
      (file) => !mayKnowEra(file) && /\b(envelopeVersion|isModernProtocolVersion)\(/.test(sourceOf(file)),
    );
    expect(detects).toEqual([]);
    // Nothing else branches on a request's 2026-07-28 part (`ctx.modern`): a read of it in a
    // condition, or through `?.`, is a branch on the era. (Handing it on as data, as a task's
    // context does to its base, is not.)
    const branches: string[] = [];
    for (const file of server.files) {
      if (mayKnowEra(file)) continue;
      const source = ts.createSourceFile(file, sourceOf(file), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isPropertyAccessExpression(node) && node.name.text === 'modern' && branchesOn(node)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          branches.push(`${file}:${line + 1}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(branches).toEqual([]);
    // mrtr/ is below modern/: the rounds never reach back up to the era that runs them.
    expect(
      server.edges.filter((edge) => edge.from.startsWith('mrtr/') && edge.to.startsWith('modern/')),
    ).toEqual([]);
  });

  it('one sending seam: only kernel/outbound.ts reads server.sending, only server.ts (the composition root) sets it', () => {
    const reads: string[] = [];
    const writes: string[] = [];
    for (const file of server.files) {
      const source = ts.createSourceFile(file, sourceOf(file), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isPropertyAccessExpression(node) && node.name.text === 'sending') {
          const parent = node.parent;
          const assigned =
            ts.isBinaryExpression(parent) &&
            parent.left === node &&
            parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
          (assigned ? writes : reads).push(file);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect([...new Set(reads)]).toEqual(['kernel/outbound.ts']);
    expect([...new Set(writes)]).toEqual(['server.ts']);
  });
});

/** Whether the value of `node` (a `.modern` read) decides which way the code goes. */
function branchesOn(node: ts.PropertyAccessExpression): boolean {
  if (node.questionDotToken !== undefined) return true;
  let value: ts.Node = node;
  let parent = value.parent;
  // A read further along (`ctx.modern.scope`, `ctx.modern?.x`) branches when the whole does.
  while (ts.isPropertyAccessExpression(parent) && parent.expression === value) {
    if (parent.questionDotToken !== undefined) return true;
    value = parent;
    parent = value.parent;
  }
  if (ts.isIfStatement(parent) || ts.isWhileStatement(parent)) return parent.expression === value;
  if (ts.isConditionalExpression(parent)) return parent.condition === value;
  if (ts.isPrefixUnaryExpression(parent)) return parent.operator === ts.SyntaxKind.ExclamationToken;
  if (ts.isBinaryExpression(parent)) {
    const operator = parent.operatorToken.kind;
    return (
      operator === ts.SyntaxKind.AmpersandAmpersandToken ||
      operator === ts.SyntaxKind.BarBarToken ||
      operator === ts.SyntaxKind.QuestionQuestionToken ||
      operator === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      operator === ts.SyntaxKind.ExclamationEqualsEqualsToken
    );
  }
  return false;
}

function sourceOf(file: string): string {
  return readFileSync(path.join(server.root, file), 'utf8');
}
