/**
 * Asks for a config file's `${input:ID}` on the terminal, as VS Code does: the input's
 * description as the question, and nothing echoed for a password.
 * @module
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { AskInput } from './config.js';
import type { OutputStream } from './output.js';

/**
 * An {@link AskInput} that reads one line from `input`, asking on `output` (both a terminal).
 *
 * @example
 * ```ts
 * const ask = terminalAsk(process.stdin, process.stderr);
 * const token = await ask({ id: 'token', description: 'GitHub token', password: true });
 * ```
 */
export function terminalAsk(input: NodeJS.ReadableStream, output: OutputStream): AskInput {
  return async ({ description, password }) => {
    // The echo of typed characters goes to this stream: muted for a password.
    const echo = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (!password) output.write(chunk);
        done();
      },
    });
    const rl = createInterface({ input, output: echo, terminal: true });
    // Asked only now that the terminal no longer echoes by itself: an answer typed at once stays hidden.
    output.write(`${description}: `);
    try {
      return await new Promise<string>((resolve) => rl.once('line', resolve));
    } finally {
      rl.close();
      if (password) output.write('\n');
    }
  };
}
