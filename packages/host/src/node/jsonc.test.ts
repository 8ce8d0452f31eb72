/**
 * `.vscode/mcp.json` is JSON with comments (VS Code reads it so, and so do people writing the other
 * config files by hand): comments and trailing commas used to be refused (issue 29).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HostConfigError } from '../errors.js';
import { loadHostConfig } from './config.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function file(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-jsonc-'));
  dirs.push(dir);
  await mkdir(path.join(dir, '.vscode'));
  const where = path.join(dir, '.vscode', 'mcp.json');
  await writeFile(where, text);
  return where;
}

it('reads a .vscode/mcp.json with line and block comments and trailing commas', async () => {
  const where = await file(`{
  // The servers of this workspace
  "servers": {
    /* a local one */
    "demo": { "command": "node", "args": ["\${workspaceFolder}/server.js",], "startBudget": 10, },
  },
}`);
  const [demo] = await loadHostConfig(where);
  expect(demo).toMatchObject({
    kind: 'stdio',
    name: 'demo',
    command: 'node',
    args: [path.join(path.dirname(path.dirname(where)), 'server.js')],
    startBudgetMs: 10_000,
  });
});

it('still refuses what is not JSON at all, naming the line and column', async () => {
  const where = await file('{\n  "servers": {\n    "demo": { "command": "node" ]\n  }\n}');
  const error = await loadHostConfig(where).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(HostConfigError);
  expect((error as Error).message).toBe(`${where} is not valid JSON: CommaExpected (line 3, column 33)`);
});
