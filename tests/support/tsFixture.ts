import path from 'node:path';
import { repoRoot } from './officialSchema.js';

/** The loader that lets `node` run TypeScript sources (`node --import REGISTER_TS file.ts`). */
export const REGISTER_TS = path.join(repoRoot, 'conformance/register-ts.mjs');

/** How to spawn a fixture: what stdio transports (mcpkit's and the SDK's) and `spawn` take. */
export interface FixtureCommand {
  command: string;
  args: string[];
  cwd: string;
}

/**
 * The command that runs `tests/fixtures/<file>` from its TypeScript source in a new `node`, with
 * `args` after it.
 *
 * @example
 * ```ts
 * await client.connect(new StdioClientTransport(fixtureCommand('sdk-server.ts')));
 * ```
 */
export function fixtureCommand(file: string, ...args: string[]): FixtureCommand {
  return {
    command: process.execPath,
    args: ['--import', REGISTER_TS, path.join(repoRoot, 'tests/fixtures', file), ...args],
    cwd: repoRoot,
  };
}
