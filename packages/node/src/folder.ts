/**
 * `@mcpkit/node/folder`: a directory served as read-only resources, with traversal, symlink,
 * encoding and size checks, optional roots and change notifications.
 *
 * @example
 * ```ts
 * import { serveFolder } from '@mcpkit/node/folder';
 * serveFolder(server, './docs', { watch: true });
 * ```
 * @module
 */

export type { RootsMode } from './folder/roots.js';
export { type FolderOptions, type ServedFolder, serveFolder } from './folder/serveFolder.js';
