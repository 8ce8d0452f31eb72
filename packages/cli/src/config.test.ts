import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerEntry } from './config.js';
import { CliError, ExitCode } from './errors.js';

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-config-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function config(name: string, content: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function usageMessage(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).exitCode).toBe(ExitCode.Usage);
  return (error as CliError).message;
}

describe('loadServerEntry', () => {
  it('reads Claude Desktop / Cursor stdio entries, resolving cwd against the file', async () => {
    const file = await config('claude.json', {
      mcpServers: {
        files: {
          command: 'npx',
          args: ['-y', 'server-files', '/tmp'],
          env: { LEVEL: 'debug', PORT: 8080 },
          cwd: 'work',
        },
      },
    });
    expect(await loadServerEntry(file, undefined)).toEqual({
      kind: 'stdio',
      name: 'files',
      command: 'npx',
      args: ['-y', 'server-files', '/tmp'],
      env: { LEVEL: 'debug', PORT: '8080' },
      cwd: path.join(dir, 'work'),
      disabled: false,
      autoApprove: [],
    });
  });

  it('reads VS Code "servers" with types, and url entries with headers', async () => {
    const file = await config('vscode.json', {
      servers: {
        remote: {
          type: 'http',
          url: 'https://example.com/mcp',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: this is the config file's own variable syntax
          headers: { Authorization: 'Bearer ${env:MCPKIT_TOKEN}' },
        },
        old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        local: { type: 'stdio', command: 'node', args: ['server.js'] },
      },
    });
    const env = { MCPKIT_TOKEN: 't0k3n' };
    expect(await loadServerEntry(file, 'remote', env)).toEqual({
      kind: 'url',
      name: 'remote',
      url: new URL('https://example.com/mcp'),
      headers: { Authorization: 'Bearer t0k3n' },
      transport: 'auto',
      disabled: false,
      autoApprove: [],
    });
    expect(await loadServerEntry(file, 'old', env)).toMatchObject({ kind: 'url', transport: 'sse' });
    expect(await loadServerEntry(file, 'local', env)).toMatchObject({ kind: 'stdio', command: 'node' });
    expect(await usageMessage(loadServerEntry(file, 'remote', {}))).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's variable syntax, quoted
      'uses ${env:MCPKIT_TOKEN}, but MCPKIT_TOKEN is not set',
    );
  });

  it('says precisely what is wrong with a file or an entry', async () => {
    const missing = path.join(dir, 'nope.json');
    expect(await usageMessage(loadServerEntry(missing, undefined))).toBe(
      `Config file ${missing} does not exist`,
    );
    const broken = await config('broken.json', '{"mcpServers": {"a": {"command": "x" "y"}}}');
    expect(await usageMessage(loadServerEntry(broken, undefined))).toMatch(
      /is not valid JSON: .* \(line 1, column 38\)$/,
    );
    const cases: Array<[unknown, string]> = [
      [[], 'must hold a JSON object with "mcpServers"'],
      [{ other: {} }, 'has no "mcpServers" object'],
      [{ mcpServers: [] }, '"mcpServers" must be an object of named servers'],
      [{ mcpServers: {} }, 'lists no servers'],
      [{ mcpServers: { a: {}, b: {} } }, 'lists 2 servers; choose one with --server'],
      [{ mcpServers: { a: 'x' } }, 'server "a" must be an object'],
      [{ mcpServers: { a: {} } }, 'needs "command" (a stdio server) or "url" (an HTTP server)'],
      [{ mcpServers: { a: { command: 'x', url: 'http://h' } } }, 'has both "command" and "url"'],
      [{ mcpServers: { a: { command: 'x', args: 'y' } } }, '"args" must be an array of strings'],
      [{ mcpServers: { a: { command: 'x', env: { A: {} } } } }, '"env.A" must be a string'],
      [{ mcpServers: { a: { url: 'not a url' } } }, '"url" is not a valid URL'],
      [{ mcpServers: { a: { url: 'file:///x' } } }, '"url" must be http:// or https://'],
      [{ mcpServers: { a: { type: 'carrier-pigeon', url: 'http://h' } } }, 'unknown "type" "carrier-pigeon"'],
    ];
    for (const [content, expected] of cases) {
      const file = await config('case.json', content);
      expect(await usageMessage(loadServerEntry(file, undefined))).toContain(expected);
    }
    const two = await config('two.json', { mcpServers: { a: { command: 'x' }, b: { command: 'y' } } });
    expect(await usageMessage(loadServerEntry(two, 'c'))).toBe(`${two} has no server named "c"`);
  });
});
