/**
 * Who a server-wide notification is for, said as data rather than as a function, so that every
 * node of a cluster can apply it to the sessions it holds (a function cannot travel through Redis).
 *
 * The rule, in a cluster (`@mcpkit/redis`): a broadcast with no filter, or with a scope, reaches
 * the sessions of every node; a broadcast whose only filter is a function reaches the sessions of
 * the node that calls it, and no other.
 * @module
 */
import type { LoggingLevel } from '@mcpkit/core';
import type { ServerSession } from './kernel/session.js';
import type { ListKind } from './listChanged.js';

/**
 * The sessions a broadcast is for: those subscribed to a resource, those told a list can change,
 * or those whose `logging/setLevel` lets a log message of `logLevel` through.
 *
 * @example
 * ```ts
 * const uri = 'file:///var/log/app.log';
 * server.broadcast('notifications/resources/updated', { uri }, { subscribedTo: uri });
 * server.broadcast('notifications/message', { level: 'error', data: 'disk full' }, { logLevel: 'error' });
 * ```
 */
export type BroadcastScope =
  | { readonly subscribedTo: string }
  | { readonly listChanged: ListKind }
  | { readonly logLevel: LoggingLevel };

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
  if ('logLevel' in scope) return session.wantsLog(scope.logLevel);
  // Only the lists the session was told (at initialize) can change.
  const told = session.serverCapabilities?.[scope.listChanged] as { listChanged?: boolean } | undefined;
  return told?.listChanged === true;
}

/** A server-wide notification as it travels between the nodes of a cluster. */
export interface RelayedBroadcast {
  readonly method: string;
  readonly params?: Record<string, unknown>;
  readonly scope?: BroadcastScope;
  /** The server that sent it, whose own listen streams already have it. */
  readonly origin?: string;
}
