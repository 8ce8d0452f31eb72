/**
 * The 2026-07-28 era as one plug-in: it claims a request by its one cheap check (the method is
 * `server/discover`, or the params carry a `_meta` envelope), serves it with its own request
 * context (`ModernContext`: the envelope's scope, input rounds, logging), and
 * installs the two methods only this era has, `server/discover` and `subscriptions/listen`, with
 * the registry of open listen requests. The composition root (`server.ts`) makes one per server.
 * @module
 */
import type { IncomingRequest } from '@mcpkit/core';
import { envelopeVersion } from '@mcpkit/core/internal';
import type { RequestContext } from '../kernel/context.js';
import type { RequestHandler } from '../kernel/handlers.js';
import type { Era } from '../kernel/ports.js';
import type { ServerSession } from '../kernel/session.js';
import { ModernContext } from './context.js';
import { discoverResult } from './discover.js';
import { answerListen, ListenRegistry } from './listen.js';
import type { ModernServer } from './modernServer.js';
import { answerModern } from './serve.js';

/** `server/discover` belongs to the per-request era even when its envelope is missing or broken. */
const DISCOVER = 'server/discover';
const LISTEN = 'subscriptions/listen';

/**
 * Where the era installs its methods: the server's method table.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const table: EraMethods = server;
 * ```
 */
export interface EraMethods {
  answerItself(method: string, handler: RequestHandler, owner: string): void;
}

/**
 * The 2026-07-28 era of one server.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const era = new ModernEra(server);
 * era.install(server);
 * era.claims(request); // true for server/discover and for a request with a _meta envelope
 * ```
 */
export class ModernEra implements Era {
  /** The open `subscriptions/listen` requests: broadcasts reach them with no session. */
  readonly listeners = new ListenRegistry();
  /** How this era's request contexts ask, log and find what features plugged in (one per server). */
  readonly context = new ModernContext();
  readonly #server: ModernServer;

  constructor(server: ModernServer) {
    this.#server = server;
  }

  /** Installs `server/discover` and `subscriptions/listen` in the server's method table. */
  install(table: EraMethods): void {
    const server = this.#server;
    const listeners = this.listeners;
    table.answerItself(DISCOVER, () => discoverResult(server), 'the server itself');
    table.answerItself(
      LISTEN,
      (params: Record<string, unknown>, ctx: RequestContext) => answerListen(listeners, params, ctx),
      'the server itself',
    );
  }

  claims(request: IncomingRequest): boolean {
    return request.method === DISCOVER || envelopeVersion(request.params) !== undefined;
  }

  serve(session: ServerSession, request: IncomingRequest): unknown {
    return answerModern(this.#server, session, request);
  }

  plug(key: symbol, part: unknown): void {
    this.context.plug(key, part);
  }
}
