/**
 * `mcpkit dev server.ts` as a user runs it: a TypeScript server file in a temporary project,
 * clients connected to the front (mcpkit's McpClient, the official SDK v1 client and `mcpkit watch`
 * over HTTP, and a client that spawns `mcpkit dev --stdio`), the file rewritten under them. Each client hears
 * `tools/list_changed` and lists and calls the new tool in the session it already had; a syntax
 * error is reported and the next good save recovers.
 *
 * The server file imports `@mcpkit/server` through a `node_modules` link to the repository's
 * (built packages), and uses a TypeScript `enum`, which only a transforming loader (tsx) runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpClient } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/client/http';
import { StdioClientTransport } from '@mcpkit/node/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { watchSources } from '../packages/cli/src/dev/watch.js';
import { eventually } from './support/eventually.js';
import { CLI, exited, printedUrl } from './support/gatewayProcess.js';
import { repoRoot } from './support/officialSchema.js';

/** A server offering one tool per name; each answers with its name and a value of an enum. */
function serverSource(tools: readonly string[]): string {
  return `import { StdioServerTransport } from '@mcpkit/node/stdio';
import { McpServer } from '@mcpkit/server';

enum Mood {
  Happy = 'happy',
}

const names: readonly string[] = ${JSON.stringify(tools)};
const server = new McpServer({ name: 'dev-test', version: '1.0.0' });
for (const name of names) {
  server.tool(name, () => (name === 'crash' ? process.exit(3) : \`\${name}: \${Mood.Happy}\`));
}
server.connect(new StdioServerTransport());
console.error(\`dev-test server up with \${names.join(', ')}\`);
`;
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temporary project with `server.ts` (offering `tools`) and the repository's node_modules. */
async function project(tools: readonly string[]): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-dev-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const file = path.join(dir, 'server.ts');
  await writeFile(file, serverSource(tools));
  return { dir, file };
}

/** `mcpkit dev server.ts --port 0` in `dir`; its stderr, gathered as it comes. */
function startDev(dir: string): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [...CLI, 'dev', 'server.ts', '--port', '0'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { child, stderr: () => stderr };
}

const names = (tools: ReadonlyArray<{ name: string }>) => tools.map((tool) => tool.name).sort();
const textOf = (result: object) => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('mcpkit dev', () => {
  it('HTTP front: McpClient and the SDK v1 client keep their sessions across restarts; a syntax error is reported and the next save recovers', async () => {
    const { dir, file } = await project(['one']);
    const dev = startDev(dir);
    const url = await printedUrl(dev.child);
    await eventually(() => dev.stderr().includes('server.ts is running'), 'the first start', 30_000);
    expect(dev.stderr()).toContain('dev-test server up with one'); // the server's stderr, passed through

    const mcpkit = new McpClient({ name: 'mcpkit-client', version: '1' });
    cleanups.push(() => mcpkit.close());
    let mcpkitHeard = 0;
    mcpkit.onListChanged('tools', () => void mcpkitHeard++);
    await mcpkit.connect(new StreamableHttpClientTransport(new URL(url)));
    expect(names(await mcpkit.tools())).toEqual(['one']);

    const sdk = new Client({ name: 'sdk-client', version: '1' });
    cleanups.push(() => sdk.close());
    let sdkHeard = 0;
    sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => void sdkHeard++);
    const sdkTransport = new StreamableHTTPClientTransport(new URL(url));
    await sdk.connect(sdkTransport);
    const sdkSession = sdkTransport.sessionId;
    expect(sdkSession).toBeTruthy();
    expect(names((await sdk.listTools()).tools)).toEqual(['one']);

    // The CLI's own watch, as a developer runs it in another terminal.
    const watch = spawn(process.execPath, [...CLI, 'watch', '--json', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => watch.kill('SIGKILL'));
    let watched = '';
    let watchLog = '';
    watch.stdout!.on('data', (chunk: Buffer) => {
      watched += chunk.toString('utf8');
    });
    watch.stderr!.on('data', (chunk: Buffer) => {
      watchLog += chunk.toString('utf8');
    });
    await eventually(() => watchLog.includes('Watching'), 'mcpkit watch to be watching', 30_000);

    await writeFile(file, serverSource(['one', 'two']));
    await eventually(() => mcpkitHeard > 0 && sdkHeard > 0, 'tools/list_changed at both clients', 30_000);
    const change = await eventually(
      () => watched.split('\n').find((line) => line.includes('"tools/list_changed"')),
      'mcpkit watch to print the change',
      30_000,
    );
    expect(JSON.parse(change)).toMatchObject({
      event: 'tools/list_changed',
      added: ['two'],
      removed: [],
    });
    expect(dev.stderr()).toMatch(/restarted after a change in server\.ts \(\d+ ms\)/);
    expect(names(await mcpkit.tools())).toEqual(['one', 'two']);
    expect(textOf(await mcpkit.callTool('two'))).toBe('two: happy');
    expect(names((await sdk.listTools()).tools)).toEqual(['one', 'two']);
    expect(textOf(await sdk.callTool({ name: 'two', arguments: {} }))).toBe('two: happy');
    expect(sdkTransport.sessionId).toBe(sdkSession);

    await writeFile(file, `${serverSource(['one'])}\nconst broken: = ;\n`);
    await eventually(() => dev.stderr().includes('the server did not start'), 'the failed start', 30_000);
    expect(dev.stderr()).toMatch(
      /the server did not start \(it exited with code 1; its stderr is above\); waiting for the next change/,
    );
    expect(dev.stderr()).toMatch(/server\.ts:\d+:\d+: ERROR/); // tsx's own message, passed through

    const heardBefore = sdkHeard;
    await writeFile(file, serverSource(['one', 'two', 'three']));
    await eventually(() => sdkHeard > heardBefore, 'tools/list_changed after the fix', 30_000);
    expect(names((await sdk.listTools()).tools)).toEqual(['one', 'three', 'two']);
    expect(textOf(await sdk.callTool({ name: 'three', arguments: {} }))).toBe('three: happy');
    expect(names(await mcpkit.tools())).toEqual(['one', 'three', 'two']);
    expect(sdkTransport.sessionId).toBe(sdkSession);

    dev.child.kill('SIGINT');
    expect(await exited(dev.child)).toBe(0);
  }, 120_000);

  it('stdio front: a client that spawns `mcpkit dev --stdio` hears a change in a module the file imports, calls the new tool, and a crash is said and recovered', async () => {
    const { dir, file } = await project(['one']);
    // The tool names move to lib/names.ts, which server.ts imports (as ./lib/names.js, mapped by tsx).
    await mkdir(path.join(dir, 'lib'));
    const namesModule = (tools: readonly string[]) =>
      `export const names: readonly string[] = ${JSON.stringify(tools)};\n`;
    await writeFile(path.join(dir, 'lib/names.ts'), namesModule(['one']));
    await writeFile(
      file,
      serverSource([]).replace(
        /const names: readonly string\[\] = \[\];/,
        "import { names } from './lib/names.js';",
      ),
    );
    let stderr = '';
    const client = new McpClient({ name: 'stdio-client', version: '1' });
    cleanups.push(() => client.close());
    let heard = 0;
    client.onListChanged('tools', () => void heard++);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...CLI, 'dev', 'server.ts', '--stdio'],
        cwd: dir,
        stderr: 'pipe',
        onStderr: (text) => {
          stderr += text;
        },
      }),
    );
    expect(names(await client.tools())).toEqual(['one']);
    await eventually(() => stderr.includes('server.ts is running'), 'the first start', 30_000);
    await writeFile(path.join(dir, 'lib/names.ts'), namesModule(['crash', 'one', 'two']));
    await eventually(() => heard > 0, 'tools/list_changed', 30_000);
    expect(names(await client.tools())).toEqual(['crash', 'one', 'two']);
    expect(textOf(await client.callTool('two'))).toBe('two: happy');

    // A crash (not a change) is said once, and the server is started again.
    expect((await client.callTool('crash')).isError).toBe(true);
    await eventually(
      () => stderr.includes('the server exited by itself (it exited with code 3'),
      'the crash line',
      30_000,
    );
    expect(textOf(await client.callTool('two'))).toBe('two: happy');
    expect(stderr).toMatch(
      new RegExp(`restarted after a change in lib\\${path.sep}names\\.ts \\(\\d+ ms\\)`),
    );
  }, 120_000);
});

describe('mcpkit dev: watching (real files, chokidar)', () => {
  it('in a watched directory only code counts, a file named on its own always does, and a burst is one change', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-dev-watch-'));
    try {
      await mkdir(path.join(dir, 'src'));
      await writeFile(path.join(dir, 'config.json'), '{}');
      const changed: string[] = [];
      const watcher = await watchSources(
        [path.join(dir, 'src'), path.join(dir, 'config.json')],
        150,
        (file) => changed.push(path.relative(dir, file)),
        (error) => {
          throw error;
        },
      );
      try {
        const quiet = () => new Promise((resolve) => setTimeout(resolve, 500));
        /** Waits (up to 15 s: shared machines are slow) for the `count`th change, then a quiet while. */
        const changes = async (count: number) => {
          for (let waited = 0; changed.length < count && waited < 15_000; waited += 20) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await quiet();
          return changed;
        };
        await writeFile(path.join(dir, 'src', 'server.log'), 'a line the server wrote');
        await quiet();
        expect(changed).toEqual([]);
        // Three saves in a burst: one change (named by whichever event came last).
        await writeFile(path.join(dir, 'src', 'a.ts'), 'export {};');
        await writeFile(path.join(dir, 'src', 'b.ts'), 'export {};');
        await writeFile(path.join(dir, 'src', 'a.ts'), 'export const a = 1;');
        const burst = await changes(1);
        expect(burst).toHaveLength(1);
        expect([path.join('src', 'a.ts'), path.join('src', 'b.ts')]).toContain(burst[0]);
        await writeFile(path.join(dir, 'config.json'), '{"a":1}');
        expect((await changes(2)).slice(1)).toEqual(['config.json']);
      } finally {
        await watcher.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
