/**
 * The packages as a user gets them, installed the way the README's "Until the packages are on
 * npm" paragraph says (issue 35): `npm run pack:all` in the repository (the clone and `npm ci`
 * of its first line are this checkout), then its second line, `cd PROJECT && npm install
 * REPO/packed/*.tgz`, run by a shell in a new project under the system temp directory (outside
 * the repository, so nothing resolves through the workspace links). Then every entry point is
 * imported by TypeScript (moduleResolution node16 and bundler, library declarations checked) and
 * by Node, and the installed `mcpkit` bin runs. Third-party dependencies come from the registry
 * (or npm's cache).
 *
 * About a minute; in the slow tier, and alone with `npm run test:pack`.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTo,
  createProject,
  entryPoints,
  installInto,
  lintTarball,
  measureTree,
  type PackedPackage,
  ROOT,
  run,
  workspacePackages,
} from '../scripts/lib/packages.mjs';

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const TYPES_NODE_VERSION: string = JSON.parse(
  readFileSync(path.join(ROOT, 'node_modules/@types/node/package.json'), 'utf8'),
).version;
const packages = workspacePackages();
const entries = packages.flatMap((pkg) => entryPoints(pkg.manifest));
/**
 * The agent adapters: their declarations name the frameworks' types, and those (`ai`'s
 * `HeadersInit`, `RequestCredentials`, `FileList`) need the DOM lib, so they are type-checked
 * apart, with it. Everything else must type-check without it.
 */
const FRAMEWORK_ENTRIES = ['@mcpkit/host/ai-sdk', '@mcpkit/host/langchain'];
const domFreeEntries = entries.filter((entry) => !FRAMEWORK_ENTRIES.includes(entry));

let scratch = '';
let app = '';
let packed: PackedPackage[] = [];

/** Identifier-safe name of an entry point, e.g. `@mcpkit/server/http` -> `mcpkit_server_http`. */
const localName = (entry: string) => entry.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_/, '');

/** A module that imports every entry point given and uses each, so no import is elided. */
function importEveryEntry(entries: readonly string[]): string {
  const imports = entries.map((entry) => `import * as ${localName(entry)} from '${entry}';`);
  return `${imports.join('\n')}
import { McpServer } from '@mcpkit/server';
import { McpClient } from '@mcpkit/client';

export const server: McpServer = new McpServer({ name: 'packed', version: '1.0.0' });
export const client: McpClient = new McpClient({ name: 'packed', version: '1.0.0' });
export const modules: Record<string, object> = {
${entries.map((entry) => `  '${entry}': ${localName(entry)},`).join('\n')}
};
`;
}

/** A Node project's settings (no DOM lib: what a Node-only TypeScript project has). */
const TSCONFIGS = {
  node16: { module: 'node16', moduleResolution: 'node16', lib: ['ES2022'] },
  bundler: { module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022'] },
} as const;

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The two command lines of the README's install paragraph (the block that clones mcpkit). */
function readmeInstallLines(): { pack: string; install: string } {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /```sh\n(git clone https:\/\/github\.com\/mcpkit\/mcpkit\.git[^\n]*)\n([^\n]*)\n```/.exec(
    readme,
  );
  if (!block) throw new Error('README.md has no install block starting with "git clone …/mcpkit.git"');
  return { pack: block[1] as string, install: block[2] as string };
}

/** What a tarball holds, as paths inside its package. */
async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], { cwd: path.dirname(tarball) });
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('package/') && !line.endsWith('/'))
    .map((line) => line.slice('package/'.length));
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mcpkit-pack-'));
  const { pack, install } = readmeInstallLines();
  // Line 1: this checkout is the clone, `npm ci` already ran; the rest is `npm run pack:all`.
  expect(pack.endsWith('&& npm run pack:all')).toBe(true);
  await run(NPM, ['run', '--silent', 'pack:all'], { cwd: ROOT });
  const folder = path.join(ROOT, 'packed');
  packed = await Promise.all(
    readdirSync(folder)
      .filter((file) => file.endsWith('.tgz'))
      .map(async (file) => {
        const tarball = path.join(folder, file);
        const manifest = JSON.parse(
          (await run('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: folder })).stdout,
        );
        return {
          name: manifest.name,
          version: manifest.version,
          tarball,
          files: await tarballFiles(tarball),
        };
      }),
  );
  // Line 2, literally, with this project and this checkout for the README's placeholders.
  app = path.join(scratch, 'your-project');
  await createProject(app);
  const command = install.replaceAll('/path/to/your-project', app).replaceAll('/path/to/mcpkit', ROOT);
  await run('sh', ['-c', command], { cwd: scratch });
  // What the entry-point checks below need besides: the optional peers, and Node's types.
  await addTo(app, [
    'ajv@^8.17.0', // the optional peers of @mcpkit/schema/ajv
    'ajv-formats@^3.0.1',
    'undici@^7.30.2', // the optional peer of @mcpkit/node/http-client (with @mcpkit/client)
    '@opentelemetry/api@^1.9.0', // the optional peer of @mcpkit/otel
    'prom-client@^15.1.3', // the optional peer of @mcpkit/node/metrics
    'ai@^7.0.173', // the optional peer of @mcpkit/host/ai-sdk
    '@langchain/core@^1.4.0', // the optional peer of @mcpkit/host/langchain
    '@types/json-schema@^7.0.15', // @ai-sdk/provider's declarations import it without depending on it
    'zod@^4.1.0', // the README's quickstart server
    'tsx@^4.20.0', // and the runner its quickstart names for TypeScript
    `@types/node@${TYPES_NODE_VERSION}`,
  ]);
  await writeFile(path.join(app, 'entries.ts'), importEveryEntry(domFreeEntries));
  await writeFile(path.join(app, 'agents.ts'), importEveryEntry(FRAMEWORK_ENTRIES));
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('packages install from their tarballs and work outside the repository', () => {
  it('the app under test lives outside the repository, and got every package from the README command', () => {
    expect(path.relative(ROOT, app).startsWith('..')).toBe(true);
    expect(packed.map((pkg) => pkg.name).sort()).toEqual(packages.map((pkg) => pkg.manifest.name).sort());
    const dependencies = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')).dependencies;
    for (const pkg of packages) expect(dependencies[pkg.manifest.name], pkg.manifest.name).toMatch(/^file:/);
  });

  it('every tarball ships README, LICENSE and dist, and no build info, tests or fixtures', () => {
    for (const pkg of packed) {
      expect(pkg.files, pkg.name).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
      expect(
        pkg.files.some((file) => file.startsWith('dist/')),
        pkg.name,
      ).toBe(true);
      const unwanted = pkg.files.filter((file) =>
        /\.tsbuildinfo$|\.test\.ts$|\.test-d\.ts$|(^|\/)fixtures\//.test(file),
      );
      expect(unwanted, pkg.name).toEqual([]);
    }
  });

  it.each(packages.map((pkg) => pkg.manifest.name))(
    '%s passes publint --strict and attw --profile esm-only',
    async (name) => {
      const pkg = packed.find((each) => each.name === name);
      await lintTarball((pkg as PackedPackage).tarball);
    },
    60_000,
  );

  it.each(Object.keys(TSCONFIGS))(
    'every entry point type-checks with moduleResolution %s, declarations included, without the DOM lib',
    async (mode) => {
      const compilerOptions = {
        ...TSCONFIGS[mode as keyof typeof TSCONFIGS],
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      };
      const config = path.join(app, `tsconfig.${mode}.json`);
      await writeFile(config, JSON.stringify({ compilerOptions, files: ['entries.ts'] }));
      await run(process.execPath, [TSC, '-p', config], { cwd: app });
    },
    120_000,
  );

  it('the agent adapters type-check against their installed frameworks (with the DOM lib those need)', async () => {
    const compilerOptions = {
      ...TSCONFIGS.node16,
      lib: ['ES2022', 'DOM'],
      target: 'ES2022',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
    };
    const config = path.join(app, 'tsconfig.agents.json');
    await writeFile(config, JSON.stringify({ compilerOptions, files: ['agents.ts'] }));
    await run(process.execPath, [TSC, '-p', config], { cwd: app });
  }, 120_000);

  it('node imports every entry point of the installed packages', async () => {
    const script = `
const entries = ${JSON.stringify(entries)};
const report = {};
for (const entry of entries) report[entry] = Object.keys(await import(entry)).length;
report.resolved = entries.map((entry) => import.meta.resolve(entry));
const { McpServer } = await import('@mcpkit/server');
const { createInMemoryPair } = await import('@mcpkit/core');
const { McpClient } = await import('@mcpkit/client');
const server = new McpServer({ name: 'packed', version: '1.0.0' });
server.tool('ping', () => 'pong');
const [clientSide, serverSide] = createInMemoryPair();
await server.connect(serverSide);
const client = new McpClient({ name: 'packed', version: '1.0.0' });
await client.connect(clientSide);
report.call = await client.callTool('ping', {});
await client.close();
console.log(JSON.stringify(report));
`;
    await writeFile(path.join(app, 'check.mjs'), script);
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: app, timeoutMs: 60_000 });
    const report = JSON.parse(stdout);
    for (const entry of entries) expect(report[entry], entry).toBeGreaterThan(0);
    const installed = pathToFileURL(path.join(app, 'node_modules')).href;
    for (const url of report.resolved) expect(url.startsWith(`${installed}/`), url).toBe(true);
    expect(report.call.content).toEqual([{ type: 'text', text: 'pong' }]);
  }, 60_000);

  it('the installed mcpkit bin runs', async () => {
    const { stdout } = await run(path.join(app, 'node_modules/.bin/mcpkit'), ['--help'], { cwd: app });
    expect(stdout).toMatch(/mcpkit/);
    expect(stdout).toMatch(/\bcall\b/);
  });

  it("the README's quickstart, as written: server.ts, then mcpkit list and call over stdio through tsx", async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const quickstart = readme.slice(readme.indexOf('## Quickstart'));
    const server = /```ts\n([\s\S]*?)```/.exec(quickstart)?.[1];
    const shell = /```sh\n([\s\S]*?)```/.exec(quickstart)?.[1];
    expect(server, 'the quickstart has a server').toContain('server.connect(new StdioServerTransport())');
    await writeFile(path.join(app, 'server.ts'), server!);
    const [list, call] = shell!
      .trim()
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, ''));
    expect(list).toBe('npx mcpkit list -- npx tsx server.ts');
    expect(call).toBe('npx mcpkit call forecast city=Paris -- npx tsx server.ts');
    const listed = await run('sh', ['-c', list!], { cwd: app, timeoutMs: 60_000 });
    expect(listed.stdout).toContain('forecast');
    const called = await run('sh', ['-c', call!], { cwd: app, timeoutMs: 60_000 });
    expect(called.stdout).toBe('Sunny in Paris\n');
  }, 150_000);

  it('mcpkit auth-server without its optional peer oidc-provider says how to install it (exit 2)', async () => {
    const failure = run(path.join(app, 'node_modules/.bin/mcpkit'), ['auth-server', '--port', '0'], {
      cwd: app,
      timeoutMs: 30_000,
    });
    await expect(failure).rejects.toThrow(
      /needs the oidc-provider package[\s\S]*npm install -D oidc-provider/,
    );
  });

  it('mcpkit dev runs a TypeScript file through the tsx it finds (or the type stripping of Node), else says "install tsx"', async () => {
    const source = [
      "import { StdioServerTransport } from '@mcpkit/node/stdio';",
      "import { McpServer } from '@mcpkit/server';",
      "const answer: string = 'from dev';",
      "const server = new McpServer({ name: 'dev-packed', version: '1.0.0' });",
      'server.tool("dev_answer", () => answer);',
      'server.connect(new StdioServerTransport());',
    ].join('\n');
    await writeFile(path.join(app, 'dev-server.ts'), source);
    const bin = path.join(app, 'node_modules/.bin/mcpkit');
    const hasTsx = readdirSync(path.join(app, 'node_modules')).includes('tsx');
    const nodeStripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);
    if (hasTsx || nodeStripsTypes) {
      // The stdio front, started by a client as Claude Desktop would; it ends when the client does.
      const listed = await run(bin, ['list', '--', bin, 'dev', 'dev-server.ts', '--stdio'], {
        cwd: app,
        timeoutMs: 60_000,
      });
      expect(listed.stdout).toContain('dev_answer');
    } else {
      const failure = run(bin, ['dev', 'dev-server.ts', '--port', '0'], { cwd: app, timeoutMs: 30_000 });
      await expect(failure).rejects.toThrow(/cannot run TypeScript[\s\S]*install tsx: npm install -D tsx/);
    }
  }, 90_000);
});

describe('mcpkit console from the tarballs', () => {
  it('serves its page from the installed package, offline, connected to a stdio server', async () => {
    const bin = path.join(app, 'node_modules/.bin/mcpkit');
    const child = spawn(bin, ['console', '--no-open', '--', bin, 'serve', '--stdio'], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no URL from mcpkit console: ${out}`)), 30_000);
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const found = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(out);
          if (found) {
            clearTimeout(timer);
            resolve(found[1]!);
          }
        });
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(new URL(script!, url))).status).toBe(200);
      // Nothing the page loads comes from anywhere but the console itself.
      expect(html).not.toMatch(/https?:\/\//);
      const state = await fetch(new URL('/api/state', url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-mcpkit-console-token': new URL(url).searchParams.get('token')!,
        },
        body: '{}',
      });
      expect((await state.json()).result).toMatchObject({
        connected: true,
        serverInfo: { name: 'mcpkit-demo' },
      });
    } finally {
      child.kill('SIGINT');
    }
  }, 60_000);
});

describe('the README install-size figures match what the packed packages measure', () => {
  /** Installs the named packages' tarballs into a new project and measures its node_modules. */
  async function footprint(names: string[]) {
    const project = path.join(scratch, `footprint-${names.length}`);
    await installInto(
      project,
      packed.filter((pkg) => names.includes(pkg.name)).map((pkg) => pkg.tarball),
    );
    return measureTree(path.join(project, 'node_modules'));
  }

  it('"a server installs N packages, X MB" (and with @mcpkit/node) are within 10% of a fresh install', async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const claim =
      /a server installs \*\*(\d+) packages, ([\d.]+) MB\*\* \((\d+) packages, ([\d.]+) MB with `@mcpkit\/node`/.exec(
        readme,
      );
    expect(claim, 'README states the server install footprint').not.toBeNull();
    const [, serverCount, serverMB, nodeCount, nodeMB] = claim as RegExpExecArray;
    const server = await footprint(['@mcpkit/core', '@mcpkit/schema', '@mcpkit/server']);
    const withNode = await footprint(['@mcpkit/core', '@mcpkit/schema', '@mcpkit/server', '@mcpkit/node']);
    const measured = `measured: server ${server.packages} packages, ${server.sizeMB.toFixed(2)} MB; with @mcpkit/node ${withNode.packages} packages, ${withNode.sizeMB.toFixed(2)} MB`;
    expect(Number(serverCount), measured).toBe(server.packages);
    expect(Number(nodeCount), measured).toBe(withNode.packages);
    expect(Math.abs(Number(serverMB) - server.sizeMB) / server.sizeMB, measured).toBeLessThanOrEqual(0.1);
    expect(Math.abs(Number(nodeMB) - withNode.sizeMB) / withNode.sizeMB, measured).toBeLessThanOrEqual(0.1);
  }, 120_000);
});
