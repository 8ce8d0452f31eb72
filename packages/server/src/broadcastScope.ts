/**
 * Who a server-wide notification is for, said as data rather than as a function, so that every
 * node of a cluster can apply it to the sessions it holds (a function cannot travel through Redis).
 * @module
 */
import type { ListKind } from './listChanged.js';
import type { ServerSession } from './session.js';

/**
 * The sessions a broadcast is for: those subscribed to a resource, or those told a list can change.
 *
 * @example
 * ```ts
 * const uri = 'file:///var/log/app.log';
 * server.broadcast('notifications/resources/updated', { uri }, (s) => s.subscriptions?.has(uri) === true, { subscribedTo: uri });
 * ```
 */
export type BroadcastScope = { readonly subscribedTo: string } | { readonly listChanged: ListKind };

/**
 * Whether `session` is one of the sessions `scope` names (what the broadcast's own filter says,
 * applied on another node of a cluster).
 *
 * @example
 * ```ts
 * declare const session: ServerSession;
 * if (inScope(session, { listChanged: 'tools' })) console.log('told that tools can change');
 * ```
 */
export function inScope(session: ServerSession, scope: BroadcastScope): boolean {
  if ('subscribedTo' in scope) return session.subscriptions?.has(scope.subscribedTo) === true;
  // Only the lists the session was told (at initialize) can change.
  const told = session.serverCapabilities?.[scope.listChanged] as { listChanged?: boolean } | undefined;
  return told?.listChanged === true;
}

/** A server-wide notification as it travels between the nodes of a cluster. */
export interface RelayedBroadcast {
  readonly method: string;
  readonly params?: Record<string, unknown>;
  readonly scope?: BroadcastScope;
}
