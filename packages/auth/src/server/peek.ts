/**
 * The pre-dispatch scope check of `protect()`: reads a copy of a POST body to learn which tools,
 * prompts or resources it calls, so a missing scope can be answered with HTTP `403` before the
 * server runs anything. Inside dispatch it would be too late: in SSE-response mode the status
 * line may already be on the wire, and an error there can only be a JSON-RPC error.
 * @module
 */
import { readCapped } from '@mcpkit/core/internal';
import type { ScopeGuard } from './scopes.js';
import { union } from './scopes.js';

/** The default largest body `protect()` reads when it checks scopes (the HTTP handler's default too). */
export const MAX_PEEK_BYTES = 4 * 1024 * 1024;

/** What a body asks for: the scopes it needs and the id to answer with (single requests). */
export interface Needs {
  readonly scopes: readonly string[];
  readonly id: string | number | null;
}

/**
 * The scopes the JSON-RPC message(s) in `request`'s body need by `guard`, read from a clone so the
 * handler still gets the original. `'too-large'` past `limit` bytes: a body that cannot be checked
 * is not let through. A body that is not JSON needs nothing here; the handler answers `-32700`.
 *
 * @example
 * ```ts
 * const needs = await scopesNeededBy(request, guard); // { scopes: ['files:write'], id: 3 }
 * ```
 */
export async function scopesNeededBy(
  request: Request,
  guard: ScopeGuard,
  limit = MAX_PEEK_BYTES,
): Promise<Needs | 'too-large' | undefined> {
  if (request.method !== 'POST' || !request.body) return undefined;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return 'too-large';
  // A clone, so that the handler still reads the body; past `limit` the copy is not read further.
  const bytes = await readCapped(request.clone().body as ReadableStream<Uint8Array>, limit);
  if (bytes === 'too-large') return 'too-large';
  const text = new TextDecoder().decode(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const messages = Array.isArray(value) ? value : [value];
  const lists: Array<readonly string[]> = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (typeof method === 'string') lists.push(guard.requiredFor(method, params));
  }
  const scopes = union(...lists);
  if (scopes.length === 0) return undefined;
  const id = Array.isArray(value) ? null : (value as { id?: unknown }).id;
  return { scopes, id: typeof id === 'string' || typeof id === 'number' ? id : null };
}
