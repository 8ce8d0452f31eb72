/**
 * One catalogue of what every server offers, and the routes back from a catalogue name to the
 * server and the name it knows.
 * @module
 */
import { NameCollisionError } from '../errors.js';
import { hashedName, type Naming, namespacedName, namespacedUri, splitNamespacedUri } from './names.js';

/**
 * The four lists a host aggregates.
 *
 * @example
 * ```ts
 * const kind: CatalogueKind = 'tools';
 * ```
 */
export type CatalogueKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/**
 * An item of the catalogue: the server's item (title, annotations, icons and all) under its
 * catalogue name, plus which server offers it and the name (or URI) that server knows it by.
 *
 * @example
 * ```ts
 * for (const tool of await host.tools()) console.log(tool.name, 'from', tool.server, 'as', tool.original);
 * ```
 */
export type HostEntry<T> = T & { readonly server: string; readonly original: string };

/**
 * Where a catalogue name leads.
 *
 * @example
 * ```ts
 * const route: Route = { server: 'files', original: 'read' };
 * ```
 */
export interface Route {
  readonly server: string;
  readonly original: string;
}

/**
 * Two items still had the same name after namespacing (two servers given the same prefix, say):
 * each was renamed to `name_HASH`, deterministically, and this is reported.
 *
 * @example
 * ```ts
 * const host = new McpHost({ servers, onNameCollision: ({ name, servers }) => console.warn(name, servers) });
 * ```
 */
export interface NameCollision {
  readonly kind: CatalogueKind;
  readonly name: string;
  readonly servers: readonly string[];
}

const KEYS = { tools: 'name', prompts: 'name', resources: 'uri', resourceTemplates: 'uriTemplate' } as const;

/**
 * The routing table, rebuilt each time a list is aggregated.
 *
 * @example
 * ```ts
 * const tools = catalogue.build('tools', [['a', toolsOfA], ['b', toolsOfB]]);
 * catalogue.route('tools', 'a__echo'); // { server: 'a', original: 'echo' }
 * ```
 */
export class Catalogue {
  private readonly routes = new Map<CatalogueKind, Map<string, Route>>();
  /** Each server's template prefixes (text before the first `{`), for reads of unlisted URIs. */
  private templatePrefixes: Array<[server: string, prefix: string]> = [];

  constructor(
    private readonly naming: Naming,
    private readonly onCollision: (collision: NameCollision) => void = () => {},
  ) {}

  /**
   * Aggregates one kind of list. Servers are given in any order; names depend only on each
   * server and its items.
   * @throws {NameCollisionError} when namespacing is off and two servers offer the same name.
   */
  build<T extends object>(
    kind: CatalogueKind,
    lists: ReadonlyArray<readonly [string, readonly T[]]>,
  ): HostEntry<T>[] {
    const key = KEYS[kind];
    const owners = new Map<string, string[]>();
    for (const [server, items] of lists) {
      for (const item of items) {
        const original = (item as Record<string, unknown>)[key] as string;
        owners.set(original, [...(owners.get(original) ?? []), server]);
      }
    }
    const named: Array<{ server: string; original: string; name: string; item: T }> = [];
    const uses = new Map<string, string[]>();
    for (const [server, items] of lists) {
      for (const item of items) {
        const original = (item as Record<string, unknown>)[key] as string;
        const name = this.nameOf(kind, server, original, owners.get(original)!);
        named.push({ server, original, name, item });
        uses.set(name, [...(uses.get(name) ?? []), server]);
      }
    }
    const routes = new Map<string, Route>();
    const out: HostEntry<T>[] = [];
    for (const entry of named) {
      const clash = uses.get(entry.name)!;
      // Still equal after namespacing: rename every holder the same way, whatever the order.
      const name = clash.length > 1 ? hashedName(entry.name, entry.server, entry.original) : entry.name;
      routes.set(name, { server: entry.server, original: entry.original });
      out.push({ ...entry.item, [key]: name, server: entry.server, original: entry.original });
    }
    for (const [name, servers] of uses) if (servers.length > 1) this.onCollision({ kind, name, servers });
    this.routes.set(kind, routes);
    if (kind === 'resourceTemplates') {
      this.templatePrefixes = out.map((entry) => [entry.server, entry.original.split('{')[0]!]);
    }
    return out.sort((a, b) => compare(a.server, b.server));
  }

  /** Where a catalogue name (or URI) of `kind` leads, if it is known. */
  route(kind: CatalogueKind, name: string): Route | undefined {
    return this.routes.get(kind)?.get(name);
  }

  /**
   * Where a resource URI leads: a listed or rewritten URI, else the server whose template's
   * literal prefix is the longest match. `undefined` when no server (or more than one) fits.
   */
  routeUri(uri: string): Route | undefined {
    const split = splitNamespacedUri(uri);
    if (split) return { server: split.server, original: split.uri };
    const listed = this.route('resources', uri);
    if (listed) return listed;
    let best: Array<[string, string]> = [];
    for (const candidate of this.templatePrefixes) {
      if (!uri.startsWith(candidate[1])) continue;
      if (best.length === 0 || candidate[1].length > best[0]![1].length) best = [candidate];
      else if (candidate[1].length === best[0]![1].length && candidate[0] !== best[0]![0])
        best.push(candidate);
    }
    return best.length === 1 ? { server: best[0]![0], original: uri } : undefined;
  }

  private nameOf(kind: CatalogueKind, server: string, original: string, owners: readonly string[]): string {
    const shared = owners.length > 1;
    if (shared && this.naming.mode === 'off') {
      throw new NameCollisionError(
        kind === 'resourceTemplates' ? 'resource template' : kind.slice(0, -1),
        original,
        owners,
      );
    }
    if (kind === 'resources' || kind === 'resourceTemplates') {
      // URIs mean something to the model and to links between resources: rewritten only on collision.
      return shared ? namespacedUri(server, original) : original;
    }
    return shared || this.naming.mode === 'always' ? namespacedName(this.naming, server, original) : original;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
