/**
 * The client's catalogue of the server's tools, resources, resource templates and prompts: every
 * page of a list followed (within a page limit, refusing a repeated cursor), and the lists cached
 * until the server says one changed or, under 2026-07-28, until the `ttlMs` its first page gave.
 * @module
 */
import type { OutgoingRequestOptions, Prompt, Resource, ResourceTemplate, Tool } from '@mcpkit/core';
import type { Client } from './client.js';
import { DEFAULT_MAX_PAGES, PaginationError } from './limits.js';
import type { ListKind, McpClientOptions } from './mcpClientOptions.js';

/** A list being loaded or loaded, and when it stops being fresh. */
interface CacheEntry {
  list: Promise<unknown[]>;
  expires: number;
}

/** Every item of a list, and the first page's `ttlMs` (2026-07-28) when it gave one. */
interface Pages<T> {
  items: T[];
  ttlMs?: number;
}

/**
 * The lists a client holds of what the server offers.
 *
 * @example
 * ```ts
 * const catalogue = new ListCatalogue(client, { maxPages: 16 });
 * for (const tool of await catalogue.tools()) console.log(tool.name);
 * ```
 */
export class ListCatalogue {
  /** Cached lists; under 2026-07-28 each expires after the `ttlMs` its first page gave. */
  readonly #caches = new Map<ListKind, CacheEntry>();

  readonly #client: Client;
  /** Read at each listing, as the client's own options were. */
  readonly #options: Pick<McpClientOptions, 'maxPages'>;

  constructor(client: Client, options: Pick<McpClientOptions, 'maxPages'>) {
    this.#client = client;
    this.#options = options;
  }

  /** One page of a list: the first, or the one `cursor` names. */
  page<R>(method: string, cursor: string | undefined, options?: OutgoingRequestOptions): Promise<R> {
    return this.#client.request<R>(method, cursor === undefined ? {} : { cursor }, options);
  }

  /** Every tool, cached. */
  tools(): Promise<Tool[]> {
    return this.#cached<Tool>('tools', 'tools/list');
  }

  /** Every resource, cached. */
  resources(): Promise<Resource[]> {
    return this.#cached<Resource>('resources', 'resources/list');
  }

  /** Every resource template (not cached: the server announces no change of them). */
  resourceTemplates(): Promise<ResourceTemplate[]> {
    return this.#collectPages<ResourceTemplate>('resources/templates/list', 'resourceTemplates').then(
      (pages) => pages.items,
    );
  }

  /** Every prompt, cached. */
  prompts(): Promise<Prompt[]> {
    return this.#cached<Prompt>('prompts', 'prompts/list');
  }

  /** True when a list of `kind` is held or being loaded. */
  has(kind: ListKind): boolean {
    return this.#caches.has(kind);
  }

  /** Drops the list of `kind`, or every list (a new session may serve others): the next call lists it again. */
  forget(kind?: ListKind): void {
    if (kind === undefined) this.#caches.clear();
    else this.#caches.delete(kind);
  }

  /**
   * The cached list of `kind`, or a new load of it. A hit makes nothing (no closure, and no clock
   * read for a list without a TTL): a host looks its server's tools up on every call.
   */
  #cached<T>(kind: 'tools' | 'resources' | 'prompts', method: string): Promise<T[]> {
    const found = this.#caches.get(kind);
    if (found && (found.expires === Number.POSITIVE_INFINITY || found.expires > Date.now()))
      return found.list as Promise<T[]>;
    const loading = this.#collectPages<T>(method, kind);
    const entry: CacheEntry = {
      list: loading.then((pages) => pages.items as unknown[]),
      expires: Number.POSITIVE_INFINITY,
    };
    this.#caches.set(kind, entry);
    loading.then(
      (pages) => {
        // 2026-07-28 caching hint (ttlMs): the list is fresh for that long, no longer.
        if (this.#client.era === '2026' && pages.ttlMs !== undefined)
          entry.expires = Date.now() + pages.ttlMs;
      },
      // A failed load must not poison the cache.
      () => {
        if (this.#caches.get(kind) === entry) this.#caches.delete(kind);
      },
    );
    return entry.list as Promise<T[]>;
  }

  /** Every page of a list, and the first page's `ttlMs` (2026-07-28), when it gave one. */
  async #collectPages<T>(method: string, key: string): Promise<Pages<T>> {
    const items: T[] = [];
    let ttlMs: number | undefined;
    const maxPages = this.#options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      if (cursor !== undefined) checkCursor(method, cursor, seen, maxPages);
      const page = await this.page<Record<string, unknown>>(method, cursor);
      const list = page[key];
      if (Array.isArray(list)) items.push(...(list as T[]));
      if (ttlMs === undefined && typeof page.ttlMs === 'number' && page.ttlMs >= 0) ttlMs = page.ttlMs;
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    return ttlMs === undefined ? { items } : { items, ttlMs };
  }
}

/** Refuses to follow a cursor the server sent before, or one page past `maxPages`. */
function checkCursor(method: string, cursor: string, seen: Set<string>, maxPages: number): void {
  const shown = JSON.stringify(cursor.length > 100 ? `${cursor.slice(0, 100)}…` : cursor);
  if (seen.has(cursor)) {
    throw new PaginationError(
      method,
      cursor,
      `${method}: the server sent the cursor ${shown} a second time; stopped to avoid an endless loop`,
    );
  }
  if (seen.size + 1 >= maxPages) {
    throw new PaginationError(
      method,
      cursor,
      `${method}: the server still had more after ${maxPages} pages (next cursor ${shown}); stopped at the maxPages limit`,
    );
  }
  seen.add(cursor);
}
