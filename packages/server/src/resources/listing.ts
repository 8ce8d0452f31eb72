/**
 * `resources/list` across static resources and the resources templates list on demand.
 *
 * Static resources come first, in registration order, then each template's `list()` results in
 * template registration order. A cursor is either "after static resource N" (tag `r`) or "template
 * M, from offset K" (tag `R`): template listings are dynamic, so within one the position is an
 * offset into what it returns at that moment.
 * @module
 */
import type { ListResourcesResult, Resource } from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';
import { encodeCursor, invalidCursor, type PagedCollection, tryDecodeCursor } from '../pagination.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './resource.js';

const STATIC_TAG = 'r';
const TEMPLATE_TAG = 'R';

/**
 * One page of `resources/list`.
 *
 * @throws {McpError} `-32602` for a cursor this list did not issue.
 * @example
 * ```ts
 * const page = await listResources(resources, templates, params.cursor, 100, ctx);
 * ```
 */
export async function listResources(
  resources: PagedCollection<RegisteredResource>,
  templates: PagedCollection<RegisteredResourceTemplate>,
  cursor: unknown,
  pageSize: number,
  ctx: RequestContext,
): Promise<ListResourcesResult> {
  const listed: Resource[] = [];
  let templateIndex = 0;
  let offset = 0;
  if (cursor === undefined || tryDecodeCursor(cursor, STATIC_TAG)) {
    const all = resources.list();
    const start = cursor === undefined ? 0 : resources.indexAfter(tryDecodeCursor(cursor, STATIC_TAG)!);
    const end = Math.min(all.length, start + pageSize);
    for (let i = start; i < end; i++) listed.push(all[i]!.definition);
    if (end < all.length)
      return { resources: listed, nextCursor: encodeCursor(STATIC_TAG, [all[end - 1]!.seq]) };
  } else {
    const position = tryDecodeCursor(cursor, TEMPLATE_TAG);
    if (position?.length !== 2) throw invalidCursor();
    templateIndex = firstTemplateFrom(templates, position[0]!);
    offset = templates.list()[templateIndex]?.seq === position[0] ? position[1]! : 0;
  }
  const listing = templates.list();
  for (; templateIndex < listing.length; templateIndex++, offset = 0) {
    const template = listing[templateIndex]!;
    const list = template.state.list;
    if (!list) continue;
    if (listed.length >= pageSize)
      return { resources: listed, nextCursor: encodeCursor(TEMPLATE_TAG, [template.seq, 0]) };
    const found = await list(ctx);
    if (!Array.isArray(found)) {
      throw new TypeError(
        `The list() of resource template "${template.uriTemplate}" must return an array of resources`,
      );
    }
    const end = Math.min(found.length, offset + pageSize - listed.length);
    for (let i = offset; i < end; i++) listed.push(found[i] as Resource);
    if (end < found.length)
      return { resources: listed, nextCursor: encodeCursor(TEMPLATE_TAG, [template.seq, end]) };
  }
  return { resources: listed };
}

/** The index of the first listed template registered at or after `seq`. */
function firstTemplateFrom(templates: PagedCollection<RegisteredResourceTemplate>, seq: number): number {
  return seq <= 0 ? 0 : templates.indexAfter([seq - 1]);
}
