/**
 * Lists page by page: the first page of each list when the page loads, and the next one when the
 * person asks for more (the server's `nextCursor`). A host's catalogue comes as one page.
 * @module
 */
import { call } from './api.js';

/**
 * The lists the page shows.
 *
 * @example
 * ```ts
 * const kind: ListName = 'prompts';
 * ```
 */
export type ListName = 'tools' | 'resources' | 'templates' | 'prompts';

const OPERATION: Readonly<Record<ListName, string>> = {
  tools: 'listTools',
  resources: 'listResources',
  templates: 'listTemplates',
  prompts: 'listPrompts',
};

/**
 * One page of a list.
 *
 * @example
 * ```ts
 * const page: ListPage<{ name: string }> = { items: [{ name: 'echo' }], nextCursor: 'abc' };
 * ```
 */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Fetches one page of a list: the first, or the one `cursor` names.
 *
 * @example
 * ```ts
 * const { items, nextCursor } = await listPage('tools');
 * ```
 */
export function listPage<T>(kind: ListName, cursor?: string): Promise<ListPage<T>> {
  return call<ListPage<T>>(OPERATION[kind], cursor === undefined ? { paged: true } : { paged: true, cursor });
}
