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

  it('the era rule: only modern/, the composition root (server.ts) and the HTTP transport load modern/, and only they detect the era', () => {
    const mayLoadEra = (file: string) =>
      file.startsWith('modern/') || file.startsWith('http/') || file === 'server.ts';
    const loads = server.edges
      .filter((edge) => !edge.external && !edge.typeOnly && edge.to.startsWith('modern/'))
      .filter((edge) => !mayLoadEra(edge.from))
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect(loads).toEqual([]);
    const detects = server.files.filter(
      (file) => !mayLoadEra(file) && /\b(envelopeVersion|isModernProtocolVersion)\(/.test(sourceOf(file)),
    );
    expect(detects).toEqual([]);
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

function sourceOf(file: string): string {
  return readFileSync(path.join(server.root, file), 'utf8');
}
