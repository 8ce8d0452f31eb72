/**
 * Runs the `mcpkit` CLI in this process through `runCli(argv, io)`: the same parsing, client,
 * transports and error reporting as `npx mcpkit`, without paying for a Node process per command.
 * Off a terminal, with NO_COLOR, from the repository root; Ctrl-C is never heard.
 */
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type CliIo, runCli } from '../../packages/cli/src/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What one in-process run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

/** Runs `mcpkit ARGV…` to completion in this process. */
export async function runCliInProcess(argv: readonly string[]): Promise<CliRun> {
  const out: Buffer[] = [];
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end();
  const io: CliIo = {
    stdout: { write: (chunk) => out.push(Buffer.from(chunk)) },
    stderr: { write: (chunk) => (stderr += Buffer.from(chunk).toString('utf8')) },
    stdin,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
    cwd: ROOT,
    onInterrupt: () => () => {},
  };
  const code = await runCli(argv, io);
  const stdoutBytes = Buffer.concat(out);
  return { code, stdout: stdoutBytes.toString('utf8'), stderr, stdoutBytes };
}
