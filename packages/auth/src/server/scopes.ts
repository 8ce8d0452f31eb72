/**
 * Scopes per tool, resource and prompt: one declaration, enforced by a server middleware on every
 * transport (lists leave out what the token may not use, a call to it is refused with
 * {@link INSUFFICIENT_SCOPE}) and, over HTTP, by `protect()` before dispatch as a `403
 * insufficient_scope` a step-up client recovers from.
 *
 * The declaration lives here rather than on each item's registration so that `@mcpkit/server`
 * stays free of authorization concepts, a server without it pays nothing, and the one object
 * serves both the middleware and `protect()`.
 * @module
 */
import { McpError } from '@mcpkit/core';
import type { ServerMiddleware } from '@mcpkit/server';
import { UriTemplate } from '@mcpkit/server';

/**
 * The JSON-RPC error code of a request refused for want of a scope (in the implementation-defined
 * server range). Its `data` is `{ error: 'insufficient_scope', scope }`, `scope` being the
 * space-separated scopes the request needs. Over HTTP `protect()` answers such a request with
 * `403` instead, before it reaches the server.
 *
 * @example
 * ```ts
 * declare const error: unknown;
 * declare function askForMoreScopes(data: unknown): void;
 * if (error instanceof McpError && error.code === INSUFFICIENT_SCOPE) askForMoreScopes(error.data);
 * ```
 */
export const INSUFFICIENT_SCOPE = -32003;

/**
 * A request the caller's token has no scope for.
 *
 * @example
 * ```ts
 * throw new InsufficientScopeError(['files:write']);
 * ```
 */
export class InsufficientScopeError extends McpError {
  override name = 'InsufficientScopeError';
  constructor(readonly requiredScopes: readonly string[]) {
    const scope = requiredScopes.join(' ');
    super(INSUFFICIENT_SCOPE, `Insufficient scope: this request needs ${scope}`, {
      error: 'insufficient_scope',
      scope,
    });
  }
}

type ScopeMap = Readonly<Record<string, readonly string[]>>;

/** The scopes each item needs, by tool name, prompt name, and resource URI or URI template. */
export interface ScopeRequirements {
  readonly tools?: ScopeMap;
  readonly prompts?: ScopeMap;
  /**
   * By resource URI, or by resource template (RFC 6570): a template's scopes cover reading,
   * subscribing to and completing every URI it matches, and the resources listed under it.
   */
  readonly resources?: ScopeMap;
}

/** A server middleware that enforces {@link ScopeRequirements}; also what `protect()` consults. */
export interface ScopeGuard extends ServerMiddleware {
  /** Every scope a request of `method` with `params` needs (empty when it needs none). */
  requiredFor(method: string, params: unknown): readonly string[];
  /** Every scope declared, each once (what `protect()` advertises as `scopes_supported`). */
  readonly declaredScopes: readonly string[];
}

// RFC 6749 §3.3 scope-token: no space, no quote, no backslash (so it is safe in a header).
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const NONE: readonly string[] = Object.freeze([]);

/**
 * Declares the scopes tools, prompts and resources need. Install the result with `server.use()`
 * and pass it to `protect()` as `scopes`. A token lacking an item's scope does not see the item in
 * `tools/list`, `prompts/list`, `resources/list` or `resources/templates/list`; calling, reading,
 * subscribing to or completing it is refused: with HTTP `403` and `WWW-Authenticate: Bearer
 * error="insufficient_scope", scope="…"` through `protect()`, with the JSON-RPC error
 * {@link INSUFFICIENT_SCOPE} elsewhere (stdio, in-memory). A session without `authInfo` has no
 * scopes, so it sees none of these items.
 *
 * @throws {TypeError} for a scope that is not an RFC 6749 scope token, or a malformed URI template.
 * @example
 * ```ts
 * const scopes = requireScopes({
 *   tools: { write_file: ['files:write'] },
 *   resources: { 'file:///{+path}': ['files:read'] },
 *   prompts: { review: ['files:read'] },
 * });
 * server.use(scopes);
 * declare const verifier: TokenVerifier;
 * const handler = protect(createStreamableHttpHandler(server), {
 *   resource: 'https://mcp.example.com/mcp',
 *   authorizationServers: ['https://auth.example.com'],
 *   verifier,
 *   scopes,
 * });
 * ```
 */
export function requireScopes(requirements: ScopeRequirements): ScopeGuard {
  const resources = toMap(requirements.resources);
  const templates = [...resources]
    .filter(([key]) => key.includes('{'))
    .map(([key, scopes]) => ({ template: new UriTemplate(key), scopes }));
  const maps = { tool: toMap(requirements.tools), prompt: toMap(requirements.prompts) };
  const scopesOf = (kind: Kind, key: unknown): readonly string[] => {
    if (typeof key !== 'string') return NONE;
    if (kind !== 'uri') return maps[kind].get(key) ?? NONE;
    const matched = templates.filter((entry) => entry.template.match(key) !== undefined);
    const exact = resources.get(key) ?? NONE;
    return matched.length === 0 ? exact : union(exact, ...matched.map((entry) => entry.scopes));
  };
  const requiredFor = (method: string, params: unknown): readonly string[] => {
    if (typeof params !== 'object' || params === null) return NONE;
    const p = params as Record<string, unknown>;
    if (method === 'completion/complete') {
      const ref = (typeof p.ref === 'object' && p.ref !== null ? p.ref : {}) as Record<string, unknown>;
      if (ref.type === 'ref/prompt') return scopesOf('prompt', ref.name);
      return ref.type === 'ref/resource' ? scopesOf('uri', ref.uri) : NONE;
    }
    const target = CALLS[method];
    return target ? scopesOf(target[0], p[target[1]]) : NONE;
  };
  const middleware: ServerMiddleware = (ctx, next) => {
    if (ctx.isNotification) return next();
    const granted = ctx.authInfo?.scopes ?? NONE;
    const required = requiredFor(ctx.method, ctx.params);
    if (!grants(granted, required)) throw new InsufficientScopeError(required);
    const list = LISTS[ctx.method];
    if (!list) return next();
    const [member, kind, field] = list;
    return next().then((page) =>
      filterPage(page as Record<string, unknown>, member, (item) =>
        grants(granted, scopesOf(kind, item[field])),
      ),
    );
  };
  const declaredScopes = union(...[...maps.tool.values(), ...maps.prompt.values(), ...resources.values()]);
  return Object.assign(middleware, { requiredFor, declaredScopes });
}

/** What a declaration is keyed by: a tool's name, a prompt's name, a resource URI or template. */
type Kind = 'tool' | 'prompt' | 'uri';

/** The guarded requests (with `completion/complete`, whose `ref` says the kind): the kind of item they use, and the param that names it. */
const CALLS: Readonly<Record<string, readonly [Kind, string]>> = {
  'tools/call': ['tool', 'name'],
  'prompts/get': ['prompt', 'name'],
  'resources/read': ['uri', 'uri'],
  'resources/subscribe': ['uri', 'uri'],
};

/** The filtered lists: the member holding the items, their kind, and the field that names each. */
const LISTS: Readonly<Record<string, readonly [string, Kind, string]>> = {
  'tools/list': ['tools', 'tool', 'name'],
  'prompts/list': ['prompts', 'prompt', 'name'],
  'resources/list': ['resources', 'uri', 'uri'],
  'resources/templates/list': ['resourceTemplates', 'uri', 'uriTemplate'],
};

function grants(granted: readonly string[], required: readonly string[]): boolean {
  return required.every((scope) => granted.includes(scope));
}

function filterPage(
  page: Record<string, unknown>,
  member: string,
  keep: (item: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  const items = page[member];
  if (!Array.isArray(items)) return page;
  const kept = items.filter((item) => keep(item as Record<string, unknown>));
  return kept.length === items.length ? page : { ...page, [member]: kept };
}

function toMap(scopes: ScopeMap | undefined): Map<string, readonly string[]> {
  const map = new Map<string, readonly string[]>();
  for (const [key, list] of Object.entries(scopes ?? {})) {
    for (const scope of list) {
      if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope))
        throw new TypeError(`"${key}" declares an invalid scope: ${JSON.stringify(scope)}`);
    }
    if (list.length > 0) map.set(key, Object.freeze([...new Set(list)]));
  }
  return map;
}

/**
 * The scopes of every list, each once, in first-seen order.
 *
 * @example
 * ```ts
 * union(['a'], ['a', 'b']); // ['a', 'b']
 * ```
 */
export function union(...lists: ReadonlyArray<readonly string[]>): readonly string[] {
  return [...new Set(lists.flat())];
}
