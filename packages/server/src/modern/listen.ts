/**
 * `subscriptions/listen` (2026-07-28): a long-lived request whose stream carries the
 * notifications the client opted in to, each tagged with the request's id as its subscription id.
 * Delivery needs no session: the server owns one small in-memory {@link ListenRegistry} that
 * `server.broadcast()` publishes to, and each open listen request is one entry in it.
 * @module
 */
import { ErrorCode, McpError, type ServerCapabilities } from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** The filter of a listen request, as the server agreed to honor it. */
interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

/** One open `subscriptions/listen` request. */
interface Listener {
  readonly filter: ListenFilter;
  readonly uris: ReadonlySet<string> | undefined;
  deliver(method: string, params: Record<string, unknown> | undefined): void;
  end(): void;
}

function wants(listener: Listener, method: string, params: Record<string, unknown> | undefined): boolean {
  switch (method) {
    case 'notifications/tools/list_changed':
      return listener.filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return listener.filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return listener.filter.resourcesListChanged === true;
    case 'notifications/resources/updated':
      return typeof params?.uri === 'string' && listener.uris?.has(params.uri) === true;
    default:
      // The client opts in per type; anything else is never sent on a listen stream.
      return false;
  }
}

/**
 * Told when a listen request opens, with the resource URIs it listens to (the honored filter);
 * what it returns runs when that request ends. A proxy subscribes upstream here.
 *
 * @example
 * ```ts
 * const hook: ListenHook = (uris) => {
 *   console.log('listening to', uris);
 *   return () => console.log('no longer listening to', uris);
 * };
 * ```
 */
export type ListenHook = (uris: readonly string[], ctx: RequestContext) => (() => void) | undefined;

/**
 * The open listen requests of one server. Costs nothing while none is open.
 *
 * @example
 * ```ts
 * const registry = new ListenRegistry();
 * registry.publish('notifications/tools/list_changed', undefined); // no listener: nothing happens
 * ```
 */
export class ListenRegistry {
  readonly #listeners = new Set<Listener>();
  readonly #hooks = new Set<ListenHook>();

  /** Calls `hook` for each listen request that opens from now on; returns the function that stops. */
  watch(hook: ListenHook): () => void {
    this.#hooks.add(hook);
    return () => this.#hooks.delete(hook);
  }

  /** @internal A listen request opened: the hooks are told; returns what runs when it ends. */
  opened(uris: readonly string[], ctx: RequestContext): Array<() => void> {
    const ends: Array<() => void> = [];
    for (const hook of this.#hooks) {
      const end = hook(uris, ctx);
      if (end) ends.push(end);
    }
    return ends;
  }

  /** Delivers a notification to every listener that opted in to it. */
  publish(method: string, params: Record<string, unknown> | undefined): void {
    if (this.#listeners.size === 0) return;
    for (const listener of this.#listeners)
      if (wants(listener, method, params)) listener.deliver(method, params);
  }

  /** Ends every listen request gracefully (each answers with its completion result). */
  endAll(): void {
    for (const listener of [...this.#listeners]) listener.end();
  }

  /** @internal */
  add(listener: Listener): void {
    this.#listeners.add(listener);
  }

  /** @internal */
  delete(listener: Listener): void {
    this.#listeners.delete(listener);
  }
}

/** The part of the requested filter this server supports (the acknowledgment echoes it). */
function acceptedFilter(requested: Record<string, unknown>, capabilities: ServerCapabilities): ListenFilter {
  const filter: ListenFilter = {};
  if (requested.toolsListChanged === true && capabilities.tools?.listChanged) filter.toolsListChanged = true;
  if (requested.promptsListChanged === true && capabilities.prompts?.listChanged)
    filter.promptsListChanged = true;
  if (requested.resourcesListChanged === true && capabilities.resources?.listChanged)
    filter.resourcesListChanged = true;
  const uris = requested.resourceSubscriptions;
  if (Array.isArray(uris) && capabilities.resources?.subscribe) {
    filter.resourceSubscriptions = uris.filter((uri): uri is string => typeof uri === 'string');
  }
  return filter;
}

function tagged(params: Record<string, unknown> | undefined, id: unknown): Record<string, unknown> {
  const meta = isRecord(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [SUBSCRIPTION_ID]: id } };
}

/**
 * Answers `subscriptions/listen`: acknowledges the honored filter first, then forwards matching
 * notifications until the client cancels, the connection closes, or the server ends it (then the
 * request is answered with its completion result).
 *
 * @example
 * ```ts
 * declare const registry: ListenRegistry;
 * declare const ctx: RequestContext;
 * const done = answerListen(registry, { notifications: { toolsListChanged: true } }, ctx);
 * ```
 */
export function answerListen(
  registry: ListenRegistry,
  params: Record<string, unknown>,
  ctx: RequestContext,
): Promise<Record<string, unknown>> {
  const requested = params.notifications;
  if (!isRecord(requested)) {
    throw new McpError(ErrorCode.InvalidParams, 'subscriptions/listen: "notifications" must be an object');
  }
  const id = ctx.requestId;
  const filter = acceptedFilter(requested, ctx.session.server.capabilities);
  const send = (method: string, body: Record<string, unknown> | undefined) => {
    const sent = ctx.notify(method, tagged(body, id));
    if (sent) sent.catch(() => {});
  };
  send(ACKNOWLEDGED, { notifications: filter });
  return new Promise((resolve) => {
    let ends: Array<() => void> = [];
    const listener: Listener = {
      filter,
      uris: filter.resourceSubscriptions ? new Set(filter.resourceSubscriptions) : undefined,
      deliver: send,
      end: () => {
        registry.delete(listener);
        for (const end of ends.splice(0)) end();
        resolve({ _meta: { [SUBSCRIPTION_ID]: id } });
      },
    };
    const signal = ctx.signal;
    if (signal.aborted) return listener.end();
    registry.add(listener);
    ends = registry.opened(filter.resourceSubscriptions ?? [], ctx);
    signal.addEventListener('abort', listener.end, { once: true });
  });
}
