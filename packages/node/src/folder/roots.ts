/**
 * Limiting a folder to the client's roots: each session's `roots/list` answer, asked once and
 * kept until the client says `notifications/roots/list_changed`.
 * @module
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestContext, ServerSession } from '@mcpkit/server';
import { isInside } from './paths.js';

/**
 * How a folder uses the client's roots:
 * - `'ignore'` (default): it does not ask;
 * - `'limit'`: a client that declares the `roots` capability sees only files under its roots;
 *   one that does not sees the whole folder;
 * - `'require'`: as `'limit'`, and a client without the capability sees nothing.
 *
 * @example
 * ```ts
 * serveFolder(server, 'docs', { roots: 'limit' });
 * ```
 */
export type RootsMode = 'ignore' | 'limit' | 'require';

/**
 * The roots check of one served folder.
 *
 * @example
 * ```ts
 * const gate = new RootsGate('limit');
 * server.onNotification('notifications/roots/list_changed', (_p, session) => gate.forget(session));
 * if (!(await gate.allows(ctx, '/srv/docs/a.md'))) throw notFound(uri);
 * ```
 */
export class RootsGate {
  /** Each session's root paths; `undefined` means no limit. */
  private readonly cache = new WeakMap<ServerSession, Promise<readonly string[] | undefined>>();

  constructor(readonly mode: RootsMode) {}

  /** Drops what a session's roots were: they are asked again on its next request. */
  forget(session: ServerSession): void {
    this.cache.delete(session);
  }

  /**
   * Whether the session may see `realPath`. A directory is allowed also when a root lies below it,
   * so that completion can lead there.
   */
  async allows(ctx: RequestContext, realPath: string, isDirectory = false): Promise<boolean> {
    const test = await this.testFor(ctx);
    return test === undefined || test(realPath, isDirectory);
  }

  /** The session's test of real paths, or `undefined` when nothing limits it. */
  async testFor(
    ctx: RequestContext,
  ): Promise<((realPath: string, isDirectory?: boolean) => boolean) | undefined> {
    if (this.mode === 'ignore') return undefined;
    const roots = await this.rootsOf(ctx);
    if (roots === undefined) return undefined;
    return (realPath, isDirectory = false) =>
      roots.some((root) => isInside(root, realPath) || (isDirectory && isInside(realPath, root)));
  }

  private rootsOf(ctx: RequestContext): Promise<readonly string[] | undefined> {
    const session = ctx.session;
    let roots = this.cache.get(session);
    if (!roots) {
      roots = this.ask(ctx);
      this.cache.set(session, roots);
    }
    return roots;
  }

  private async ask(ctx: RequestContext): Promise<readonly string[] | undefined> {
    if (!ctx.session.clientCapabilities.roots) return this.mode === 'require' ? [] : undefined;
    try {
      const { roots } = await ctx.listRoots();
      const paths = await Promise.all(roots.map((root) => rootPath(root.uri)));
      return paths.filter((path): path is string => path !== undefined);
    } catch {
      // Fail closed, and ask again next time: the client may answer then.
      this.forget(ctx.session);
      return [];
    }
  }
}

/**
 * A root's real path (its own path when it does not exist, so that it still limits), or
 * `undefined` for a root that is no local `file:` URI.
 */
async function rootPath(uri: unknown): Promise<string | undefined> {
  let path: string;
  try {
    path = resolve(fileURLToPath(String(uri)));
  } catch {
    return undefined;
  }
  return realpath(path).catch(() => path);
}
