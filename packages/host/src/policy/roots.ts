/**
 * The roots each server sees when the host has roots of its own (the folders open in an IDE):
 * the intersection of the host's roots and the server's configured ones. A root is kept when it
 * lies within a root of the other side (the narrower of two nested roots is the intersection); a
 * server with no roots configured sees the host's. Without host roots, a server sees exactly its
 * configured roots, as before.
 * @module
 */
import type { ClientRequestContext, RootsSource } from '@mcpkit/client';
import type { Root } from '@mcpkit/core';

/**
 * The intersection of two lists of roots, by URI path containment.
 *
 * @example
 * ```ts
 * intersectRoots([{ uri: 'file:///w' }], [{ uri: 'file:///w/a' }, { uri: 'file:///x' }]); // [{ uri: 'file:///w/a' }]
 * ```
 */
export function intersectRoots(host: readonly Root[], own: readonly Root[]): Root[] {
  const kept = new Map<string, Root>();
  for (const root of own) if (host.some((h) => within(root.uri, h.uri))) kept.set(root.uri, root);
  for (const root of host) {
    if (!kept.has(root.uri) && own.some((o) => within(root.uri, o.uri))) kept.set(root.uri, root);
  }
  return [...kept.values()];
}

/** True when `inner` is `outer` or lies below it (`file:///w/a` within `file:///w`, not `file:///wa`). */
function within(inner: string, outer: string): boolean {
  const base = outer.endsWith('/') ? outer : `${outer}/`;
  return inner === outer || inner.startsWith(base);
}

/**
 * The host's roots and every server's view of them.
 *
 * @example
 * ```ts
 * const roots = new HostRoots([{ uri: 'file:///w' }], (server) => policy[server]?.roots);
 * const view = await roots.view('a');
 * ```
 */
export class HostRoots {
  constructor(
    private roots: readonly Root[] | undefined,
    private readonly own: (server: string) => RootsSource | undefined,
  ) {}

  /** True once the host has roots: every server is then offered the roots capability. */
  get active(): boolean {
    return this.roots !== undefined;
  }

  /** Replaces the host's roots; resolves with those of `servers` whose view changed. */
  async replace(roots: readonly Root[], servers: readonly string[]): Promise<Set<string>> {
    const key = async (server: string) => JSON.stringify((await this.view(server)).map((r) => r.uri).sort());
    const before = await Promise.all(servers.map(key));
    this.roots = roots;
    const after = await Promise.all(servers.map(key));
    return new Set(servers.filter((_, i) => before[i] !== after[i]));
  }

  /** What a server's client serves on `roots/list`: its view, computed when asked. */
  source(server: string): RootsSource | undefined {
    return this.active ? (request) => this.view(server, request) : this.own(server);
  }

  /** The roots `server` sees now (`request`: its `roots/list`, when it asked). */
  async view(server: string, request?: ClientRequestContext): Promise<readonly Root[]> {
    const source = this.own(server);
    const own = typeof source === 'function' ? await source(request) : source;
    if (!this.roots) return own ?? [];
    return own === undefined ? this.roots : intersectRoots(this.roots, own);
  }
}
