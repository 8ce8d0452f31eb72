/**
 * Who a task belongs to: the requestor key of a request (see "Binding" in ./taskManager.ts). The
 * auth context when there is one, else the session under 2025 revisions, else (2026-07-28, no
 * session) no one.
 * @module
 */
import type { TaskRequestor } from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';
import type { TaskEra } from './taskEra.js';
import type { TaskManagerOptions } from './taskOptions.js';

/**
 * What begins the requestor key of a task bound to its session (2025 revisions without auth).
 *
 * @example
 * ```ts
 * const key = `${SESSION_PREFIX}${ctx.session.key}`;
 * ```
 */
export const SESSION_PREFIX = 'session:';
/**
 * The requestor of 2026-07-28 tasks without auth: no one (the task id is the capability).
 *
 * @example
 * ```ts
 * const unbound: TaskRequestor = BEARER_REQUESTOR;
 * ```
 */
export const BEARER_REQUESTOR = 'bearer:';

/**
 * The requestor key of a request: `options.identify` when given, else derived from the auth
 * context (the token's `sub`, else a SHA-256 of the token, else the OAuth client id), else the
 * session (2025) or no one (2026-07-28).
 *
 * @example
 * ```ts
 * const key = await requestorOf({}, ctx, LEGACY_TASKS); // 'session:…', 'auth:…' or 'bearer:'
 * ```
 */
export async function requestorOf(
  options: TaskManagerOptions,
  context: RequestContext,
  era: TaskEra,
): Promise<TaskRequestor> {
  if (options.identify) return options.identify(context);
  const auth = context.authInfo;
  if (auth) {
    const subject = auth.extra?.sub;
    if (typeof subject === 'string') return `auth:sub:${auth.clientId ?? ''}:${subject}`;
    if (auth.token !== undefined) return `auth:token:${await sha256(auth.token)}`;
    if (auth.clientId !== undefined) return `auth:client:${auth.clientId}`;
  }
  // Without auth the era decides: 2025 binds to the session, 2026-07-28 (no session) to no one.
  return era.unboundRequestor(context);
}

/**
 * True when a requestor key is a session's: nobody but that session can ever reach its tasks.
 *
 * @example
 * ```ts
 * isSessionBound('session:abc'); // true
 * ```
 */
export function isSessionBound(requestor: TaskRequestor): boolean {
  return requestor.startsWith(SESSION_PREFIX);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
