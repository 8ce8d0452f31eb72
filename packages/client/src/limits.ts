/**
 * The client's default bounds against servers it does not control (see docs/client-limits.md).
 * @module
 */

/**
 * The default hard limit of a request, in ms, however much progress the server reports: 10
 * minutes. Progress keeps a call alive up to here and no further, so a server streaming rising
 * progress cannot hold an unattended host's call for an hour. Work that takes longer belongs in
 * a task (`callToolAndWait`), or raise `maxTotalTimeout`.
 *
 * @example
 * ```ts
 * new McpClient(info, { maxTotalTimeout: 3 * DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT });
 * ```
 */
export const DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT = 10 * 60_000;

/**
 * The default number of the server's requests (sampling, elicitation, roots, ping) the client
 * handles at once; past it, a request is refused with an error naming `maxIncomingRequests`.
 *
 * @example
 * ```ts
 * new McpClient(info, { maxIncomingRequests: 2 * DEFAULT_MAX_INCOMING_REQUESTS });
 * ```
 */
export const DEFAULT_MAX_INCOMING_REQUESTS = 64;

/**
 * The default cap on pages `tools()`, `resources()`, `resourceTemplates()` and `prompts()` follow.
 *
 * @example
 * ```ts
 * new McpClient(info, { maxPages: 4 * DEFAULT_MAX_PAGES });
 * ```
 */
export const DEFAULT_MAX_PAGES = 64;

/**
 * Collecting a paginated list stopped: the server repeated a cursor, or sent more pages than
 * `maxPages`. A local failure, not an error from the server.
 *
 * @example
 * ```ts
 * try {
 *   await client.tools();
 * } catch (error) {
 *   if (error instanceof PaginationError) console.error(error.method, error.cursor);
 * }
 * ```
 */
export class PaginationError extends Error {
  override name = 'PaginationError';

  constructor(
    /** The list method, e.g. `tools/list`. */
    readonly method: string,
    /** The server's cursor that was refused. */
    readonly cursor: string,
    message: string,
  ) {
    super(message);
  }
}
