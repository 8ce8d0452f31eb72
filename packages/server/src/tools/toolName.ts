/**
 * Tool name rules (2025-11-25, SEP-986): 1 to 128 characters from `A-Z a-z 0-9 _ - .`,
 * case-sensitive, unique per server.
 * @module
 */
import { isAsciiAlphanumeric } from '@mcpkit/core/internal';

/**
 * The longest tool name the specification allows.
 *
 * @example
 * ```ts
 * const fits = (name: string) => name.length <= MAX_TOOL_NAME_LENGTH;
 * ```
 */
export const MAX_TOOL_NAME_LENGTH = 128;

function isNameChar(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === 95 || code === 45 || code === 46;
}

/**
 * What is wrong with a tool name, or `undefined` when it follows the specification.
 *
 * @example
 * ```ts
 * toolNameProblem('get_weather'); // undefined
 * toolNameProblem('get weather'); // 'contains " " at position 3; use only A-Z, a-z, 0-9, "_", "-" and "."'
 * ```
 */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    return `is ${name.length} characters long; the limit is ${MAX_TOOL_NAME_LENGTH}`;
  }
  for (let i = 0; i < name.length; i++) {
    if (!isNameChar(name.charCodeAt(i))) {
      return `contains ${JSON.stringify(name[i])} at position ${i}; use only A-Z, a-z, 0-9, "_", "-" and "."`;
    }
  }
  return undefined;
}

/**
 * True when `name` follows the specification's tool name rules.
 *
 * @example
 * ```ts
 * isValidToolName('admin.tools.list'); // true
 * isValidToolName('a,b'); // false
 * ```
 */
export function isValidToolName(name: unknown): name is string {
  return toolNameProblem(name) === undefined;
}
