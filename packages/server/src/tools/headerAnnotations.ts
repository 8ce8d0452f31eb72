/**
 * The `x-mcp-header` rules of revision 2026-07-28 (Streamable HTTP, "Custom Headers from Tool
 * Parameters"), checked when a tool is registered: a client must drop a tool that breaks them, so
 * a server that would publish one has a bug, and hears of it at `server.tool()`. The rules
 * themselves are core's (`scanParamHeaders`, shared with the client); the wording is the server's.
 * @module
 */
import { type ParamHeaderProblem, scanParamHeaders } from '@mcpkit/core/internal';

/**
 * Throws a `TypeError` when a tool's input schema breaks the `x-mcp-header` rules: the value must
 * be a non-empty token, unique regardless of case, on a `string`, `integer` or `boolean`
 * parameter reached from the root through `properties` keys only. A schema too deep to search is
 * accepted (its annotations below that depth are never used).
 *
 * @example
 * ```ts
 * checkHeaderAnnotations('Tool "q"', { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
 * ```
 */
export function checkHeaderAnnotations(what: string, inputSchema: unknown): void {
  const { problem } = scanParamHeaders(inputSchema);
  if (problem && problem.reason !== 'depth') {
    throw new TypeError(`${what} inputSchema ${problem.pointer || '/'}: ${explain(problem)}`);
  }
}

function explain(problem: ParamHeaderProblem): string {
  switch (problem.reason) {
    case 'unreachable':
      return 'x-mcp-header is allowed only on a parameter reached through "properties" alone';
    case 'type':
      return 'x-mcp-header needs "type" string, integer or boolean';
    case 'twice':
      return `x-mcp-header "${String(problem.name)}" is used twice (case-insensitively)`;
    default:
      return "x-mcp-header must be a non-empty HTTP token (letters, digits, !#$%&'*+-.^_`|~)";
  }
}
