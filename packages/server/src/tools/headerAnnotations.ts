/**
 * The `x-mcp-header` rules of revision 2026-07-28 (Streamable HTTP, "Custom Headers from Tool
 * Parameters"), checked when a tool is registered: a client must drop a tool that breaks them, so
 * a server that would publish one has a bug, and hears of it at `server.tool()`.
 * @module
 */
import { isRecord } from '@mcpkit/core/internal';

const PRIMITIVES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Members whose values are data, not schemas: an `x-mcp-header` key inside them is not an annotation. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples']);
const MAX_DEPTH = 64;

/** RFC 9110 `tchar`: the characters of an HTTP field-name token. */
function isToken(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!alnum && !"!#$%&'*+-.^_`|~".includes(value[i]!)) return false;
  }
  return true;
}

/**
 * Throws a `TypeError` when a tool's input schema breaks the `x-mcp-header` rules: the value must
 * be a non-empty token, unique regardless of case, on a `string`, `integer` or `boolean`
 * parameter reached from the root through `properties` keys only.
 *
 * @example
 * ```ts
 * checkHeaderAnnotations('Tool "q"', { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
 * ```
 */
export function checkHeaderAnnotations(what: string, inputSchema: unknown): void {
  const seen = new Set<string>();
  const visit = (node: unknown, path: string, reachable: boolean, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, path, false, depth + 1);
      return;
    }
    if (!isRecord(node)) return;
    if (Object.hasOwn(node, 'x-mcp-header')) checkOne(what, node, path, reachable && path !== '', seen);
    for (const key of Object.keys(node)) {
      if (key === 'x-mcp-header' || DATA_KEYWORDS.has(key)) continue;
      const child = node[key];
      if (key === 'properties' && isRecord(child)) {
        for (const name of Object.keys(child)) visit(child[name], `${path}/${name}`, reachable, depth + 1);
      } else visit(child, `${path}/${key}`, false, depth + 1);
    }
  };
  visit(inputSchema, '', true, 0);
}

function checkOne(
  what: string,
  node: Record<string, unknown>,
  path: string,
  reachable: boolean,
  seen: Set<string>,
): void {
  const value = node['x-mcp-header'];
  const where = `${what} inputSchema ${path || '/'}`;
  if (!reachable) {
    throw new TypeError(
      `${where}: x-mcp-header is allowed only on a parameter reached through "properties" alone`,
    );
  }
  if (typeof value !== 'string' || !isToken(value)) {
    throw new TypeError(
      `${where}: x-mcp-header must be a non-empty HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`,
    );
  }
  if (!PRIMITIVES.has(node.type)) {
    throw new TypeError(`${where}: x-mcp-header needs "type" string, integer or boolean`);
  }
  const folded = value.toLowerCase();
  if (seen.has(folded))
    throw new TypeError(`${where}: x-mcp-header "${value}" is used twice (case-insensitively)`);
  seen.add(folded);
}
