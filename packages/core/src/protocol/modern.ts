/**
 * The codec of the per-request revisions (2026-07-28): it works in both directions and per
 * message. On the way in it lifts the `_meta` envelope (protocol version, client capabilities,
 * client info, log level) off a request, checks it and strips it, so a handler sees the same
 * params in both eras. On the way out it adds what every 2026 result carries (`resultType`,
 * `serverInfo`, caching hints) and maps the error kinds whose code differs by revision.
 * See docs/2026-07-28.md §3.
 * @module
 */
import { McpError } from '../jsonrpc/errors.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import { copyOwn, isRecord } from '../shared.js';
import type { AuthInfo } from '../transport/transport.js';
import {
  isModernProtocolVersion,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
} from './revisions.js';
import { type ClientCapabilities, type Implementation, LOGGING_LEVELS, type LoggingLevel } from './types.js';

/**
 * The reserved `_meta` keys of the 2026-07-28 envelope.
 *
 * @example
 * ```ts
 * const meta = { [ENVELOPE.protocolVersion]: '2026-07-28', [ENVELOPE.clientCapabilities]: {} };
 * ```
 */
export const ENVELOPE = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const);

/** What a 2026 request's envelope says about its client, checked. Never stored: read once into the request scope. */
export interface EnvelopeScope {
  readonly revision: ModernProtocolVersion;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** Absent: the client wants no `notifications/message` for this request. */
  readonly logLevel: LoggingLevel | undefined;
}

/**
 * The request scope of a 2026 request as handlers read it (`ctx.scope`): its envelope, and who the
 * authorization layer says sent it. Frozen; there is no session.
 */
export interface ModernScope extends EnvelopeScope {
  readonly principal: AuthInfo | undefined;
  readonly sessionId: undefined;
}

/** A 2026 request after decoding: params as a handler sees them, and the retry fields of MRTR. */
export interface DecodedModernRequest {
  readonly params: Record<string, unknown>;
  readonly scope: ModernScope;
  /** The client's answers to an earlier `input_required` result (`inputResponses`), raw. */
  readonly inputResponses: unknown;
  /** The `requestState` echoed from an earlier `input_required` result, raw (attacker-controlled). */
  readonly requestState: unknown;
}

/**
 * The protocol version a request's `_meta` names, if any: how a message is told to be of the
 * per-request era.
 *
 * @example
 * ```ts
 * envelopeVersion({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }); // '2026-07-28'
 * envelopeVersion({ name: 'x' }); // undefined
 * ```
 */
export function envelopeVersion(params: unknown): unknown {
  if (!isRecord(params)) return undefined;
  const meta = params._meta;
  return isRecord(meta) ? meta[ENVELOPE.protocolVersion] : undefined;
}

/**
 * The error a request naming a revision the server does not speak gets (`-32022`), listing the
 * revisions it does speak (by default every per-request revision mcpkit knows).
 *
 * @example
 * ```ts
 * unsupportedVersion('1999-01-01').code; // -32022
 * unsupportedVersion('2026-07-28', ['2025-11-25']).data; // { requested: '2026-07-28', supported: ['2025-11-25'] }
 * ```
 */
export function unsupportedVersion(
  requested: unknown,
  supported: readonly string[] = MODERN_PROTOCOL_VERSIONS,
): McpError {
  const shown = typeof requested === 'string' ? requested : (JSON.stringify(requested) ?? typeof requested);
  return new McpError(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${shown.slice(0, 64)}`,
    {
      requested: typeof requested === 'string' ? requested : String(shown),
      supported: [...supported],
    },
  );
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

function checkImplementation(value: unknown): Implementation | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || typeof value.name !== 'string' || typeof value.version !== 'string') {
    throw invalid(`"_meta.${ENVELOPE.clientInfo}" needs a string "name" and "version"`);
  }
  return value as unknown as Implementation;
}

function checkLogLevel(value: unknown): LoggingLevel | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(LOGGING_LEVELS as readonly string[]).includes(value)) {
    throw invalid(`"_meta.${ENVELOPE.logLevel}" must be one of ${LOGGING_LEVELS.join(', ')}`);
  }
  return value as LoggingLevel;
}

/**
 * What is wrong with a request's envelope apart from which version it names: a missing `_meta`,
 * a missing or non-string protocol version, missing client capabilities, a malformed client info
 * or log level are `-32602`. `undefined` when the shape is right. HTTP checks this before its
 * header rules; the version's support is checked after them (`-32022`).
 *
 * @example
 * ```ts
 * envelopeShapeError({ name: 'x' })?.code; // -32602 (no _meta)
 * ```
 */
export function envelopeShapeError(params: unknown): McpError | undefined {
  try {
    checkShape(isRecord(params) ? params._meta : undefined);
    return undefined;
  } catch (error) {
    return error as McpError;
  }
}

function checkShape(meta: unknown): asserts meta is Record<string, unknown> {
  if (!isRecord(meta)) throw invalid('"_meta" with the request envelope is required under 2026-07-28');
  if (typeof meta[ENVELOPE.protocolVersion] !== 'string') {
    throw invalid(`"_meta.${ENVELOPE.protocolVersion}" is required and must be a string`);
  }
  if (!isRecord(meta[ENVELOPE.clientCapabilities])) {
    throw invalid(`"_meta.${ENVELOPE.clientCapabilities}" is required and must be an object`);
  }
  checkImplementation(meta[ENVELOPE.clientInfo]);
  checkLogLevel(meta[ENVELOPE.logLevel]);
}

/**
 * The request scope from an envelope whose shape and version are known to be right (checked here,
 * or by the HTTP front before it: nothing is checked twice). One frozen object per request, built
 * member by member (a spread followed by more members is a slow map transition in V8).
 */
function scopeOf(meta: Record<string, unknown>, principal: AuthInfo | undefined): ModernScope {
  return Object.freeze({
    revision: meta[ENVELOPE.protocolVersion] as ModernProtocolVersion,
    clientCapabilities: meta[ENVELOPE.clientCapabilities] as ClientCapabilities,
    clientInfo: meta[ENVELOPE.clientInfo] as Implementation | undefined,
    logLevel: meta[ENVELOPE.logLevel] as LoggingLevel | undefined,
    principal,
    sessionId: undefined,
  });
}

/** Checks the envelope; throws the {@link McpError} the request is answered with. */
function checkEnvelope(meta: unknown): asserts meta is Record<string, unknown> {
  checkShape(meta);
  const version = meta[ENVELOPE.protocolVersion];
  if (!isModernProtocolVersion(version)) throw unsupportedVersion(version);
}

/**
 * Decodes a 2026-07-28 request: lifts and checks its envelope into the request scope (with
 * `principal`, who the authorization layer says sent it), strips the envelope keys and the MRTR
 * retry fields from what the handler sees. `checked`: the caller has already checked the envelope's
 * shape and version (the HTTP front does, before its header rules), so they are not checked again.
 *
 * @throws {McpError} `-32022` for a version the server does not speak, `-32602` for a missing or
 *   malformed envelope key.
 * @example
 * ```ts
 * const { params, scope } = decodeModernRequest({
 *   name: 'echo',
 *   _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
 * });
 * scope.revision; // '2026-07-28'
 * params; // { name: 'echo' }
 * ```
 */
export function decodeModernRequest(
  raw: Record<string, unknown> | undefined,
  principal?: AuthInfo,
  checked = false,
): DecodedModernRequest {
  const meta = raw?._meta;
  if (!checked) checkEnvelope(meta);
  const scope = scopeOf(meta as Record<string, unknown>, principal);
  const source = raw!;
  const params: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key !== '_meta' && key !== 'inputResponses' && key !== 'requestState') params[key] = source[key];
  }
  // Most envelopes carry only the lifted keys: then there is no `_meta` left to hand on.
  let rest: Record<string, unknown> | undefined;
  for (const key of Object.keys(meta as Record<string, unknown>)) {
    if (isLifted(key)) continue;
    rest ??= {};
    rest[key] = (meta as Record<string, unknown>)[key];
  }
  if (rest) params._meta = rest;
  return { params, scope, inputResponses: source.inputResponses, requestState: source.requestState };
}

function isLifted(key: string): boolean {
  return (
    key === ENVELOPE.protocolVersion ||
    key === ENVELOPE.clientCapabilities ||
    key === ENVELOPE.clientInfo ||
    key === ENVELOPE.logLevel
  );
}

/**
 * Results that carry caching hints (CL-m5; required by the schema). `server/discover` is one too.
 *
 * @example
 * ```ts
 * CACHEABLE_METHODS.has('tools/list'); // true
 * ```
 */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * The caching hints a result gets when its handler set none: immediately stale, and private to
 * the caller's authorization context. Both are the safe reading: lists may be filtered per
 * principal (issue 21), and a server that knows better sets `ttlMs`/`cacheScope` itself.
 */
export const DEFAULT_CACHE_HINTS = Object.freeze({ ttlMs: 0, cacheScope: 'private' as const });

/**
 * Encodes a result, built in the 2025-11-25 shape, for a 2026-07-28 client: `resultType`
 * (`"complete"` unless the handler set one, e.g. `"input_required"`), `serverInfo` in `_meta`
 * (unless it is `undefined`: a server configured not to send it), and default caching hints on
 * the cacheable methods.
 *
 * @example
 * ```ts
 * encodeModernResult('tools/list', { tools: [] }, { name: 'srv', version: '1.0.0' });
 * // { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': … } }
 * ```
 */
export function encodeModernResult(
  method: string,
  result: Record<string, unknown>,
  serverInfo: Implementation | undefined,
): Record<string, unknown> {
  // Copied key by key: a spread followed by new members is a slow path in V8 (see copyOwn).
  const out = copyOwn(result);
  if (typeof out.resultType !== 'string') out.resultType = 'complete';
  if (out.resultType === 'complete' && CACHEABLE_METHODS.has(method)) {
    if (typeof out.ttlMs !== 'number') out.ttlMs = DEFAULT_CACHE_HINTS.ttlMs;
    if (out.cacheScope !== 'public' && out.cacheScope !== 'private')
      out.cacheScope = DEFAULT_CACHE_HINTS.cacheScope;
  }
  // A server configured not to name itself (`serverInfoInResults: false`) leaves `_meta` as it is.
  if (serverInfo === undefined) return out;
  const meta = isRecord(out._meta) ? copyOwn(out._meta) : {};
  meta[ENVELOPE.serverInfo] = serverInfo;
  out._meta = meta;
  return out;
}

/**
 * Maps an error a handler threw to its 2026-07-28 code. Feature code throws one semantic code;
 * only the codec knows that an unknown resource is `-32002` under 2025-11-25 and `-32602` under
 * 2026-07-28 (CL-m12). Anything else passes unchanged.
 *
 * @example
 * ```ts
 * encodeModernError(new McpError(-32002, 'Resource not found: x')).code; // -32602
 * ```
 */
export function encodeModernError(error: unknown): unknown {
  if (error instanceof McpError && error.code === ErrorCode.ResourceNotFound) {
    return new McpError(ErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}
