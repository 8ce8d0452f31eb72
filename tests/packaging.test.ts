import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** Packages that must run on any runtime: Node, Bun, Deno, browsers, Workers. */
const RUNTIME_NEUTRAL = ['core', 'schema', 'server', 'client', 'auth', 'otel'];

describe('packaging rules', () => {
  it('the core package has no runtime dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
  });

  it.each(RUNTIME_NEUTRAL)('packages/%s imports nothing from node:', (pkg) => {
    const offenders = sourceFiles(join(root, 'packages', pkg, 'src')).filter((file) =>
      /^(?:import|export|\})[^\n]*from\s+['"]node:|import\(\s*['"]node:|require\(\s*['"]node:/m.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('packages/host imports node: and @mcpkit/node only from its ./node entry point', () => {
    const hostSrc = join(root, 'packages/host/src');
    const offenders = sourceFiles(hostSrc)
      .filter((file) => file !== join(hostSrc, 'node.ts') && !file.startsWith(`${join(hostSrc, 'node')}/`))
      .filter((file) =>
        /^(?:import|export|\})[^\n]*from\s+['"](?:node:|@mcpkit\/node)|import\(\s*['"]node:/m.test(
          readFileSync(file, 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });

  it.each([
    ['ai', 'ai-sdk'],
    ['@langchain/core', 'langchain'],
  ])(
    'packages/host imports %s only from its ./%s entry point (an optional peer dependency)',
    (pkg, entry) => {
      const hostSrc = join(root, 'packages/host/src');
      const from = new RegExp(
        `^(?:import|export|\\})[^\\n]*from\\s+['"]${pkg.replace('/', '\\/')}(?:/[^'"]*)?['"]`,
        'm',
      );
      const offenders = sourceFiles(hostSrc)
        .filter(
          (file) => file !== join(hostSrc, `${entry}.ts`) && !file.startsWith(`${join(hostSrc, entry)}/`),
        )
        .filter((file) => from.test(readFileSync(file, 'utf8')));
      expect(offenders).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(root, 'packages/host/package.json'), 'utf8'));
      expect(manifest.dependencies[pkg]).toBeUndefined();
      expect(manifest.peerDependenciesMeta[pkg]).toEqual({ optional: true });
      expect(manifest.exports[`./${entry}`]).toBeDefined();
    },
  );

  it('the core imports no other package at all', () => {
    const offenders = sourceFiles(join(root, 'packages/core/src')).filter((file) =>
      /^(?:import|export|\})[^\n]*from\s+['"][^./]/m.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
