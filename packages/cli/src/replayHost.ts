/**
 * What the host of `mcpkit replay --config FILE` answers for the person who is not there: tool
 * calls that need consent (run with `--approve-all`, else refused as any unattended host does),
 * and a server's elicitation or sampling request, which nobody can answer during a replay: each
 * fails at once with an error naming the server and what it asked, and a note on stderr, so the
 * replay never waits for an answer and the recorded result shows as changed.
 * @module
 */
import { McpError } from '@mcpkit/core';
import type { McpHostOptions } from '@mcpkit/host';
import { oneLine } from './output.js';
import { SAMPLING_REFUSED } from './serverRequests.js';

/** The model name the host offers so that servers see sampling declared, as when recorded. */
const NO_MODEL = 'mcpkit-replay (none)';

/** The longest part of a server's question repeated in a note. */
const MAX_QUESTION = 120;

/**
 * The hooks of a replay's host: `approveAll` allows every tool call; elicitation and sampling
 * are declared (as the console declared them when the session was recorded) but refused.
 *
 * @example
 * ```ts
 * const host = configHost(servers, undefined, replayHostOptions(true, (text) => process.stderr.write(`${text}\n`)));
 * ```
 */
export function replayHostOptions(
  approveAll: boolean,
  notice: (text: string) => void,
): Partial<McpHostOptions> {
  const refuse = (server: string, what: string, code: number): never => {
    notice(`Server "${server}" asked ${what} during the replay; refused: nobody answers a replay.`);
    throw new McpError(code, `mcpkit replay cannot answer: server "${server}" asked ${what}`);
  };
  return {
    hooks: {
      ...(approveAll ? { toolCall: () => 'once' as const } : {}),
      sampling: () => 'once',
      elicitation: ({ server, mode, params }) =>
        refuse(
          server,
          `for ${mode === 'url' ? 'a URL to be opened' : 'a form to be filled'} (${JSON.stringify(oneLine(params.message, MAX_QUESTION))})`,
          // The spec's code for a refused request of the client (as the CLI's sampling refusal).
          SAMPLING_REFUSED,
        ),
    },
    models: [NO_MODEL],
    model: ({ server, params }) =>
      refuse(
        server,
        `for a model completion (sampling, ${params.messages.length} message(s))`,
        SAMPLING_REFUSED,
      ),
  };
}
