/**
 * The host behind one downstream session (or behind all of them, when shared): its hooks send
 * the upstreams' sampling and elicitation to the session the router names, its log messages and
 * list changes go downstream, and resource subscriptions are kept per session.
 * @module
 */

import type { ClientRequestContext } from '@mcpkit/client';
import {
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitRequestURLParams,
  type ElicitResult,
  type ListRootsResult,
  LOGGING_LEVELS,
  type LoggingLevel,
} from '@mcpkit/core';
import { McpHost, type McpHostOptions } from '../host.js';
import type { ServerPolicy } from '../policy/types.js';
import type { UpstreamLanes } from './lanes.js';
import type { SessionLimiter } from './limits.js';
import { CallRouter, type Downstream } from './router.js';

/**
 * The model name the host's sampling policy chooses when the gateway's options name no models:
 * the downstream client picks the real model from the request's `modelPreferences`.
 */
const DOWNSTREAM_MODEL = 'downstream-client';

/** A host with the router its hooks ask. */
export interface RoutedHost {
  readonly host: McpHost;
  readonly router: CallRouter;
  /** A shared host's lanes: where the calls of clients that can be asked something run. */
  readonly lanes?: UpstreamLanes | undefined;
  /**
   * The host audits and its router has no owner: each operation's `cancelledBy` is attributed to
   * its caller (`router.attribute`), so its audit event names the session.
   */
  readonly attributesCalls: boolean;
}

/** How {@link routedHost} routes: to its one session, or by calls in flight. */
export interface RoutingOptions {
  /** The one session of a per-session host; none for a shared one. */
  readonly owner?: Downstream | undefined;
  /** Upstreams without policy roots see the calling client's. */
  readonly forwardRoots?: boolean | undefined;
  /** The gateway's per-session sampling limit. */
  readonly limiter?: SessionLimiter | undefined;
  /**
   * Name the caller as the `session` of audit events: the router's owner when the event happens
   * (a per-session host's one session, a lane's caller of the moment), else the caller of the
   * operation (default). False for a host that serves many 2026 callers in turn.
   */
  readonly auditSession?: boolean | undefined;
}

/**
 * Makes a host whose server-to-client requests go to the session `router` names. Without hooks
 * of its own, tool calls and sampling are allowed at the gateway: the downstream client is the
 * host that asks its user (the upstreams' policy, allow/deny lists and rate limits still apply).
 *
 * @example
 * ```ts
 * const { host } = routedHost({ servers }, { owner: session });
 * ```
 */
export function routedHost(options: McpHostOptions, routing: RoutingOptions = {}): RoutedHost {
  const router = new CallRouter(routing.owner);
  const hooks = options.hooks ?? {};
  const audit = options.audit;
  const host = new McpHost({
    ...options,
    ...(routing.forwardRoots ? { policy: withCallerRoots(options, router) } : {}),
    // The session an event served: a per-session host's one owner, a lane's owner of the moment,
    // else the caller the gateway attributed the operation's `cancelledBy` to (never a guess from
    // the calls in flight: a wrong session is worse than none).
    ...(audit && routing.auditSession !== false
      ? {
          audit: (event, context) => {
            const caller = router.owner ?? router.callerOf(context.onBehalfOf);
            audit(caller ? { ...event, session: caller.key } : event, context);
          },
        }
      : {}),
    models: options.models ?? [DOWNSTREAM_MODEL],
    hooks: {
      toolCall: hooks.toolCall ?? (() => 'once'),
      sampling: hooks.sampling ?? (() => 'once'),
      elicitation: ({ server, mode, params, signal, onBehalfOf }) => {
        const method = mode === 'url' ? 'elicitation/create (url mode)' : 'elicitation/create';
        // Asked for an upstream task a gateway task follows: through that task (tagged with its
        // id, so attributable on a shared connection too); else to the caller the router names.
        const via = router.askedFor(
          server,
          params,
          method,
          (s) => canElicit(s.clientCapabilities, mode),
          onBehalfOf,
        );
        if (mode === 'url') router.elicited(server, (params as ElicitRequestURLParams).elicitationId, via);
        return via.request('elicitation/create', params as never, { signal }) as Promise<ElicitResult>;
      },
    },
    model: async ({ server, params, signal, onBehalfOf }) => {
      const via = router.askedFor(
        server,
        params,
        'sampling/createMessage',
        (s) => s.clientCapabilities.sampling !== undefined,
        onBehalfOf,
      );
      await routing.limiter?.take('sampling', via.key, server);
      return via.request('sampling/createMessage', params, { signal }) as Promise<CreateMessageResult>;
    },
  });
  host.onLog((server, message) => {
    const session = router.target(server);
    const level = LOGGING_LEVELS.includes(message.level) ? (message.level as LoggingLevel) : 'info';
    void session?.log(level, message.data, message.logger ?? server);
  });
  host.onElicitationComplete((server, elicitationId) => {
    void router
      .completed(server, elicitationId)
      ?.notify('notifications/elicitation/complete', { elicitationId });
  });
  const attributesCalls =
    audit !== undefined && routing.owner === undefined && routing.auditSession !== false;
  return { host, router, attributesCalls };
}

/**
 * Each server without roots of its own in the policy is given the roots of the calling session,
 * asked when the server asks (`roots/list`); a session without the `roots` capability is refused
 * with -32601.
 */
function withCallerRoots(options: McpHostOptions, router: CallRouter): Record<string, ServerPolicy> {
  const policy: Record<string, ServerPolicy> = { ...options.policy };
  for (const { name } of options.servers) {
    if (policy[name]?.roots !== undefined) continue;
    // Asked about a call on its own stream (HTTP) or round (2026): that call's caller, on any
    // connection; else the one session the router names.
    const roots = async (request?: ClientRequestContext) => {
      const session = router.askedFor(
        name,
        undefined,
        'roots/list',
        (s) => s.clientCapabilities.roots !== undefined,
        request?.onBehalfOf,
      );
      const { roots } = await session.request<ListRootsResult>('roots/list');
      router.rootsAnswered(name, session);
      return roots;
    };
    policy[name] = { ...policy[name], roots };
  }
  return policy;
}

/** Form mode needs `elicitation` (an empty object means form); URL mode needs `elicitation.url`. */
function canElicit(capabilities: ClientCapabilities, mode: 'form' | 'url'): boolean {
  const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
  if (!elicitation) return false;
  if (mode === 'url') return elicitation.url !== undefined;
  return (
    elicitation.url === undefined || elicitation.form !== undefined || Object.keys(elicitation).length === 0
  );
}

/**
 * Tells each running upstream of `routed` whose roots came from `downstream` (its last
 * `roots/list` was answered by it) that they changed; `all`: every running upstream without
 * roots in the policy (a per-session host: every root it sees is its one session's).
 *
 * @example
 * ```ts
 * await rootsChanged(routed, session, options.policy, false);
 * ```
 */
export async function rootsChanged(
  routed: RoutedHost,
  downstream: Downstream,
  policy: McpHostOptions['policy'],
  all: boolean,
): Promise<void> {
  const from = all ? undefined : new Set(routed.router.rootsFrom(downstream));
  const told = routed.host.status().map(async ({ server, state }) => {
    if (state !== 'ready' && state !== 'degraded') return;
    if (policy?.[server]?.roots !== undefined || (from && !from.has(server))) return;
    const client = await routed.host.client(server);
    await client.notify('notifications/roots/list_changed');
  });
  await Promise.allSettled(told);
}

/** What the gateway keeps per downstream session. */
export interface SessionState extends RoutedHost {
  /** Downstream URI to the function that ends its upstream subscription. */
  readonly subscriptions: Map<string, () => Promise<void>>;
}
