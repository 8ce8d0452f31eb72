/**
 * Both revisions side by side: the same request (a tool call, a read, a prompt, a list) made over a 2025-11-25 connection and a
 * 2026-07-28 one to the same server (a second and third connection, made when first asked for:
 * for a stdio server, the command the person typed, started again), each answer shown with the
 * revision that produced it.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import type { Root, Transport } from '@mcpkit/core';
import { McpError } from '@mcpkit/core';
import { consoleClient } from './consoleClient.js';
import type { EventHub } from './eventHub.js';
import { LoggedTransport } from './protocolLog.js';
import type { Questions } from './questions.js';
import { clientExchange } from './replay/clientExchange.js';

/** The two revisions compared, by the era that speaks each. */
const ERAS = ['2025', '2026'] as const;

/**
 * What one revision answered.
 *
 * @example
 * ```ts
 * const side: RevisionOutcome = { era: '2025', protocolVersion: '2025-11-25', result: { content: [] } };
 * ```
 */
export interface RevisionOutcome {
  readonly era: '2025' | '2026';
  readonly protocolVersion?: string;
  readonly result?: unknown;
  readonly error?: { readonly message: string; readonly code?: number };
}

/**
 * The connections of a comparison, one per revision, each in the protocol log under its revision.
 *
 * @example
 * ```ts
 * const comparison = new EraComparison(transport, hub, questions, () => []);
 * const [older, newer] = await comparison.callTool('echo', { text: 'hi' });
 * const lists = await comparison.request('tools/list', {});
 * ```
 */
export class EraComparison {
  readonly #clients = new Map<'2025' | '2026', Promise<McpClient>>();

  constructor(
    private readonly transport: () => Transport,
    private readonly hub: EventHub,
    private readonly questions: Questions,
    private readonly roots: () => readonly Root[],
  ) {}

  /** Calls the tool on both revisions at once. */
  callTool(name: string, args: Record<string, unknown>): Promise<RevisionOutcome[]> {
    return this.request('tools/call', { name, arguments: args });
  }

  /**
   * Sends the same request on both revisions at once: a tool call, a read, a prompt or a list
   * (every page), as a recorded session's exchange is sent.
   */
  request(method: string, params: Record<string, unknown>): Promise<RevisionOutcome[]> {
    return Promise.all(
      ERAS.map(async (era): Promise<RevisionOutcome> => {
        let client: McpClient | undefined;
        try {
          client = await this.#client(era);
          const result = await clientExchange(client)(method, params);
          return { era, protocolVersion: client.protocolVersion, result };
        } catch (error) {
          return {
            era,
            ...(client?.protocolVersion ? { protocolVersion: client.protocolVersion } : {}),
            error:
              error instanceof McpError
                ? { message: error.message, code: error.code }
                : { message: error instanceof Error ? error.message : String(error) },
          };
        }
      }),
    );
  }

  /** Closes both connections. */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map(async (client) => (await client.catch(() => undefined))?.close()));
  }

  #client(era: '2025' | '2026'): Promise<McpClient> {
    let client = this.#clients.get(era);
    if (!client) {
      client = this.#connect(era);
      this.#clients.set(era, client);
      // A revision the server does not speak is tried again on the next comparison.
      client.catch(() => this.#clients.delete(era));
    }
    return client;
  }

  async #connect(era: '2025' | '2026'): Promise<McpClient> {
    const client = consoleClient(era, this.questions, this.roots);
    const label = `revision ${era}`;
    try {
      await client.connect(
        new LoggedTransport(this.transport(), (entry) => this.hub.emit('log', entry), label),
      );
      return client;
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
  }
}
