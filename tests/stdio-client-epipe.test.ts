/**
 * Regression: a stdio server that shuts its stdin and then exits made the client fail with
 * "Could not write to the MCP server process: write EPIPE" whenever the failed write won the race
 * against the exit event, hiding the exit code and stderr the user needs (the CLI then called it
 * "a bug in mcpkit", exit 1, instead of a connection problem, exit 3).
 */
import { McpClient } from '@mcpkit/client';
import { StdioClientTransport, StdioServerProcessError } from '@mcpkit/node/stdio';
import { describe, expect, it } from 'vitest';

/** Closes its stdin at once, then says why on stderr and exits with code 7. */
const DYING_SERVER = `
  require('node:fs').closeSync(0);
  setTimeout(() => { process.stderr.write('Error: boom, the config is missing\\n'); process.exit(7); }, 300);
`;

/**
 * Closes its stdin, says so on stderr, and stays alive: only the grace period can end the
 * connection.
 */
const DEAF_SERVER = `require('node:fs').closeSync(0); process.stderr.write('stdin closed\\n'); setInterval(() => {}, 1000);`;

describe('a stdio server whose stdin is gone', () => {
  it('a server that shuts its stdin and exits is reported by its exit code and stderr, not by EPIPE', async () => {
    const client = new McpClient({ name: 'epipe', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', DYING_SERVER],
      stderr: 'pipe',
    });
    const failure = (await client.connect(transport).catch((error: unknown) => error)) as Error;
    const processError = failure instanceof StdioServerProcessError ? failure : failure.cause;
    expect(processError, String(failure)).toBeInstanceOf(StdioServerProcessError);
    expect((processError as Error).message).toContain('code 7');
    expect((processError as Error).message).toContain('boom, the config is missing');
    expect(String(failure.message)).not.toContain('EPIPE');
    await client.close();
  });

  it('a server that shuts its stdin and stays alive is cut off with a connection error naming the write failure', async () => {
    let stdinClosed!: () => void;
    const whenStdinClosed = new Promise<void>((resolve) => {
      stdinClosed = resolve;
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', DEAF_SERVER],
      onStderr: (text) => {
        if (text.includes('stdin closed')) stdinClosed();
      },
    });
    let closedWith: Error | undefined;
    let closed!: () => void;
    const whenClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    await transport.start({
      message: () => {},
      parseError: () => {},
      error: () => {},
      closed: (error) => {
        closedWith = error;
        closed();
      },
    });
    // Once the server has shut its stdin (it says so), this write meets a pipe nobody reads: EPIPE.
    await whenStdinClosed;
    await Promise.resolve(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).catch(() => {});
    await whenClosed;
    expect(closedWith?.name).toBe('ConnectionClosedError');
    expect(closedWith?.message).toMatch(/Could not write to the MCP server process: .*EPIPE/);
    await transport.close();
  });
});
