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

/** The repository every package names (CHANGELOG.md says so too). */
const REPOSITORY = 'https://github.com/mcpkit/mcpkit';

describe('publishing metadata (issue 35: ready for npm with provenance)', () => {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const manifests = (rootManifest.workspaces as string[]).map((workspace) => ({
    workspace,
    manifest: JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')),
  }));

  it.each(manifests.map(({ workspace }) => workspace))(
    '%s names the one repository (with its directory), homepage and bugs, and publishes publicly with provenance',
    (workspace) => {
      const { manifest } = manifests.find((each) => each.workspace === workspace)!;
      expect(manifest.repository).toEqual({
        type: 'git',
        url: `git+${REPOSITORY}.git`,
        directory: workspace,
      });
      expect(manifest.homepage).toBe(`${REPOSITORY}/tree/main/${workspace}#readme`);
      expect(manifest.bugs).toEqual({ url: `${REPOSITORY}/issues` });
      expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
      expect(manifest.license).toBe('MIT');
    },
  );

  it('every package has one version, and each pins its siblings to exactly that version', () => {
    const version = manifests[0]!.manifest.version;
    const names = new Set(manifests.map(({ manifest }) => manifest.name));
    for (const { manifest } of manifests) {
      expect(manifest.version, manifest.name).toBe(version);
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
        for (const [name, range] of Object.entries(manifest[field] ?? {})) {
          if (names.has(name)) expect(range, `${manifest.name} ${field} ${name}`).toBe(version);
        }
      }
    }
  });

  it('CHANGELOG.md keeps an Unreleased section and names the repository', () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(changelog).toContain('https://keepachangelog.com/en/1.1.0/');
    expect(changelog).toContain(REPOSITORY);
  });
});
