/**
 * The protocol revisions mcpkit speaks, and the one table that says what each one has.
 *
 * Feature code always produces messages in the shape of the latest revision. When the peer
 * negotiated an older one, its {@link RevisionCodec} adapts each outgoing message so the peer never
 * sees a field or feature it cannot understand. Revision 2026-07-28 has no `initialize`: it is kept
 * out of the negotiation list and served per request (see `modern.ts` and docs/2026-07-28.md).
 * @module
 */

/**
 * Every revision mcpkit can negotiate, newest first.
 *
 * @example
 * ```ts
 * new McpClient(info, { protocolVersions: SUPPORTED_PROTOCOL_VERSIONS.slice(1) }); // never 2025-11-25
 * ```
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** A revision mcpkit can negotiate. */
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/**
 * The revision mcpkit prefers and offers first.
 *
 * @example
 * ```ts
 * if (client.protocolVersion !== LATEST_PROTOCOL_VERSION) console.error('talking to an older server');
 * ```
 */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';

/**
 * What an HTTP server assumes when `MCP-Protocol-Version` is absent (spec: 2025-03-26).
 *
 * @example
 * ```ts
 * declare const request: Request;
 * const version = request.headers.get('mcp-protocol-version') ?? DEFAULT_HTTP_PROTOCOL_VERSION;
 * ```
 */
export const DEFAULT_HTTP_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

/**
 * True when `version` is a revision mcpkit can speak.
 *
 * @example
 * ```ts
 * isSupportedProtocolVersion('2025-06-18'); // true
 * isSupportedProtocolVersion('1999-01-01'); // false
 * ```
 */
export function isSupportedProtocolVersion(version: unknown): version is ProtocolVersion {
  return typeof version === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/**
 * The version a server answers `initialize` with: the client's, when supported, else the latest.
 *
 * @example
 * ```ts
 * negotiateProtocolVersion('2025-03-26'); // '2025-03-26'
 * negotiateProtocolVersion('2099-01-01'); // '2025-11-25'
 * ```
 */
export function negotiateProtocolVersion(
  requested: unknown,
  supported: readonly ProtocolVersion[] = SUPPORTED_PROTOCOL_VERSIONS,
): ProtocolVersion {
  if (isSupportedProtocolVersion(requested) && supported.includes(requested)) return requested;
  return supported[0] ?? LATEST_PROTOCOL_VERSION;
}

/**
 * The revisions served per request, from the `_meta` envelope each request carries (no
 * `initialize`, no session). They never take part in `initialize` negotiation.
 *
 * @example
 * ```ts
 * MODERN_PROTOCOL_VERSIONS.includes('2026-07-28'); // true
 * ```
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** A revision served per request (2026-07-28 and later). */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** Any revision mcpkit speaks: an `initialize` revision or a per-request one. */
export type Revision = ProtocolVersion | ModernProtocolVersion;

/**
 * Every revision mcpkit speaks, newest first.
 *
 * @example
 * ```ts
 * ALL_REVISIONS[0]; // '2026-07-28'
 * ```
 */
export const ALL_REVISIONS: readonly Revision[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];

/**
 * True when `version` is a revision served per request (no `initialize`).
 *
 * @example
 * ```ts
 * isModernProtocolVersion('2026-07-28'); // true
 * isModernProtocolVersion('2025-11-25'); // false
 * ```
 */
export function isModernProtocolVersion(version: unknown): version is ModernProtocolVersion {
  return typeof version === 'string' && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}
