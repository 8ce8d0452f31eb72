/**
 * The 2026-07-28 envelope one client puts on every request: its `_meta` entries, built once and
 * again only when the version or log level changes.
 * @module
 */
import type { ClientCapabilities, Implementation, LoggingLevel } from '@mcpkit/core';
import { envelopeEntries, type ModernVersion, modernCapabilities, withEnvelope } from './modern.js';
import { withTasksExtension } from './tasks.js';

/** What the envelope states about the client, read when the entries are (re)built. */
export interface EnvelopeClient {
  readonly capabilities: ClientCapabilities;
  readonly info: Implementation;
}

/** The envelope's `_meta` entries of one client, cached per version and log level. */
export class ClientEnvelope {
  /** The log level sent in every modern request's `_meta` (2026-07-28 has no `logging/setLevel`). */
  logLevel: LoggingLevel | undefined;
  /** The envelope's `_meta` entries for the version and log level they were built for. */
  private entries:
    | { version: ModernVersion; logLevel: LoggingLevel | undefined; meta: Readonly<Record<string, unknown>> }
    | undefined;

  constructor(private readonly client: EnvelopeClient) {}

  /**
   * `params` (with a retry's fields) under the 2026-07-28 envelope: version, capabilities, client
   * info, log level. The entries are built once and again only when the version or log level
   * changes (capabilities are fixed once connecting starts).
   */
  wrap(params: Record<string, unknown> | undefined, version: ModernVersion, retry?: Record<string, unknown>) {
    let entries = this.entries;
    if (entries?.version !== version || entries.logLevel !== this.logLevel) {
      entries = {
        version,
        logLevel: this.logLevel,
        meta: envelopeEntries({
          version,
          capabilities: withTasksExtension(modernCapabilities(this.client.capabilities)),
          clientInfo: this.client.info,
          logLevel: this.logLevel,
        }),
      };
      this.entries = entries;
    }
    return withEnvelope(params, entries.meta, retry);
  }
}
