/**
 * What a handler receives besides its arguments: the request's signal, progress, logging, the
 * session, and requests to the client that belong to this request.
 * @module
 */

import type {
  AuthInfo,
  CancelSource,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  IncomingRequest,
  ListRootsResult,
  LoggingLevel,
  OutgoingRequestOptions,
} from '@mcpkit/core';
import { BaseRequestContext, LOGGING_LEVELS, Method, Notification, type ProgressUpdate } from '@mcpkit/core';
import { sendNotification, sendRequest } from './outbound.js';
import type { ContextEra } from './ports.js';
import { type RequestScope, sessionScope } from './scope.js';
import type { ServerSession } from './session.js';

/**
 * What a request served per request (2026-07-28) brings besides its params: its own scope and the
 * MRTR retry fields (not for handlers). The kernel only reads its scope; the era that made it reads
 * the rest.
 */
export interface ModernRequestParts {
  readonly scope: RequestScope;
  readonly inputResponses: unknown;
  readonly requestState: unknown;
}

/**
 * What makes a request's session on first use: the 2026-07-28 HTTP path answers most requests
 * without one. Built by the HTTP handler; applications do not implement it.
 *
 * @example
 * ```ts
 * declare const opener: SessionOpener;
 * const session = opener.openSession(); // the request's throwaway session
 * ```
 */
export interface SessionOpener {
  openSession(): ServerSession;
}

function isOpener(value: ServerSession | SessionOpener): value is SessionOpener {
  return typeof (value as Partial<SessionOpener>).openSession === 'function';
}

/**
 * Options of `ctx.elicit()`, `ctx.sample()` and `ctx.listRoots()`: those of any request to the
 * client, and the key of the question under 2026-07-28.
 *
 * @example
 * ```ts
 * const options: AskOptions = { timeout: 30_000, inputKey: 'user_name' };
 * ```
 */
export interface AskOptions extends OutgoingRequestOptions {
  /**
   * Under 2026-07-28: this question's key in `inputRequests` (the client answers under the same key
   * in `inputResponses`). Default: its position among the handler's questions, `"0"`, `"1"`, … Each
   * key is used once per request. Ignored under 2025 revisions.
   */
  inputKey?: string;
}

/**
 * What a request context shows of its input-required rounds (2026-07-28); the era's own record
 * of them has more.
 *
 * @example
 * ```ts
 * declare const ctx: RequestContext;
 * ctx.rounds?.round; // 0 on a first call
 * ```
 */
export interface RoundsView {
  readonly inputResponses: Record<string, unknown> | undefined;
  readonly requestState: string | undefined;
  readonly round: number;
}

/** Log methods bound to one request, one per RFC 5424 level. */
export interface RequestLogger {
  debug(data: unknown, logger?: string): void;
  info(data: unknown, logger?: string): void;
  notice(data: unknown, logger?: string): void;
  warning(data: unknown, logger?: string): void;
  error(data: unknown, logger?: string): void;
  critical(data: unknown, logger?: string): void;
  alert(data: unknown, logger?: string): void;
  emergency(data: unknown, logger?: string): void;
}

/**
 * The context of one request. One small object per request; its methods live on the prototype.
 *
 * @example
 * ```ts
 * server.tool('slow', { description: 'Counts to ten' }, async (_args, ctx) => {
 *   for (let i = 1; i <= 10 && !ctx.signal.aborted; i++) {
 *     await ctx.progress(i, 10, `step ${i}`);
 *   }
 *   ctx.log.info('done');
 *   return 'counted';
 * });
 * ```
 */
export class RequestContext extends BaseRequestContext {
  #loggerInstance: RequestLogger | undefined;
  #scopeView: RequestScope | undefined;
  /**
   * @internal Set under 2026-07-28 for `tools/call`, `prompts/get` and `resources/read` by the era
   * (which asks its questions through it): what the handler sees of the rounds so far.
   */
  rounds: RoundsView | undefined;

  /** The session, once known: at once on a connection, on first use for a 2026-07-28 HTTP POST. */
  #sessionRef: ServerSession | undefined;
  readonly #opener: SessionOpener | undefined;
  /** Always set (to `undefined` for the session's own requests): one shape for every request's context. */
  readonly #era: ContextEra | undefined;

  constructor(
    /** The session the request arrived on, or (a 2026-07-28 HTTP POST) what opens one when asked for. */
    session: ServerSession | SessionOpener,
    /** @internal The engine's view of the request. */
    readonly request: IncomingRequest,
    /**
     * Set for a 2026-07-28 request only (not for handlers; public in the typings because the
     * gateway in `@mcpkit/host` tells the two eras apart by it, and `stripInternal` would hide it).
     */
    readonly modern?: ModernRequestParts,
    /** @internal The era that serves this request, when not the session's own (2026-07-28): it asks and logs. */
    era?: ContextEra,
  ) {
    super(request);
    if (isOpener(session)) this.#opener = session;
    else this.#sessionRef = session;
    this.#era = era;
  }

  /**
   * The session the request arrived on (under 2026-07-28, the connection's, which holds no client
   * state). A 2026-07-28 HTTP POST makes its throwaway session only when something asks for it.
   */
  get session(): ServerSession {
    this.#sessionRef ??= this.#opener!.openSession();
    return this.#sessionRef;
  }

  /**
   * Who sent this request and under which revision: from the session under 2025 revisions, from
   * the request's `_meta` envelope under 2026-07-28.
   *
   * @example
   * ```ts
   * server.tool('era', { description: 'Names the revision' }, (_args, ctx) => ctx.scope.revision);
   * ```
   */
  get scope(): RequestScope {
    if (this.#era !== undefined) return this.#era.scopeOf(this);
    if (!this.#scopeView) this.#scopeView = sessionScope(this.session, this.authInfo);
    return this.#scopeView;
  }

  /**
   * @internal The port of the era that serves this request, `undefined` for the session's own
   * requests (then the session's id and revision are the request's): a context made from this one
   * (a task's) is served by the same era.
   *
   * @example
   * ```ts
   * const again = new RequestContext(ctx.session, ctx.request, ctx.modern, ctx.eraPort);
   * ```
   */
  get eraPort(): ContextEra | undefined {
    return this.#era;
  }

  /**
   * @internal What a feature plugged in, under `key`, for the era that serves this request
   * (`Era.plug`); `undefined` for the session's own requests. How a feature with a different wire
   * per era (tasks) picks its module without branching on the era.
   *
   * @example
   * ```ts
   * const TASKS = Symbol('tasks');
   * const tasksOfThisEra = ctx.eraPart<{ name: string }>(TASKS) ?? { name: '2025 tasks' };
   * ```
   */
  eraPart<T>(key: symbol): T | undefined {
    return this.#era === undefined ? undefined : (this.#era.part(key) as T | undefined);
  }

  /**
   * Under 2026-07-28, the retry's `inputResponses` as the client sent them: the answers to
   * questions of an input-required result the handler returned itself. `undefined` otherwise.
   *
   * @example
   * ```ts
   * const approval = ctx.inputResponses?.approval as { action?: string } | undefined;
   * ```
   */
  get inputResponses(): Record<string, unknown> | undefined {
    return this.rounds?.inputResponses;
  }

  /**
   * Under 2026-07-28, the `requestState` the handler put in an input-required result of its own,
   * given back (verified: the client cannot alter it) when the client retries.
   *
   * @example
   * ```ts
   * server.tool('steps', { description: 'Two steps, its own way' }, (_args, ctx) =>
   *   ctx.requestState === undefined
   *     ? { resultType: 'input_required', requestState: 'step-2' }
   *     : `resumed at ${ctx.requestState}`,
   * );
   * ```
   */
  get requestState(): string | undefined {
    return this.rounds?.requestState;
  }

  /**
   * How many input-required results this request went through before this run (2026-07-28); 0 on
   * a first call and always under 2025 revisions.
   *
   * @example
   * ```ts
   * if (ctx.round === 0) ctx.log.info('first attempt');
   * ```
   */
  get round(): number {
    return this.rounds?.round ?? 0;
  }

  /**
   * The request's cancellation without its signal: pass it as `cancelledBy` to a request made on
   * this one's behalf (a gateway forwarding a call) and that request is cancelled with this one,
   * with no `AbortController` made per request (reading {@link signal} makes one).
   *
   * @example
   * ```ts
   * declare const upstream: import('@mcpkit/client').McpClient;
   * server.setRequestHandler('tools/call', (params, ctx) =>
   *   upstream.callTool(params.name, params.arguments, { cancelledBy: ctx.cancellation }),
   * );
   * ```
   */
  get cancellation(): CancelSource {
    return this.request;
  }

  /** Who the transport says sent the request (set by an authorization layer). */
  get authInfo(): AuthInfo | undefined {
    return this.request.extra?.authInfo;
  }

  /** The HTTP request that carried the message, on HTTP transports. */
  get httpRequest(): Request | undefined {
    return this.request.extra?.httpRequest;
  }

  /**
   * SSE polling (SEP-1699): ends the HTTP response that carries this request while the handler
   * keeps running. The client reconnects with GET + `Last-Event-ID` (after `retryInterval` ms, by
   * default the handler's `retryInterval`) and receives everything the handler sends from then on,
   * its result included. Useful to release connections during long operations.
   *
   * Returns false, and changes nothing, unless the request is served by a Streamable HTTP session
   * with resumability (an event store, and a client on 2025-11-25 or later).
   *
   * @example
   * ```ts
   * server.tool('long', { description: 'Takes a while' }, async (_args, ctx) => {
   *   ctx.closeSseStream(); // the client will poll for the result
   *   await new Promise((resolve) => setTimeout(resolve, 60_000));
   *   return 'done';
   * });
   * ```
   */
  closeSseStream(options: { retryInterval?: number } = {}): boolean {
    return this.session.transport.closeRequestStream?.(this.request.id, options.retryInterval) ?? false;
  }

  /**
   * Reports progress, if the client asked for it. Values must increase; others are dropped.
   *
   * @example
   * ```ts
   * await ctx.progress(3, 10, 'three of ten');
   * ```
   */
  progress(progress: number, total?: number, message?: string): Promise<void> {
    const update: { progress: number; total?: number; message?: string } = { progress };
    if (total !== undefined) update.total = total;
    if (message !== undefined) update.message = message;
    return Promise.resolve(sendNotification(this.session, Notification.Progress, update, this, undefined));
  }

  /** @internal Sends a progress update as the sending middleware left it (no progress token: the engine adds it). */
  sendProgressNow(params: Record<string, unknown>): Promise<void> {
    return Promise.resolve(this.request.sendProgress(params as unknown as ProgressUpdate));
  }

  /**
   * Logs through `notifications/message`, filtered by the session's `logging/setLevel`.
   *
   * @example
   * ```ts
   * ctx.log.warning({ retrying: true }, 'fetcher');
   * ```
   */
  get log(): RequestLogger {
    if (!this.#loggerInstance) this.#loggerInstance = createLogger(this);
    return this.#loggerInstance;
  }

  /**
   * Sends a log message at any level.
   *
   * @example
   * ```ts
   * ctx.sendLog('error', 'disk full');
   * ```
   */
  sendLog(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.#era !== undefined) {
      this.#era.sendLog(this, level, data, logger);
      return;
    }
    const sent = this.session.log(level, data, logger, this.request.id);
    if (sent) sent.catch(() => {});
  }

  /**
   * Asks the client's model for a completion (`sampling/createMessage`). Under 2026-07-28 the
   * question goes out in an input-required result and the handler runs again with the answer
   * (see docs/input-required.md): code before the first question must be safe to repeat.
   *
   * @example
   * ```ts
   * const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 100 });
   * ```
   */
  sample(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult> {
    return this.requestClient<CreateMessageResult>(Method.SamplingCreateMessage, params, options);
  }

  /**
   * Asks the user for input through the client (`elicitation/create`), in form or URL mode.
   * Under 2026-07-28 this is an input-required round (see {@link RequestContext.sample}).
   *
   * @example
   * ```ts
   * const answer = await ctx.elicit({
   *   message: 'Your name?',
   *   requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
   * });
   * if (answer.action === 'accept') console.error(answer.content?.name);
   * ```
   */
  elicit(
    params: ElicitRequestFormParams | ElicitRequestURLParams,
    options?: AskOptions,
  ): Promise<ElicitResult> {
    return this.requestClient<ElicitResult>(Method.ElicitationCreate, params, options);
  }

  /**
   * Asks the client for its roots (`roots/list`). Under 2026-07-28 this is an input-required
   * round (see {@link RequestContext.sample}).
   *
   * @example
   * ```ts
   * const { roots } = await ctx.listRoots();
   * ```
   */
  listRoots(options?: AskOptions): Promise<ListRootsResult> {
    return this.requestClient<ListRootsResult>(Method.RootsList, {}, options);
  }

  /**
   * Sends any request to the client on behalf of this request (cancelled with it).
   *
   * @example
   * ```ts
   * await ctx.requestClient('ping', {});
   * ```
   */
  requestClient<R = Record<string, unknown>>(
    method: string,
    params: object,
    options?: OutgoingRequestOptions,
  ): Promise<R> {
    if (this.#era !== undefined) return this.#era.requestClient(this, method, params, options) as Promise<R>;
    return sendRequest(this.session, method, params as Record<string, unknown>, options, this) as Promise<R>;
  }

  /**
   * Sends a notification that belongs to this request.
   *
   * @example
   * ```ts
   * ctx.notify('notifications/resources/updated', { uri: 'test://watched' });
   * ```
   */
  notify(method: string, params?: Record<string, unknown>): void | Promise<void> {
    return sendNotification(this.session, method, params, this, undefined);
  }
}

function createLogger(context: RequestContext): RequestLogger {
  const logger = {} as Record<LoggingLevel, (data: unknown, name?: string) => void>;
  for (const level of LOGGING_LEVELS) logger[level] = (data, name) => context.sendLog(level, data, name);
  return logger;
}
