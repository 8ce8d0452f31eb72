/**
 * Checks of request params shared by the feature modules: each failure is an `InvalidParams`
 * wire error whose message names the method and the member.
 * @module
 */
import { ErrorCode, McpError } from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';

/**
 * An `InvalidParams` (-32602) error.
 *
 * @example
 * ```ts
 * throw invalidParams('tools/call: "name" must be a string');
 * ```
 */
export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

/**
 * Checks a map of string values (prompt arguments, completion context); absent means empty.
 *
 * @example
 * ```ts
 * stringRecord(params.arguments, 'prompts/get: "arguments"');
 * ```
 */
export function stringRecord(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw invalidParams(`${what} must be an object of strings`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw invalidParams(`${what}: "${key}" must be a string`);
  }
  return value as Record<string, string>;
}

/**
 * Checks that a member is a string.
 *
 * @example
 * ```ts
 * const name = requireString(params.name, 'tools/call: "name"');
 * ```
 */
export function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw invalidParams(`${what} must be a string`);
  return value;
}
