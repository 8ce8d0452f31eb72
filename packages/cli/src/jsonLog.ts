/**
 * `--log-json` of `mcpkit serve` and `mcpkit gateway`: the structured log events of
 * `createLogObserver` as JSON lines on stderr, in pino's shape (`level`, `time`, fields, `msg`).
 * @module
 */
import { createLogObserver, type Logger, type Observer } from '@mcpkit/core';

/**
 * A log observer writing one JSON object per line to `stream`, info and above.
 *
 * @example
 * ```ts
 * const observer = jsonLogObserver(process.stderr);
 * // {"level":"info","time":1764000000000,"event":"mcp.session.opened",...,"msg":"MCP session opened"}
 * ```
 */
export function jsonLogObserver(stream: { write(text: string): unknown }): Observer {
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, msg: string): void => {
      stream.write(`${JSON.stringify({ level, time: Date.now(), ...fields, msg })}\n`);
    };
  const logger: Logger = { debug: () => {}, info: at('info'), warn: at('warn'), error: at('error') };
  return createLogObserver(logger);
}
