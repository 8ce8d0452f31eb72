/**
 * What the client needs to know of revision 2026-07-28 (the "modern" era: no `initialize`, no
 * session, every request carries its version, capabilities and client info in `_meta`), kept in
 * one place: the envelope keys, the errors that identify a modern server, the methods the revision
 * removed, and the building of a request's envelope. See docs/2026-07-28.md §6.
 * @module
 */
import type { ClientCapabilities, Implementation, LoggingLevel } from '@mcpkit/core';
import { copyOwn, defineOwn, isRecord } from '@mcpkit/core/internal';

/**
 * The per-request revisions this client speaks, newest first.
 *
 * @example
 * ```ts
 * MODERN_VERSIONS[0]; // '2026-07-28'
 * ```
 */
export const MODERN_VERSIONS = ['2026-07-28'] as const;

/** A per-request revision this client speaks. */
export type ModernVersion = (typeof MODERN_VERSIONS)[number];

/**
 * Which era a client speaks: `'2026'` per-request metadata (2026-07-28), `'2025'` an `initialize`
 * session (2025-11-25 and older), `'auto'` the first the server speaks, modern first.
 *
 * @example
 * ```ts
 * new McpClient(info, { protocolEra: '2025' }); // never probes, always `initialize`
 * ```
 */
export type ProtocolEra = 'auto' | '2026' | '2025';

/** The reserved `_meta` keys of the 2026-07-28 envelope. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The JSON-RPC errors only a modern server sends (2026-07-28 schema). */
export const ModernErrorCode = {
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

const MODERN_ERROR_CODES: ReadonlySet<number> = new Set(Object.values(ModernErrorCode));

/**
 * True for an error code that identifies a modern server (spec: "a recognized modern JSON-RPC
 * error ... identifies a modern server: the client retries rather than falling back").
 *
 * @example
 * ```ts
 * isModernErrorCode(-32022); // true
 * isModernErrorCode(-32601); // false: legacy servers answer unknown methods so too
 * ```
 */
export function isModernErrorCode(code: unknown): boolean {
  return typeof code === 'number' && MODERN_ERROR_CODES.has(code);
}

/**
 * Methods a client sends under 2025 revisions that 2026-07-28 removed (changelog M2, M4, M5, M6),
 * with what replaces them, for the error a caller gets.
 */
const REMOVED: Readonly<Record<string, string>> = {
  initialize: 'every request carries its version and capabilities in `_meta`',
  'logging/setLevel': 'the log level travels in each request’s `_meta` (setLoggingLevel stores it)',
  'resources/subscribe': 'subscriptions/listen',
  'resources/unsubscribe': 'subscriptions/listen',
  'tasks/list': 'the tasks extension',
};

/**
 * Why `method` cannot be sent under 2026-07-28, or `undefined` when it can.
 *
 * @example
 * ```ts
 * removedInModern('logging/setLevel'); // 'the log level travels in ...'
 * removedInModern('tools/call'); // undefined
 * ```
 */
export function removedInModern(method: string): string | undefined {
  return Object.hasOwn(REMOVED, method) ? REMOVED[method] : undefined;
}

/** The facts a client states on every modern request. */
export interface EnvelopeSource {
  readonly version: ModernVersion;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  readonly logLevel: LoggingLevel | undefined;
}

/**
 * The `_meta` entries of the envelope, built once per connection (and again when the log level
 * changes) rather than per request: capabilities are fixed once a client connects.
 *
 * @example
 * ```ts
 * const entries = envelopeEntries({
 *   version: '2026-07-28', capabilities: {}, clientInfo: { name: 'host', version: '1.0.0' }, logLevel: undefined,
 * });
 * entries['io.modelcontextprotocol/protocolVersion']; // '2026-07-28'
 * ```
 */
export function envelopeEntries(source: EnvelopeSource): Readonly<Record<string, unknown>> {
  const entries: Record<string, unknown> = {};
  entries[META.protocolVersion] = source.version;
  entries[META.clientCapabilities] = source.capabilities;
  entries[META.clientInfo] = source.clientInfo;
  if (source.logLevel !== undefined) entries[META.logLevel] = source.logLevel;
  return Object.freeze(entries);
}

/**
 * The params of a modern request: `params` (and a retry's `inputResponses`/`requestState`) with
 * the envelope merged into `_meta`; the caller's own `_meta` keys, such as a progress token or
 * trace context, are kept, and the caller's objects are left as they were.
 *
 * Copied key by key on purpose: this runs for every 2026-07-28 request, and V8 gives object
 * spreads of these long computed keys a slow path (about 8x slower here, measured with the
 * progress token's copy in the engine).
 *
 * @example
 * ```ts
 * const params = withEnvelope({ name: 'echo' }, envelopeEntries({
 *   version: '2026-07-28', capabilities: {}, clientInfo: { name: 'host', version: '1.0.0' }, logLevel: undefined,
 * }));
 * params._meta['io.modelcontextprotocol/protocolVersion']; // '2026-07-28'
 * ```
 */
export function withEnvelope(
  params: Record<string, unknown> | undefined,
  entries: Readonly<Record<string, unknown>>,
  retry?: Record<string, unknown>,
): Record<string, unknown> & { _meta: Record<string, unknown> } {
  const copy: Record<string, unknown> = {};
  let own: unknown;
  if (params !== undefined) {
    for (const key in params) {
      if (!Object.hasOwn(params, key)) continue;
      if (key === '_meta') own = params[key];
      else if (key === '__proto__') defineOwn(copy, key, params[key]);
      else copy[key] = params[key];
    }
  }
  if (retry !== undefined) {
    for (const key in retry) if (Object.hasOwn(retry, key)) copy[key] = retry[key];
  }
  const meta: Record<string, unknown> = isRecord(own) ? copyOwn(own) : {};
  for (const key in entries) meta[key] = entries[key];
  copy._meta = meta;
  return copy as Record<string, unknown> & { _meta: Record<string, unknown> };
}

/**
 * The capabilities a client declares under 2026-07-28: the 2025 `tasks` capability is gone (tasks
 * became an extension, changelog M6) and `roots.listChanged` with it (no roots notification).
 *
 * @example
 * ```ts
 * modernCapabilities({ roots: { listChanged: true }, sampling: {} }); // { roots: {}, sampling: {} }
 * ```
 */
export function modernCapabilities(capabilities: ClientCapabilities): ClientCapabilities {
  const { tasks: _tasks, roots, ...rest } = capabilities as ClientCapabilities & { tasks?: unknown };
  return roots === undefined ? rest : { ...rest, roots: {} };
}

/**
 * The modern version to retry with, from the `supported` list of a `-32022` error: the newest
 * this client speaks, or `undefined`.
 *
 * @example
 * ```ts
 * pickModernVersion({ supported: ['2026-07-28', '2025-11-25'] }); // '2026-07-28'
 * pickModernVersion({ supported: ['2025-11-25'] }); // undefined
 * ```
 */
export function pickModernVersion(data: unknown): ModernVersion | undefined {
  const supported = supportedList(data);
  return MODERN_VERSIONS.find((version) => supported.includes(version));
}

/**
 * The `supported` list of an `UnsupportedProtocolVersionError`'s data (strings only).
 *
 * @example
 * ```ts
 * supportedList({ supported: ['2026-07-28', 7] }); // ['2026-07-28']
 * ```
 */
export function supportedList(data: unknown): string[] {
  const list = isRecord(data) ? data.supported : undefined;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * True when a result is an `InputRequiredResult`. A result without `resultType` is complete
 * (changelog M8: older servers send none).
 *
 * @example
 * ```ts
 * isInputRequired({ resultType: 'input_required', requestState: 'x' }); // true
 * isInputRequired({ content: [] }); // false
 * ```
 */
export function isInputRequired(result: unknown): result is InputRequired {
  return isRecord(result) && result.resultType === 'input_required';
}

/** The part of an `InputRequiredResult` the client acts on. */
export interface InputRequired {
  resultType: 'input_required';
  inputRequests?: Record<string, unknown>;
  requestState?: string;
}
