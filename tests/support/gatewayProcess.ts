/**
 * `mcpkit gateway` as a real process for the host tests: a config file of two stdio upstreams
 * (the demo server and the reference everything server), the command line that runs the gateway
 * from the TypeScript sources, the URL it prints, and its exit.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { demoStdio, reference } from '../fixtures/hostServers.js';
import { repoRoot } from './officialSchema.js';

/** `node` arguments that run the CLI from its sources; append `gateway …` or another verb. */
export const CLI = [
  '--import',
  path.join(repoRoot, 'conformance/register-ts.mjs'),
  path.join(repoRoot, 'packages/cli/src/main.ts'),
];

/**
 * Stdio client options (mcpkit's and the SDK's `StdioClientTransport` take them) that run
 * `mcpkit gateway --stdio` over the config file `config`; `stderr` is the gateway's log.
 *
 * @example
 * ```ts
 * await client.connect(new StdioClientTransport(gatewayStdio(config, 'ignore')));
 * ```
 */
export function gatewayStdio(
  config: string,
  stderr: 'pipe' | 'ignore',
): { command: string; args: string[]; stderr: 'pipe' | 'ignore' } {
  return { command: process.execPath, args: [...CLI, 'gateway', '--config', config, '--stdio'], stderr };
}

/** Writes `mcp.json` with the demo (`demo`) and everything (`everything`) servers in a new temp dir. */
export async function twoServerConfig(prefix: string): Promise<{ dir: string; config: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const config = path.join(dir, 'mcp.json');
  const mcpServers: Record<string, unknown> = {};
  for (const entry of [demoStdio('demo'), reference('everything', 'server-everything', ['stdio'])]) {
    if (entry.kind !== 'stdio') throw new Error('stdio entries expected');
    // The tests read the whole catalogue from the first listing: each server may take its time
    // to start (the default start budget, 3 s, could leave one unlisted on a loaded machine).
    mcpServers[entry.name] = { command: entry.command, args: entry.args, startBudget: 120 };
  }
  await writeFile(config, JSON.stringify({ mcpServers }));
  return { dir, config };
}

/**
 * {@link twoServerConfig} for a whole test file: written before its tests, removed after them.
 * Read `path` inside a test (it is set by the file's `beforeAll`).
 */
export function twoServerConfigForFile(prefix: string): { readonly path: string } {
  const files = { dir: '', path: '' };
  beforeAll(async () => {
    const { dir, config } = await twoServerConfig(prefix);
    files.dir = dir;
    files.path = config;
  });
  afterAll(async () => {
    if (files.dir) await rm(files.dir, { recursive: true, force: true });
  });
  return files;
}

/** The URL `mcpkit gateway --http --port 0` prints on stdout. */
export function printedUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /^(http:\/\/\S+)$/m.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcpkit gateway exited early (${code})`)));
  });
}

/** Resolves with the process's exit code once it has exited. */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}
