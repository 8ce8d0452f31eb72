/**
 * The host's listings and name resolution: every enabled server's items gathered into one
 * namespaced catalogue, and a catalogue name or URI turned back into its server's route.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import {
  ErrorCode,
  LocalError,
  McpError,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@mcpkit/core';
import { linkViews } from './appLinks.js';
import type { Catalogue, CatalogueKind, HostEntry, Route } from './catalogue/catalogue.js';
import type { Upstream } from './connection/upstream.js';
import { renamedTools, withServerName } from './policy/tools.js';
import type { ServerPolicy } from './policy/types.js';

/** What {@link HostCatalogue} needs of its host. */
export interface HostCatalogueDeps {
  readonly catalogue: Catalogue;
  /** The servers that may be listed (not disabled), in configuration order. */
  enabled(): Upstream[];
  closed(): boolean;
  policyOf(server: string): ServerPolicy;
  /** The host declares MCP Apps upstream: tools' view links are put in catalogue form. */
  readonly apps?: boolean;
  /** How long a listing waits for a server that is starting (see `McpHostOptions.startBudgetMs`). */
  startBudgetOf(upstream: Upstream): number;
}

/**
 * Lists and resolves across a host's servers.
 *
 * @example
 * ```ts
 * declare const deps: HostCatalogueDeps;
 * const view = new HostCatalogue(deps);
 * const route = await view.resolve('tools', 'a__echo', 'tool'); // { server: 'a', original: 'echo' }
 * ```
 */
export class HostCatalogue {
  /** Where each MCP Apps view URI of the last tool listing leads (with `apps`). */
  private viewRoutes: ReadonlyMap<string, Route> = new Map();

  constructor(private readonly deps: HostCatalogueDeps) {}

  /**
   * Every server's tools (policy applied), namespaced on collision; with `apps`, each view link
   * (`_meta.ui.resourceUri`) names the view as the catalogue does. `wait` lists servers that are
   * still starting once they are ready, past their start budget.
   */
  async tools(wait = false): Promise<HostEntry<Tool>[]> {
    const aggregated = await this.aggregate(
      'tools',
      async (client, server) =>
        client.serverCapabilities?.tools
          ? renamedTools(this.deps.policyOf(server), await client.tools())
          : [],
      wait,
    );
    const entries = aggregated.map((entry) => withServerName(this.deps.policyOf(entry.server), entry));
    if (!this.deps.apps) return entries;
    const { tools, routes } = linkViews(entries, await this.resources());
    this.viewRoutes = routes;
    return tools;
  }

  /** Where a view URI of the last tool listing leads (see {@link tools}). */
  viewRoutesNow(): ReadonlyMap<string, Route> {
    return this.viewRoutes;
  }

  /** Every server's prompts, namespaced on collision (`wait`: as for {@link tools}). */
  prompts(wait = false): Promise<HostEntry<Prompt>[]> {
    return this.aggregate(
      'prompts',
      (client) => (client.serverCapabilities?.prompts ? client.prompts() : []),
      wait,
    );
  }

  /** Every server's resources; a URI two servers share is rewritten (reversibly). */
  resources(wait = false): Promise<HostEntry<Resource>[]> {
    return this.aggregate(
      'resources',
      (client) => (client.serverCapabilities?.resources ? client.resources() : []),
      wait,
    );
  }

  /** Every server's resource templates. */
  resourceTemplates(wait = false): Promise<HostEntry<ResourceTemplate>[]> {
    return this.aggregate(
      'resourceTemplates',
      (client) => (client.serverCapabilities?.resources ? client.resourceTemplates() : []),
      wait,
    );
  }

  /** True while some enabled server is starting: a name it offers may not be listed yet. */
  private anyStarting(): boolean {
    return this.deps.enabled().some((upstream) => upstream.state === 'starting');
  }

  /**
   * The route of a catalogue name the catalogue holds now, with no listing and no wait.
   *
   * @example
   * ```ts
   * view.route('tools', 'a__echo'); // { server: 'a', original: 'echo' }, or undefined
   * ```
   */
  route(kind: 'tools' | 'prompts', name: string): Route | undefined {
    return this.deps.catalogue.route(kind, name);
  }

  /**
   * The route of a catalogue name; the catalogue is refreshed when the name is not known, and
   * once more after the servers still starting are ready (a name is looked up, not browsed: it
   * waits for a slow server rather than call a tool unknown).
   *
   * @throws {McpError} `-32602` for a name the catalogue does not hold.
   */
  async resolve(kind: 'tools' | 'prompts', name: string, label: string): Promise<Route> {
    let route = this.deps.catalogue.route(kind, name);
    if (!route) {
      await (kind === 'tools' ? this.tools() : this.prompts());
      route = this.deps.catalogue.route(kind, name);
    }
    if (!route && this.anyStarting()) {
      await (kind === 'tools' ? this.tools(true) : this.prompts(true));
      route = this.deps.catalogue.route(kind, name);
    }
    if (!route) throw new McpError(ErrorCode.InvalidParams, `Unknown ${label}: ${name}`);
    return route;
  }

  /**
   * The route of a resource URI (listed, rewritten, or matching a template).
   *
   * @throws {McpError} `-32002` when no server owns it.
   */
  async resolveUri(uri: string): Promise<Route> {
    let route = this.deps.catalogue.routeUri(uri) ?? this.viewRoutes.get(uri);
    if (!route) {
      await Promise.all([
        this.resources(),
        this.resourceTemplates(),
        this.deps.apps ? this.tools() : undefined,
      ]);
      route = this.deps.catalogue.routeUri(uri) ?? this.viewRoutes.get(uri);
    }
    if (!route && this.anyStarting()) {
      await Promise.all([
        this.resources(true),
        this.resourceTemplates(true),
        this.deps.apps ? this.tools(true) : undefined,
      ]);
      route = this.deps.catalogue.routeUri(uri) ?? this.viewRoutes.get(uri);
    }
    if (!route) throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`);
    return route;
  }

  private async aggregate<T extends object>(
    kind: CatalogueKind,
    list: (client: McpClient, server: string) => T[] | Promise<T[]>,
    wait: boolean,
  ): Promise<HostEntry<T>[]> {
    if (this.deps.closed()) throw new LocalError('The host is closed');
    const upstreams = this.deps.enabled();
    const budgetOf = (upstream: Upstream) =>
      wait ? Number.POSITIVE_INFINITY : this.deps.startBudgetOf(upstream);
    let lists = await Promise.all(
      upstreams.map((upstream) => this.listOne(upstream, kind, list, budgetOf(upstream))),
    );
    if (lists.every((entry) => entry === undefined)) {
      // Nothing was ready within the budget: an empty catalogue helps nobody, so this listing
      // waits for the first server to be ready (or every one to fail), then lists what is ready.
      // A server that became ready after its own budget ran out, while the others' still ran,
      // counts: `ready()` answers at once for it (waiting on the starting ones alone hung here).
      if (upstreams.some((upstream) => upstream.state !== 'failed' && upstream.state !== 'stopped')) {
        await Promise.any(upstreams.map((upstream) => upstream.ready())).catch(() => undefined);
        lists = await Promise.all(upstreams.map((upstream) => this.listOne(upstream, kind, list, 0)));
      }
    }
    return this.deps.catalogue.build(
      kind,
      lists.map((entry, index) => entry ?? [upstreams[index]!.name, []]),
    );
  }

  /**
   * One server's items, or `undefined` when it was not ready within `budgetMs` or has failed (it
   * is listed when it arrives: the host then says its lists changed). A listing that fails is
   * recorded in the server's state and offers nothing.
   */
  private async listOne<T extends object>(
    upstream: Upstream,
    kind: CatalogueKind,
    list: (client: McpClient, server: string) => T[] | Promise<T[]>,
    budgetMs: number,
  ): Promise<readonly [string, T[]] | undefined> {
    const client = await upstream.readyWithin(budgetMs);
    if (!client) return undefined;
    try {
      const items = await list(client, upstream.name);
      upstream.listed(kind);
      return [upstream.name, items];
    } catch (error) {
      upstream.listed(kind, error);
      return [upstream.name, []];
    }
  }
}
