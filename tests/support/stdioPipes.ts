/**
 * A stdio server transport over in-memory pipes, with the test playing the peer: it writes lines
 * to the server's stdin and reads the server's stdout as parsed JSON lines.
 *
 * @example
 * ```ts
 * const pipes = stdioPipes();
 * const session = server.connect(pipes.transport);
 * pipes.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
 * await pipes.waitFor((m) => m.id === 1);
 * ```
 */
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@mcpkit/node/stdio';

/** One line the server wrote, parsed: whatever it is, the tests read it loosely. */
type Line = Record<string, any>;

export function stdioPipes(options: { maxJsonDepth?: number } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Line[] = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      lines.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
  });
  const transport = new StdioServerTransport({ stdin, stdout, ...options });
  /** Writes one raw line (a string as is, anything else as JSON). */
  const send = (message: unknown) =>
    stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  /** Resolves with the first line matching `test`; fails after `timeoutMs`. */
  const waitFor = async (test: (line: Line) => boolean, timeoutMs = 5_000): Promise<Line> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find(test);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching line; saw ${JSON.stringify(lines).slice(0, 2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { transport, lines, send, waitFor };
}
