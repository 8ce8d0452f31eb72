/**
 * Finding the server's era (2026-07-28 spec, basic/versioning.mdx "Backward Compatibility", and
 * the stdio and Streamable HTTP binding pages): the client sends `server/discover` with its
 * preferred modern version in `_meta`, on every transport. A `DiscoverResult` or a recognized
 * modern error (`-32022` with its `supported` list, `-32020`, `-32021`) means a modern server:
 * retry with a shared version, never fall back. Any other error, an HTTP `4xx` without a modern
 * body, or no answer in time means a legacy server: fall back to `initialize`. A failed
 * authorization (the auth provider's `AuthorizationError`) is final: it would fail there again.
 * @module
 */
import {
  type InitializeResult,
  isSupportedProtocolVersion,
  LocalError,
  McpError,
  UnsupportedProtocolVersionError,
} from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';
import {
  isModernErrorCode,
  META,
  MODERN_VERSIONS,
  ModernErrorCode,
  type ModernVersion,
  pickModernVersion,
  supportedList,
} from './modern.js';

/** What the probe found: a modern server (with what it said about itself) or a legacy one. */
export type ProbeOutcome =
  | { readonly era: 'modern'; readonly version: ModernVersion; readonly result: InitializeResult }
  | { readonly era: 'legacy'; readonly cause: unknown };

/** Sends `server/discover` under `version`; rejects as the request does. */
export type DiscoverSender = (version: ModernVersion) => Promise<unknown>;

/**
 * Probes the server with `server/discover` and classifies it. A `-32022` naming a modern version
 * this client speaks is retried once with it; one naming only `initialize` revisions that this
 * client speaks too sends the client to `initialize` (the server told us what it shares).
 *
 * @throws {UnsupportedProtocolVersionError} a modern server sharing no revision with this client.
 * @throws {LocalError} a modern server that refused the probe itself (`-32020`, `-32021`).
 * @example
 * ```ts
 * declare const connection: Connection;
 * const outcome = await probeServer((version) => connection.request('server/discover', envelopeFor(version)));
 * if (outcome.era === 'legacy') await initialize();
 * ```
 */
export async function probeServer(send: DiscoverSender): Promise<ProbeOutcome> {
  let version: ModernVersion = MODERN_VERSIONS[0];
  for (let attempt = 0; ; attempt++) {
    let result: unknown;
    try {
      result = await send(version);
    } catch (error) {
      // A failed login says nothing about the era, and `initialize` would only start another.
      if (isAuthorizationFailure(error)) throw error;
      if (!(error instanceof McpError) || !isModernErrorCode(error.code))
        return { era: 'legacy', cause: error };
      if (error.code !== ModernErrorCode.UnsupportedProtocolVersion) {
        throw new LocalError(
          `The server speaks ${version} but refused server/discover (${error.code}): ${error.message}`,
          error,
        );
      }
      const retry = pickModernVersion(error.data);
      const supported = supportedList(error.data);
      if (retry === undefined || attempt > 0) {
        // A server naming an `initialize` revision we share is served through `initialize`.
        if (supported.some(isSupportedProtocolVersion)) return { era: 'legacy', cause: error };
        throw new UnsupportedProtocolVersionError(supported, MODERN_VERSIONS);
      }
      version = retry;
      continue;
    }
    // Some legacy servers answer any request with a result: only a DiscoverResult naming a
    // modern revision we speak identifies a modern server.
    const chosen = chooseFrom(result, version);
    if (chosen === undefined) {
      const cause = new LocalError(
        'server/discover was answered without a supportedVersions list naming 2026-07-28',
      );
      return { era: 'legacy', cause };
    }
    return { era: 'modern', version: chosen, result: discovered(result, chosen) };
  }
}

/**
 * An `AuthorizationError` of `@mcpkit/auth` (an auth provider's failure: discovery, a refused
 * login, a token request), found by name so that the client needs no import of it.
 */
function isAuthorizationFailure(error: unknown): boolean {
  // A login nobody finished (`authorizationTimeout`) is as final as a refused one.
  return (
    error instanceof Error &&
    (error.name === 'AuthorizationError' || error.name === 'AuthorizationTimeoutError')
  );
}

/** The modern version to speak from a DiscoverResult: the one asked for when listed, else the newest listed. */
function chooseFrom(result: unknown, asked: ModernVersion): ModernVersion | undefined {
  const listed = isRecord(result) && Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
  if (listed.includes(asked)) return asked;
  return MODERN_VERSIONS.find((version) => listed.includes(version));
}

/**
 * A `DiscoverResult` in the shape `connect()` has always returned, so callers of either era read
 * `serverInfo`, `capabilities` and `instructions` the same way. The server's info is read from
 * `_meta` (the schema's place) or the top level (where some servers put it).
 */
function discovered(result: unknown, version: ModernVersion): InitializeResult {
  const body = isRecord(result) ? result : {};
  const meta = isRecord(body._meta) ? body._meta : {};
  const info = isRecord(meta[META.serverInfo]) ? meta[META.serverInfo] : body.serverInfo;
  const serverInfo = isRecord(info) && typeof info.name === 'string' ? info : { name: '', version: '' };
  const shaped: InitializeResult = {
    protocolVersion: version,
    capabilities: isRecord(body.capabilities) ? body.capabilities : {},
    serverInfo: serverInfo as InitializeResult['serverInfo'],
  };
  if (typeof body.instructions === 'string') shaped.instructions = body.instructions;
  if (Array.isArray(body.supportedVersions)) shaped.supportedVersions = body.supportedVersions;
  return shaped;
}
