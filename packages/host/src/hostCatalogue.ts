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
   * (`_meta.ui.resourceUri`) names the view as the catalogue does.
   */
  async tools(): Promise<HostEntry<Tool>[]> {
    const aggregated = await this.aggregate('tools', async (client, server) =>
      client.serverCapabilities?.tools ? renamedTools(this.deps.policyOf(server), await client.tools()) : [],
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

  /** Every server's prompts, namespaced on collision. */
  prompts(): Promise<HostEntry<Prompt>[]> {
    return this.aggregate('prompts', (client) =>
      client.serverCapabilities?.prompts ? client.prompts() : [],
    );
  }

  /** Every server's resources; a URI two servers share is rewritten (reversibly). */
  resources(): Promise<HostEntry<Resource>[]> {
    return this.aggregate('resources', (client) =>
      client.serverCapabilities?.resources ? client.resources() : [],
    );
  }

  /** Every server's resource templates. */
  resourceTemplates(): Promise<HostEntry<ResourceTemplate>[]> {
    return this.aggregate('resourceTemplates', (client) =>
      client.serverCapabilities?.resources ? client.resourceTemplates() : [],
    );
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
   * The route of a catalogue name; the catalogue is refreshed once when the name is not known.
   *
   * @throws {McpError} `-32602` for a name the catalogue does not hold.
   */
  async resolve(kind: 'tools' | 'prompts', name: string, label: string): Promise<Route> {
    let route = this.deps.catalogue.route(kind, name);
    if (!route) {
      await (kind === 'tools' ? this.tools() : this.prompts());
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
    if (!route) throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`);
    return route;
  }

  private async aggregate<T extends object>(
    kind: CatalogueKind,
    list: (client: McpClient, server: string) => T[] | Promise<T[]>,
  ): Promise<HostEntry<T>[]> {
    if (this.deps.closed()) throw new LocalError('The host is closed');
    const lists = await Promise.all(
      this.deps.enabled().map(async (upstream): Promise<readonly [string, T[]]> => {
        try {
          return [upstream.name, await list(await upstream.ready(), upstream.name)];
        } catch {
          return [upstream.name, []]; // a failed server offers nothing; its state says why
        }
      }),
    );
    return this.deps.catalogue.build(kind, lists);
  }
}
