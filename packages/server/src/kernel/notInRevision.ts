/**
 * The error of a method the request's revision does not have.
 * @module
 */
import { ErrorCode, McpError } from '@mcpkit/core';

/**
 * The error a method that the revision does not have gets: `-32601`, naming the revision, so a
 * client that mixed eras learns why.
 *
 * @example
 * ```ts
 * notInRevision('initialize', '2026-07-28').message; // 'Method not found: "initialize" does not exist in protocol revision 2026-07-28'
 * ```
 */
export function notInRevision(method: string, revision: string): McpError {
  return new McpError(
    ErrorCode.MethodNotFound,
    `Method not found: "${method}" does not exist in protocol revision ${revision}`,
  );
}
