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
 * const handler = protect(createStreamableHttpHandler(server), { resource, authorizationServers, verifier, scopes });
 * ```
 */
export function requireScopes(requirements: ScopeRequirements): ScopeGuard {
  const tools = toMap(requirements.tools);
  const prompts = toMap(requirements.prompts);
  const resources = toMap(requirements.resources);
  const templates = [...resources]
    .filter(([key]) => key.includes('{'))
    .map(([key, scopes]) => ({ template: new UriTemplate(key), scopes }));
  const forUri = (uri: unknown): readonly string[] => {
    if (typeof uri !== 'string') return NONE;
    const matched = templates.filter((entry) => entry.template.match(uri) !== undefined);
    const exact = resources.get(uri);
    if (matched.length === 0) return exact ?? NONE;
    return union(exact ?? NONE, ...matched.map((entry) => entry.scopes));
  };
  const requiredFor = (method: string, params: unknown): readonly string[] => {
    const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
    switch (method) {
      case 'tools/call':
        return lookup(tools, p.name);
      case 'prompts/get':
        return lookup(prompts, p.name);
      case 'resources/read':
      case 'resources/subscribe':
        return forUri(p.uri);
      case 'completion/complete':
        return completionScopes(p.ref, prompts, forUri);
      default:
        return NONE;
    }
  };
  const middleware: ServerMiddleware = (ctx, next) => {
    if (ctx.isNotification) return next();
    const granted = ctx.authInfo?.scopes ?? NONE;
    const required = requiredFor(ctx.method, ctx.params);
    if (required.length > 0 && required.some((scope) => !granted.includes(scope))) {
      throw new InsufficientScopeError(required);
    }
    const filter = LIST_FILTERS[ctx.method];
    if (!filter) return next();
    const allowed = (scopes: readonly string[]) => scopes.every((scope) => granted.includes(scope));
    const keep = { tools, prompts, forUri, allowed };
    return next().then((page) => filter(page as Record<string, unknown>, keep));
  };
  const declaredScopes = union(...[tools, prompts, resources].flatMap((map) => [...map.values()]));
  return Object.assign(middleware, { requiredFor, declaredScopes });
}

interface Keep {
  readonly tools: Map<string, readonly string[]>;
  readonly prompts: Map<string, readonly string[]>;
  readonly forUri: (uri: unknown) => readonly string[];
  readonly allowed: (scopes: readonly string[]) => boolean;
}

type ListFilter = (page: Record<string, unknown>, keep: Keep) => Record<string, unknown>;

/** Each list method's filter: which member holds the items, and which scopes an item needs. */
const LIST_FILTERS: Readonly<Record<string, ListFilter>> = {
  'tools/list': (page, k) => filterPage(page, 'tools', (item) => k.allowed(lookup(k.tools, item.name))),
  'prompts/list': (page, k) => filterPage(page, 'prompts', (item) => k.allowed(lookup(k.prompts, item.name))),
  'resources/list': (page, k) => filterPage(page, 'resources', (item) => k.allowed(k.forUri(item.uri))),
  'resources/templates/list': (page, k) =>
    filterPage(page, 'resourceTemplates', (item) => k.allowed(k.forUri(item.uriTemplate))),
};

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

function completionScopes(
  ref: unknown,
  prompts: Map<string, readonly string[]>,
  forUri: (uri: unknown) => readonly string[],
): readonly string[] {
  if (typeof ref !== 'object' || ref === null) return NONE;
  const r = ref as Record<string, unknown>;
  if (r.type === 'ref/prompt') return lookup(prompts, r.name);
  if (r.type === 'ref/resource') return forUri(r.uri);
  return NONE;
}

function lookup(map: Map<string, readonly string[]>, key: unknown): readonly string[] {
  return typeof key === 'string' ? (map.get(key) ?? NONE) : NONE;
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
