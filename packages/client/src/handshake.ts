/**
 * Finding out what the server speaks once connected: the `server/discover` probe of 2026-07-28,
 * and the `initialize` handshake of the 2025 era. The client settles on what these return.
 * @module
 */
import {
  type ClientCapabilities,
  type Connection,
  type Implementation,
  type InitializeResult,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  LocalError,
  Method,
  type OutgoingRequestOptions,
  type ProtocolVersion,
  UnsupportedProtocolVersionError,
} from '@mcpkit/core';
import { codecFor, NOT_IN_REVISION } from '@mcpkit/core/internal';
import type { ModernVersion, ProtocolEra } from './era/modern.js';
import { probeServer } from './era/negotiate.js';

/** How long the `'auto'` era probe waits, in ms: long enough for a slow server's first answer. */
const DEFAULT_ERA_PROBE_TIMEOUT = 10_000;

/** A modern server found by the probe: the revision to speak and what `server/discover` said. */
export interface ModernFound {
  readonly version: ModernVersion;
  readonly result: InitializeResult;
}

/**
 * Sends `server/discover` and says whether the server is a modern one (see `era/negotiate.ts`).
 * A legacy server under `protocolEra: '2026'`, or a modern one sharing no revision, closes the
 * connection with the error. `discoverParams` gives the request's params under a version.
 */
export async function probeEra(
  connection: Connection,
  era: ProtocolEra,
  probeTimeout: number | undefined,
  options: OutgoingRequestOptions,
  discoverParams: (version: ModernVersion) => Record<string, unknown>,
): Promise<ModernFound | undefined> {
  // Within the handshake's own limit (`options.timeout`), which the probe shares with `initialize`.
  const probe = probeTimeout ?? DEFAULT_ERA_PROBE_TIMEOUT;
  const timeout = era === 'auto' ? Math.min(probe, options.timeout ?? probe) : undefined;
  const sendOptions = { resetTimeoutOnProgress: false, ...options, ...(timeout ? { timeout } : {}) };
  try {
    const outcome = await probeServer((version) =>
      connection.request('server/discover', discoverParams(version), sendOptions),
    );
    if (outcome.era === 'modern') return outcome;
    if (era === 'auto') return undefined;
    const cause = outcome.cause instanceof Error ? outcome.cause.message : String(outcome.cause);
    throw new LocalError(
      `The server does not speak 2026-07-28, which protocolEra "2026" requires (server/discover: ${cause})`,
      outcome.cause,
    );
  } catch (error) {
    await connection.close().catch(() => {});
    throw error;
  }
}

/** Who the client is in `initialize`, and the revisions it accepts (newest first). */
export interface InitializeIdentity {
  readonly protocolVersions: readonly ProtocolVersion[];
  readonly capabilities: ClientCapabilities;
  readonly info: Implementation;
}

/**
 * Sends `initialize` and checks the revision the server chose; one this client does not accept
 * closes the connection with an {@link UnsupportedProtocolVersionError}. The caller settles on
 * the revision, then sends `notifications/initialized`.
 */
export async function requestInitialize(
  connection: Connection,
  client: InitializeIdentity,
  options: OutgoingRequestOptions,
): Promise<{ result: InitializeResult; version: ProtocolVersion }> {
  // Encode with the codec of the version we propose, so an older server never sees fields
  // (icons, task capabilities...) its revision lacks.
  const proposed = client.protocolVersions[0] ?? LATEST_PROTOCOL_VERSION;
  const params = codecFor(proposed).encodeParams(Method.Initialize, {
    protocolVersion: proposed,
    capabilities: client.capabilities,
    clientInfo: client.info,
  });
  const result = await connection.request<InitializeResult>(
    Method.Initialize,
    params === NOT_IN_REVISION ? undefined : params,
    { resetTimeoutOnProgress: false, ...options },
  );
  const version = result?.protocolVersion;
  if (!isSupportedProtocolVersion(version) || !client.protocolVersions.includes(version)) {
    await connection.close().catch(() => {});
    throw new UnsupportedProtocolVersionError(version, client.protocolVersions);
  }
  return { result, version };
}
