/**
 * The contract between {@link McpServer} and its feature modules (tools, resources, prompts,
 * completion, logging).
 *
 * A feature module owns its registry, its list and call handlers, and installs them on the server
 * once, on first use (or at construction when the capability is declared up front). The server
 * stays one method table with one dispatch point ({@link Server.dispatch}), so everything a
 * feature answers passes where a middleware pipeline can wrap it.
 * @module
 */
import type { JsonSchemaValidator, ServerCapabilities } from '@mcpkit/core';
import type { BroadcastScope } from './broadcastScope.js';
import type { RequestContext } from './kernel/context.js';
import type { RequestHandler } from './kernel/handlers.js';
import type { ServerSession } from './kernel/session.js';
import type { ListedItem, ListKind } from './listChanged.js';
import type { ServerMiddlewareContext } from './middleware/context.js';
import type { PagedCollection } from './pagination.js';

/**
 * The methods one feature answers, by name.
 *
 * @example
 * ```ts
 * const handlers: FeatureHandlers = { 'prompts/list': (params) => listPrompts(params) };
 * ```
 */
export type FeatureHandlers = Readonly<Record<string, RequestHandler>>;

/**
 * What a feature module needs of the server it is installed on.
 *
 * @example
 * ```ts
 * host.provide({ prompts: { listChanged: true } }, { 'prompts/list': (params) => list(params) });
 * ```
 */
export interface FeatureHost {
  /** Items per list page. */
  readonly pageSize: number;
  /** The validator schemas are compiled with. */
  readonly validator: JsonSchemaValidator;
  /** Declares `capabilities` and answers the `handlers`' methods. */
  provide(capabilities: ServerCapabilities, handlers: FeatureHandlers): void;
  /** A list changed: sessions that were told it can change hear of it (debounced). */
  changed(kind: ListKind, item?: ListedItem): void;
  /** True when a `hideTools` middleware hides tool `name` from the session of `context`. */
  hidesTool(name: string, params: Record<string, unknown>, context: RequestContext): boolean;
  /** True when a receiving middleware is installed. */
  readonly hasMiddleware: boolean;
  /**
   * Runs the receiving middleware around `end` (for a method whose handler places the chain):
   * the answer, or a promise of it (see `composeMiddlewareSync`).
   */
  runMiddleware(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    end: (ctx: ServerMiddlewareContext) => unknown,
  ): unknown;
  /** Names where the `x-mcp-header` parameters of a tool are found (2026-07-28 HTTP header rules). */
  provideToolHeaders(source: (toolName: string) => unknown): void;
  /** Reports an error no peer can be told about. */
  reportError(error: Error, session?: ServerSession): void;
  /** Sends a notification to every initialized session that `filter` accepts (`scope`: the same, as data). */
  broadcast(
    method: string,
    params?: Record<string, unknown>,
    filter?: (session: ServerSession) => boolean,
    scope?: BroadcastScope,
  ): void;
}

/**
 * A feature module: owns a registry and the handlers of its methods, and installs them (with its
 * capability) on the server once, on first use.
 *
 * @example
 * ```ts
 * class PingFeature extends Feature {
 *   protected readonly capability = {};
 *   protected handlers() {
 *     return { 'example/ping': () => ({}) };
 *   }
 * }
 * ```
 */
export abstract class Feature {
  #installed = false;

  constructor(protected readonly host: FeatureHost) {}

  /** The capability the feature declares. */
  protected abstract readonly capability: ServerCapabilities;

  /** The methods the feature answers. */
  protected abstract handlers(): FeatureHandlers;

  /** Declares the capability and installs the handlers; later calls do nothing. */
  install(): void {
    if (this.#installed) return;
    this.#installed = true;
    this.host.provide(this.capability, this.handlers());
  }

  /**
   * Adds a new item to a registry (installing the feature first) and announces the change.
   *
   * @throws {TypeError} when the registry already has an item with the same key.
   */
  protected addItem<T extends ListedItem>(
    registry: PagedCollection<T>,
    kind: ListKind,
    key: string,
    duplicate: string,
    build: () => T,
  ): T {
    if (registry.get(key)) throw new TypeError(duplicate);
    const item = build();
    this.install();
    registry.add(item);
    this.host.changed(kind, item);
    return item;
  }
}
