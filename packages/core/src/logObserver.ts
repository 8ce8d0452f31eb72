/**
 * Structured logs on the observer seam: sessions, handshakes, failures and slow calls, written to
 * a pino-shaped logger. Nothing here runs unless the observer is installed, and nothing of it is
 * bundled unless imported.
 * @module
 */
import { ErrorCode } from './jsonrpc/messages.js';
import {
  type ObservedOutcome,
  type ObservedRequest,
  type ObservedSession,
  type Observer,
  observedErrorType,
} from './observer.js';
import { ENVELOPE } from './protocol/modern.js';
import { redact } from './redact.js';

/**
 * What {@link createLogObserver} writes to: pino's shape (`pino()` fits as is), or any object
 * with these four methods, each taking a fields object and a message.
 *
 * @example
 * ```ts
 * const logger: Logger = {
 *   debug: () => {},
 *   info: (fields, msg) => console.log(JSON.stringify({ level: 'info', msg, ...fields })),
 *   warn: (fields, msg) => console.warn(JSON.stringify({ level: 'warn', msg, ...fields })),
 *   error: (fields, msg) => console.error(JSON.stringify({ level: 'error', msg, ...fields })),
 * };
 * ```
 */
export interface Logger {
  debug(fields: Record<string, unknown>, msg: string): void;
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

/**
 * Options of {@link createLogObserver}.
 *
 * @example
 * ```ts
 * const options: LogObserverOptions = { slowCallMs: 500, logParams: true, redactKeys: ['ssn'] };
 * ```
 */
export interface LogObserverOptions {
  /** A request that takes at least this long is logged as slow (warn). Default 1000 ms. */
  slowCallMs?: number;
  /**
   * Add the params of failed and slow requests (tool arguments included), redacted. They may hold
   * personal data, so the default is false.
   */
  logParams?: boolean;
  /** More key fragments (lower case) to redact, beside authorization, cookie, token, secret, password... */
  redactKeys?: readonly string[];
}

type Level = keyof Logger;

const INTERNAL_ERROR = String(ErrorCode.InternalError);

/** The distinct 2026-07-28 clients remembered, so each is logged once; cleared when full. */
const MAX_SEEN_CLIENTS = 1000;

/**
 * An {@link Observer} that logs to `logger`: sessions opened and closed (info), each handshake
 * with the peer's name, version and the negotiated revision (info; a 2026-07-28 client once per
 * distinct client and revision, at its first request), requests that fail with an internal error
 * (error) or a local timeout or closed connection (warn), other failures (debug), slow requests
 * (warn, with method, item name and duration), and errors the server or client reports (error).
 * Params, arguments and results are never logged unless `logParams`; everything logged goes
 * through a key-based redactor (authorization, cookie, tokens, secrets, passwords).
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const server = new McpServer(info, { observer: createLogObserver(pino(), { slowCallMs: 500 }) });
 * // with other observers: { observer: combineObservers(createLogObserver(pino()), createOtelObserver()) }
 * ```
 */
export function createLogObserver(logger: Logger, options: LogObserverOptions = {}): Observer {
  const slowCallMs = options.slowCallMs ?? 1000;
  const extra = options.redactKeys ?? [];
  const seen = new Set<string>();
  const write = (level: Level, fields: Record<string, unknown>, msg: string) => {
    try {
      logger[level](redact(fields, extra) as Record<string, unknown>, msg);
    } catch {
      // A logger that throws must not take the connection down.
    }
  };
  const requestFields = (request: ObservedRequest, outcome: ObservedOutcome) => ({
    ...sessionFields(request.session),
    role: request.role,
    method: request.method,
    ...(request.target === undefined ? {} : { target: request.target }),
    requestId: request.id,
    durationMs: Math.round(outcome.durationMs * 10) / 10,
    ...(options.logParams && request.params ? { params: request.params } : {}),
  });
  return {
    sessionOpened: (session) =>
      write('info', { event: 'mcp.session.opened', ...sessionFields(session) }, 'MCP session opened'),
    sessionClosed: (session, durationMs) =>
      write(
        'info',
        { event: 'mcp.session.closed', ...sessionFields(session), durationMs: Math.round(durationMs) },
        'MCP session closed',
      ),
    requestStarted: (request) => {
      const key = modernClientKey(request);
      if (key === undefined || seen.has(key)) return;
      if (seen.size >= MAX_SEEN_CLIENTS) seen.clear();
      seen.add(key);
      const info = envelopeClient(request.params);
      write(
        'info',
        {
          event: 'mcp.handshake',
          ...sessionFields(request.session),
          role: request.role,
          ...info,
          protocolVersion: request.protocolVersion,
        },
        'MCP client seen',
      );
    },
    requestFinished: (request, outcome) => {
      if (request.method === 'initialize' && outcome.result) {
        write(
          'info',
          { event: 'mcp.handshake', ...handshakeFields(request, outcome.result) },
          'MCP handshake',
        );
      }
      const errorType = observedErrorType(request.method, outcome);
      const level = failureLevel(errorType);
      if (level) {
        const failure = { errorType, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage };
        write(
          level,
          { event: 'mcp.request.failed', ...requestFields(request, outcome), ...failure },
          `MCP ${request.method} failed`,
        );
      }
      if (outcome.durationMs >= slowCallMs) {
        write(
          'warn',
          { event: 'mcp.request.slow', ...requestFields(request, outcome), slowCallMs },
          `MCP ${request.method} slow`,
        );
      }
    },
    error: (error, session) => {
      const err = { type: error.name, message: error.message, stack: error.stack };
      write('error', { event: 'mcp.error', ...sessionFields(session), err }, `MCP error: ${error.message}`);
    },
  };
}

function sessionFields(session: ObservedSession | undefined): Record<string, unknown> {
  if (!session) return {};
  return {
    role: session.role,
    ...(session.id === undefined ? {} : { sessionId: session.id }),
    ...(session.protocolVersion === undefined ? {} : { protocolVersion: session.protocolVersion }),
    ...(session.transport === undefined ? {} : { transport: session.transport }),
  };
}

/**
 * `error` for an internal error, `warn` for a timeout or a closed connection, `debug` for the
 * rest (a client's mistake, a tool's `isError` result, a cancellation).
 */
function failureLevel(errorType: string | undefined): Level | undefined {
  if (errorType === undefined) return undefined;
  if (errorType === INTERNAL_ERROR) return 'error';
  return errorType === 'timeout' || errorType === 'closed' ? 'warn' : 'debug';
}

/** The peer named in an `initialize` exchange: the client (as a server) or the server (as a client). */
function handshakeFields(request: ObservedRequest, result: Record<string, unknown>): Record<string, unknown> {
  const params = request.params ?? {};
  const peer = request.role === 'server' ? params.clientInfo : result.serverInfo;
  return {
    ...sessionFields(request.session),
    role: request.role,
    ...implementation(request.role === 'server' ? 'client' : 'server', peer),
    requestedVersion: params.protocolVersion,
    protocolVersion: result.protocolVersion,
  };
}

/** `clientName`/`clientVersion` (or `server…`) of an `Implementation`, strings only. */
function implementation(prefix: 'client' | 'server', value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object') return {};
  const { name, version } = value as Record<string, unknown>;
  return {
    ...(typeof name === 'string' ? { [`${prefix}Name`]: name } : {}),
    ...(typeof version === 'string' ? { [`${prefix}Version`]: version } : {}),
  };
}

function envelopeClient(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const meta = params?._meta;
  if (!meta || typeof meta !== 'object') return {};
  return implementation('client', (meta as Record<string, unknown>)[ENVELOPE.clientInfo]);
}

/** For a received 2026-07-28 request naming its client: who and under which revision, as one key. */
function modernClientKey(request: ObservedRequest): string | undefined {
  if (request.role !== 'server') return undefined;
  const { clientName, clientVersion } = envelopeClient(request.params);
  if (clientName === undefined) return undefined;
  return `${clientName}\u0000${clientVersion}\u0000${request.protocolVersion}`;
}
