/**
 * Classifying an HTTP request, once: what its body holds (which POST answers what), and which era
 * it belongs to (docs/2026-07-28.md §6, §7). A POST without `Mcp-Session-Id` whose one request
 * carries the 2026-07-28 `_meta` envelope (or names a per-request revision in
 * `MCP-Protocol-Version`, or is `server/discover`) is of the per-request era: it is checked here
 * against the header rules of that revision and then served with no session.
 * @module
 */
import {
  ErrorCode,
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  McpError,
  methodExists,
  type ProtocolVersion,
  type RequestId,
} from '@mcpkit/core';
import {
  type ClassifiedBody,
  classifyBody,
  codecFor,
  envelopeShapeError,
  envelopeVersion,
  isRecord,
  unsupportedVersion,
} from '@mcpkit/core/internal';
import { checkModernHeaders } from './modernHeaders.js';
import type { RawHttpRequest } from './rawHttp.js';
import { PROTOCOL_VERSION_HEADER, Refuse, Reply, SESSION_HEADER } from './responses.js';

/**
 * What the transport needs to know of a POST body before delivering it (which POST answers what),
 * read off the body's one classification, which then goes on to the engine.
 */
export interface BodySummary {
  readonly body: ClassifiedBody;
  /** Ids of the requests, in order. */
  readonly ids: RequestId[];
  readonly initialize: boolean;
  /** Request ids named by `notifications/cancelled` in the body. */
  readonly cancels: RequestId[] | undefined;
  /** The body holds `notifications/initialized`: the client finished the handshake. */
  readonly initialized: boolean;
  /** The body holds responses only (answers to requests the server sent). */
  readonly responses: boolean;
}

/**
 * Classifies a body once and reads what the transport needs off it. An invalid message or a
 * malformed batch refuses the whole POST with 400 before any of it is delivered: HTTP answers the
 * POST, so it cannot leave those to the engine's per-message errors.
 */
export function summarize(value: unknown): PostRoute | Reply {
  const body = classifyBody(value);
  const batch = body.batch;
  if (batch && body.kinds.length === 0) return Refuse.invalid('an empty batch');
  const ids: RequestId[] = [];
  const seen = batch ? new Set<RequestId>() : undefined;
  let initialize = false;
  let cancels: RequestId[] | undefined;
  let initialized = false;
  let responses = true;
  for (const kind of body.kinds) {
    if (kind.kind === 'invalid') return Refuse.invalid(kind.reason, batch ? undefined : kind.id);
    if (kind.kind !== 'response') responses = false;
    if (kind.kind === 'request') {
      const id = kind.message.id;
      if (seen) {
        if (seen.has(id)) return Refuse.invalid(`id ${JSON.stringify(id)} appears twice in the batch`);
        seen.add(id);
      }
      ids.push(id);
      if (kind.message.method === 'initialize') initialize = true;
    } else if (kind.kind === 'notification') {
      const method = kind.message.method;
      if (method === 'notifications/initialized') initialized = true;
      else if (method === 'notifications/cancelled') {
        const target = kind.message.params?.requestId;
        if (typeof target === 'string' || typeof target === 'number') {
          if (!cancels) cancels = [];
          cancels.push(target);
        }
      }
    }
  }
  if (initialize && batch) return Refuse.invalid('initialize must not be part of a batch');
  // Routed by classifyPost; `kind` and `modern` are here from the start so every route has one shape.
  return { body, ids, initialize, cancels, initialized, responses, kind: 'stateless', modern: undefined };
}

/**
 * Where a POST goes: `modern` (a 2026-07-28 request, checked, served with no session), `session`
 * (a 2025 POST to the session front) or `stateless` (a 2025 POST on a throwaway session).
 *
 * @example
 * ```ts
 * const kind: RouteKind = 'session';
 * ```
 */
export type RouteKind = 'modern' | 'session' | 'stateless';

/**
 * A classified POST: its body's summary and where it goes (one object, made once per POST).
 *
 * @example
 * ```ts
 * declare const route: PostRoute;
 * if (route.kind === 'modern') console.error(route.modern!.method, route.ids);
 * ```
 */
export interface PostRoute extends BodySummary {
  kind: RouteKind;
  /** The per-request era's request, when `kind` is `modern`. */
  modern: ModernPost | undefined;
}

/**
 * What classifying a 2026-07-28 POST asks of the server: whether it answers a method, a tool's
 * input schema (for the `x-mcp-header` rules), and the refusal of a revision it does not serve.
 * `Server` is one.
 *
 * @example
 * ```ts
 * declare const server: Server;
 * const asked: PostServer = server;
 * ```
 */
export interface PostServer {
  requestHandler(method: string): unknown;
  toolInputSchema(toolName: string): unknown;
  refusedRevision(revision: unknown): McpError | undefined;
}

/**
 * Classifies one POST body, once: what it holds, which era it is of and where it goes, with the
 * per-request era's header rules already checked. The refusal to answer with instead, when the
 * body or (2026-07-28) its headers are refused before anything runs.
 *
 * @example
 * ```ts
 * declare const request: RawHttpRequest;
 * declare const server: Server;
 * const route = classifyPost(request, JSON.parse(text), server, true);
 * if (!(route instanceof Reply) && route.kind === 'modern') console.error(route.modern!.method);
 * ```
 */
export function classifyPost(
  request: RawHttpRequest,
  value: unknown,
  server: PostServer,
  stateful: boolean,
): PostRoute | Reply {
  const route = summarize(value);
  if (route instanceof Reply) return route;
  const modern = modernPostOf(request, route);
  if (modern) {
    const refused = checkModernPost(request, modern, server);
    if (refused) return refused;
    route.kind = 'modern';
    route.modern = modern;
  } else if (stateful) {
    route.kind = 'session';
  }
  return route;
}

/**
 * Whether a revision takes JSON-RPC batches (2025-03-26 did; later revisions do not).
 *
 * @example
 * ```ts
 * acceptsBatches('2025-03-26'); // true
 * ```
 */
export function acceptsBatches(version: string | undefined): boolean {
  return (
    version !== undefined &&
    isSupportedProtocolVersion(version) &&
    codecFor(version as ProtocolVersion).acceptsBatches
  );
}

/** A POST of the per-request era: one request, and the version its envelope names (unchecked). */
export interface ModernPost {
  readonly id: RequestId;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly version: unknown;
}

const DISCOVER = 'server/discover';

/**
 * The POST's request when the POST is of the per-request era, else `undefined` (a 2025 session,
 * `initialize`, or the 2025 stateless path). A request carrying the envelope is of that era even
 * with an `Mcp-Session-Id`, which the revision says to ignore: its header rules then still apply.
 * Without the envelope, a session id means the 2025 era.
 *
 * @example
 * ```ts
 * declare const request: RawHttpRequest;
 * declare const summary: BodySummary;
 * const modern = modernPostOf(request, summary); // undefined for 2025 traffic
 * ```
 */
export function modernPostOf(request: RawHttpRequest, summary: BodySummary): ModernPost | undefined {
  const body = summary.body;
  if (body.batch || body.kinds.length !== 1) return undefined;
  const kind = body.kinds[0]!;
  if (kind.kind !== 'request') return undefined;
  const { id, method, params } = kind.message;
  const version = envelopeVersion(params);
  if (version === undefined) {
    if (request.header(SESSION_HEADER) !== null) return undefined;
    if (method !== DISCOVER && !isModernProtocolVersion(request.header(PROTOCOL_VERSION_HEADER)))
      return undefined;
  }
  return { id, method, params: isRecord(params) ? params : undefined, version };
}

/**
 * The refusal a per-request-era POST gets before anything runs, or `undefined` to serve it:
 * `400` + `-32022` for a revision the server does not speak, `400` + `-32020` for a header that
 * is missing or disagrees with the body, `404` + `-32601` for a method the revision or the server
 * does not have.
 *
 * @example
 * ```ts
 * declare const request: RawHttpRequest;
 * declare const post: ModernPost;
 * declare const server: Server;
 * const refused = checkModernPost(request, post, server);
 * ```
 */
export function checkModernPost(
  request: RawHttpRequest,
  post: ModernPost,
  server: PostServer,
): Reply | undefined {
  const { id, method, version } = post;
  // The order the revision implies: a malformed envelope is -32602, a header that disagrees with
  // the body -32020 (even when the body names an unknown version), and only then -32022.
  const shape = envelopeShapeError(post.params);
  if (shape) return errorReply(400, shape, id);
  const mismatch = checkModernHeaders(request, post, server);
  if (mismatch !== undefined) return errorReply(400, new McpError(ErrorCode.HeaderMismatch, mismatch), id);
  if (!isModernProtocolVersion(version)) return errorReply(400, unsupportedVersion(version), id);
  const refused = server.refusedRevision(version);
  if (refused) return errorReply(400, refused, id);
  if (!methodExists(method, 'c2s', version) || server.requestHandler(method) === undefined) {
    const message = `Method not found: "${method}" is not served under protocol revision ${version}`;
    return errorReply(404, new McpError(ErrorCode.MethodNotFound, message), id);
  }
  return undefined;
}

/**
 * GET and DELETE do not exist in the per-request era: without a session and naming a per-request
 * revision they get `405` (HTTP, "Backward Compatibility").
 *
 * @example
 * ```ts
 * declare const request: RawHttpRequest;
 * if (isModernStreamRequest(request)) console.error('405');
 * ```
 */
export function isModernStreamRequest(request: RawHttpRequest): boolean {
  return (
    request.header(SESSION_HEADER) === null &&
    isModernProtocolVersion(request.header(PROTOCOL_VERSION_HEADER))
  );
}

/**
 * The HTTP status of a 2026-07-28 answer: the revision's errors that the handler raised (a
 * missing client capability) get their status like the ones refused up front.
 *
 * @example
 * ```ts
 * modernStatus({ jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'm' } }); // 400
 * ```
 */
export function modernStatus(message: unknown): number {
  if (!isRecord(message) || !isRecord(message.error)) return 200;
  const code = message.error.code;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
  )
    return 400;
  return 200;
}

/** A JSON-RPC error response with an HTTP status, carrying the request's id and the error's data. */
function errorReply(status: number, error: McpError, id: RequestId): Reply {
  return new Reply(
    status,
    { 'content-type': 'application/json' },
    JSON.stringify({ jsonrpc: '2.0', id, error: error.toJSON() }),
  );
}
