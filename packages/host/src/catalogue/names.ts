/**
 * Namespaced names: `server__name`, always valid under the tool-name rule `^[A-Za-z0-9_-]{1,64}$`
 * and independent of the order servers start in (a name depends only on its server and itself).
 * @module
 */

/** The longest name many model APIs accept for a tool. */
const MAX_NAME = 64;
const INVALID = /[^A-Za-z0-9_-]/g;

/**
 * How the host names what its servers offer.
 *
 * @example
 * ```ts
 * const naming: Naming = { mode: 'always', separator: '__', prefixes: { everything: 'ev' } };
 * ```
 */
export interface Naming {
  /** `onCollision` (default): prefix a name only when two servers offer it; `always`; `off`: a collision is an error. */
  readonly mode: 'onCollision' | 'always' | 'off';
  /** Between prefix and name. Default `__`. */
  readonly separator: string;
  /** Per-server prefixes; default the server's key. */
  readonly prefixes: Readonly<Record<string, string>>;
}

/**
 * The namespaced name of `name` from `server`. The prefix loses any copy of the separator (so
 * the split stays unambiguous) and characters outside the rule; an overlong or rewritten result
 * ends in a stable 8-character hash of the server and the name, so distinct names stay distinct.
 *
 * @example
 * ```ts
 * namespacedName(naming, 'files', 'read'); // 'files__read'
 * ```
 */
export function namespacedName(naming: Naming, server: string, name: string): string {
  const prefix = (naming.prefixes[server] ?? server).split(naming.separator).join('_').replace(INVALID, '_');
  const plain = `${prefix}${naming.separator}${name}`;
  const clean = plain.replace(INVALID, '_');
  if (clean === plain && clean.length <= MAX_NAME) return clean;
  return hashedName(clean, server, name);
}

/**
 * `name` cut to fit, ending in a stable hash of the server and the original name: distinct
 * whenever the pair is.
 *
 * @example
 * ```ts
 * hashedName('a__echo', 'a', 'echo'); // 'a__echo_1f2e3d4c'
 * ```
 */
export function hashedName(name: string, server: string, original: string): string {
  return `${name.slice(0, MAX_NAME - 9)}_${hash8(`${server}\u0000${original}`)}`;
}

/** Where namespaced MCP Apps views live: still `ui://`, which hosts require of a view's URI. */
const UI_NAMESPACE = 'ui://mcp-host/';

/**
 * The reversible URI of a resource (or template) that two servers both offer: the server's key
 * as the authority, the original URI (or template) verbatim as the rest, so a rewritten template
 * still expands to a rewritten URI. An MCP Apps view (`ui://…`) stays a `ui://` URI:
 * `ui://mcp-host/<server>/<the rest>`.
 *
 * @example
 * ```ts
 * namespacedUri('files', 'file:///a'); // 'mcp-host://files/file:///a'
 * namespacedUri('tally', 'ui://demo/tally'); // 'ui://mcp-host/tally/demo/tally'
 * ```
 */
export function namespacedUri(server: string, uri: string): string {
  if (uri.startsWith('ui://')) return `${UI_NAMESPACE}${encodeURIComponent(server)}/${uri.slice(5)}`;
  return `mcp-host://${encodeURIComponent(server)}/${uri}`;
}

/**
 * Undoes {@link namespacedUri}; `undefined` for any other URI.
 *
 * @example
 * ```ts
 * splitNamespacedUri('mcp-host://files/file:///a'); // { server: 'files', uri: 'file:///a' }
 * splitNamespacedUri('ui://mcp-host/tally/demo/tally'); // { server: 'tally', uri: 'ui://demo/tally' }
 * ```
 */
export function splitNamespacedUri(uri: string): { server: string; uri: string } | undefined {
  if (uri.startsWith(UI_NAMESPACE)) {
    const slash = uri.indexOf('/', UI_NAMESPACE.length);
    if (slash < 0) return undefined;
    try {
      return {
        server: decodeURIComponent(uri.slice(UI_NAMESPACE.length, slash)),
        uri: `ui://${uri.slice(slash + 1)}`,
      };
    } catch {
      return undefined;
    }
  }
  if (!uri.startsWith('mcp-host://')) return undefined;
  const slash = uri.indexOf('/', 11);
  if (slash < 0) return undefined;
  try {
    return { server: decodeURIComponent(uri.slice(11, slash)), uri: uri.slice(slash + 1) };
  } catch {
    return undefined;
  }
}

/** FNV-1a, 32 bits, as 8 hex digits: stable across runs and runtimes, no crypto needed. */
function hash8(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
