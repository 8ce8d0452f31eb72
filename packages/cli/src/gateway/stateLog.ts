/**
 * `mcpkit gateway`'s log of its upstreams' state changes: the one place an operator learns why a
 * server failed (`/readyz` carries no error texts). One line per change of a server, however many
 * copies of it the gateway runs (per session, per lane), secrets redacted.
 * @module
 */
import type { StateChange } from '@mcpkit/host';
import { redactSecrets } from '../auth/failure.js';

/** The longest reason a line carries; a server's error can quote a whole stderr tail. */
const MAX_REASON = 300;

/**
 * The log line of one state change, or `undefined` for a change not worth a line (stopping).
 *
 * @example
 * ```ts
 * stateLine({ server: 'playwright', state: 'ready', previous: 'starting', startMs: 2300 }); // 'playwright ready (2.3 s)'
 * ```
 */
export function stateLine(change: StateChange): string | undefined {
  const { server, state, previous, error } = change;
  switch (state) {
    case 'ready':
      if (previous === 'degraded') return `${server} ready again`;
      return change.startMs === undefined
        ? `${server} ready`
        : `${server} ready (${seconds(change.startMs)})`;
    case 'failed':
      return `${server} failed: ${reasonOf(server, error)}`;
    case 'degraded':
      return `${server} degraded: ${reasonOf(server, error)}`;
    case 'starting':
      // The first start says nothing yet; a start after a crash is what an operator wants to see.
      return error ? `${server} restarting (crashed: ${reasonOf(server, error)})` : undefined;
    default:
      return undefined;
  }
}

/**
 * A listener for the host's `onStateChange` that writes each line through `log`, once per change
 * of a server. A gateway with per-session upstreams or lanes runs a copy of each server per
 * session or lane, every copy under the one listener: each new session's copy would say
 * `playwright ready` again. A line is written when it says something new of that server (the
 * last line written for it said another state, or another reason); a ready line is one state
 * however long its start took. The map holds one entry per configured server name.
 *
 * @example
 * ```ts
 * const host = { servers, onStateChange: stateLogger((line) => process.stderr.write(`${line}\n`)) };
 * ```
 */
export function stateLogger(log: (line: string) => void): (change: StateChange) => void {
  const said = new Map<string, string>();
  return (change) => {
    const line = stateLine(change);
    if (line === undefined) return;
    const gist = change.state === 'ready' ? 'ready' : line;
    if (said.get(change.server) === gist) return;
    said.set(change.server, gist);
    log(line);
  };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * An error as one line: without the host's `Server "name"` prefix, with the last line of the
 * server's stderr when its exit carried one, redacted and capped.
 */
function reasonOf(server: string, error: Error | undefined): string {
  if (!error) return 'no reason given';
  let text = error.message.replace(`Server "${server}" `, '');
  const tail = stderrTailOf(error);
  if (tail !== undefined && !text.includes(tail)) text += ` (${tail})`;
  const line = redactSecrets(text.replace(/\s*\n\s*/g, ' ').trim());
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}

/** The last non-empty line of the stderr tail a stdio exit error carries on its causes. */
function stderrTailOf(error: Error): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const tail = (current as { stderrTail?: unknown }).stderrTail;
    if (typeof tail === 'string' && tail.trim() !== '') {
      return tail.trim().split('\n').pop()?.trim();
    }
    current = current.cause;
  }
  return undefined;
}
