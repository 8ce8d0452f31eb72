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

  it('packages/apps imports node: only in its ./sandbox Node helper', () => {
    const appsSrc = join(root, 'packages/apps/src');
    const nodeOnly = [join(appsSrc, 'sandbox.ts'), join(appsSrc, 'sandbox/serveSandbox.ts')];
    const offenders = sourceFiles(appsSrc)
      .filter((file) => !nodeOnly.includes(file))
      .filter((file) =>
        /^(?:import|export|\})[^\n]*from\s+['"]node:|import\(\s*['"]node:/m.test(readFileSync(file, 'utf8')),
      );
    expect(offenders).toEqual([]);
  });

  it('the core imports no other package at all', () => {
    const offenders = sourceFiles(join(root, 'packages/core/src')).filter((file) =>
      /^(?:import|export|\})[^\n]*from\s+['"][^./]/m.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
