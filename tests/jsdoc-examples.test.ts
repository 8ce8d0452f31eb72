/**
 * Type-checks every ```ts block under an `@example` tag in the JSDoc of the public API, so that
 * the examples users read cannot rot: the module comments of the entry points, the exported
 * declarations that bear a public name, and their public members (`@internal` ones excluded, as
 * `stripInternal` drops them from the published types).
 *
 * Each example becomes its own module in one in-memory Program (one type-check for all of them),
 * compiled strictly against the packages' TypeScript sources (the `@mcpkit/source` condition).
 * The convention an example follows:
 * - It may use any public name of mcpkit without importing it: the test imports each public name
 *   the example mentions and does not bind itself, from the entry point of the example's own
 *   package when that exports it, else from the first entry point that does. An example may
 *   still import explicitly (module overviews do, to show where names come from).
 * - `z` (zod) and `v` (valibot) are imported for it too when it uses them.
 * - Anything else it uses comes from an import (`hono`, `node:*`, …), a declaration in the
 *   example itself (`declare const token: string;`), or one of the placeholders of
 *   `tests/support/jsdocExamples.ts` (`server`, `client`, `ctx`, … typed there), which stand for
 *   the object the documented member is called on.
 * - Top-level `await` is allowed: each example is an ES module. A line meant to fail to compile
 *   says so with `// @ts-expect-error`.
 * About 10 s of CPU for some 525 examples.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compilerOptions, createHost, PRELUDE, publicApi, root, toModule } from './support/jsdocExamples.js';

function exampleProblems(): { count: number; problems: string[] } {
  const { names, examples } = publicApi();
  const virtual = new Map<string, string>([[join(root, 'tests/.examples/prelude.mts'), PRELUDE]]);
  const whereOf = new Map<string, string>();
  examples.forEach((example, index) => {
    const file = join(root, `tests/.examples/example${index}.mts`);
    virtual.set(file, toModule(example, names));
    whereOf.set(file, example.where);
  });
  const program = ts.createProgram([...virtual.keys()], compilerOptions, createHost(virtual));
  const problems: string[] = [];
  for (const [file, where] of whereOf) {
    const source = program.getSourceFile(file)!;
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const diagnostic of diagnostics) {
      const [path, line] = where.split(':');
      const offset = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line - 1;
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0];
      problems.push(`${path}:${Number(line) + offset}: TS${diagnostic.code} ${message}`);
    }
  }
  return { count: examples.length, problems };
}

describe('JSDoc examples', () => {
  it('every ```ts @example block type-checks against the packages', () => {
    const { count, problems } = exampleProblems();
    // Guards the extraction itself: a broken parser would find nothing and pass.
    expect(count).toBeGreaterThan(500);
    expect(problems, `${problems.length} problems in ${count} examples`).toEqual([]);
  }, 120_000);
});
