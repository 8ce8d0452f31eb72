/**
 * The console against one server: an `McpClient` whose sampling and elicitation are answered by
 * the person on the page, whose every message goes to the protocol log, and whose notifications
 * (resource updates, list changes, log messages) become events.
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import type { CompleteRequestParams, Root, Transport } from '@mcpkit/core';
import {
  type ConsoleBackend,
  type ConsoleListKind,
  type ConsoleState,
  type ListPage,
  negotiated,
  type PinnedEra,
} from './backend.js';
import { consoleClient } from './consoleClient.js';
import { EraComparison } from './eraComparison.js';
import type { EventHub } from './eventHub.js';
import { LoggedTransport } from './protocolLog.js';
import type { Questions } from './questions.js';
import { callAsTask } from './taskCall.js';

/**
 * One server, reached through a fresh transport on each (re)connection.
 *
 * @example
 * ```ts
 * const backend = new ServerBackend(() => new StdioClientTransport({ command: 'node', args: ['server.js'] }), 'node server.js', hub, questions);
 * await backend.reconnect('auto');
 * ```
 */
export class ServerBackend implements ConsoleBackend {
  #client: McpClient | undefined;
  #pinned: PinnedEra = 'auto';
  #error: string | undefined;
  #comparison: EraComparison | undefined;
  /** The roots the person chose; every connection reads them when its server asks. */
  #roots: readonly Root[] = [];
  /**
   * Counts connections: only the newest one may set the client and the error (a connection waiting
   * for a login on the page can end after the person asked for another).
   */
  #attempt = 0;

  constructor(
    private readonly transport: () => Transport,
    private readonly target: string,
    private readonly hub: EventHub,
    private readonly questions: Questions,
  ) {}

  state(): ConsoleState {
    const client = this.#client;
    return {
      mode: 'server',
      target: this.target,
      pinned: this.#pinned,
      connected: client?.serverResult !== undefined,
      roots: this.#roots,
      ...(this.#error ? { error: this.#error } : {}),
      ...negotiated(client?.serverResult, client?.protocolVersion),
    };
  }

  async reconnect(era: PinnedEra): Promise<void> {
    const attempt = ++this.#attempt;
    const previous = this.#client;
    this.#client = undefined;
    await previous?.close().catch(() => {});
    this.#pinned = era;
    this.#error = undefined;
    const client = this.#create(era);
    try {
      await client.connect(new LoggedTransport(this.transport(), (entry) => this.hub.emit('log', entry)));
      if (attempt !== this.#attempt) throw new Error('Replaced by a newer connection');
      this.#client = client;
      if (client.serverCapabilities?.logging) await client.setLoggingLevel('debug').catch(() => {});
    } catch (error) {
      if (attempt === this.#attempt) this.#error = error instanceof Error ? error.message : String(error);
      await client.close().catch(() => {});
    } finally {
      if (attempt === this.#attempt) this.hub.emit('state', this.state());
    }
  }

  #create(era: PinnedEra): McpClient {
    const client = consoleClient(era, this.questions, () => this.#roots);
    client.onResourceUpdated((uri) => this.hub.emit('resourceUpdated', { uri }));
    for (const kind of ['tools', 'resources', 'prompts'] as const) {
      client.onListChanged(kind, () => this.hub.emit('listChanged', { kind }));
    }
    client.onLog((message) => this.hub.emit('serverLog', message));
    return client;
  }

  #ready(): McpClient {
    if (!this.#client) throw new Error(this.#error ?? 'Not connected');
    return this.#client;
  }

  listTools() {
    return this.#ready().tools();
  }
  listResources() {
    return this.#ready().resources();
  }
  listTemplates() {
    return this.#ready().resourceTemplates();
  }
  listPrompts() {
    return this.#ready().prompts();
  }
  async listPage(kind: ConsoleListKind, cursor: string | undefined): Promise<ListPage> {
    const client = this.#ready();
    let items: readonly unknown[];
    let nextCursor: string | undefined;
    switch (kind) {
      case 'tools':
        ({ tools: items, nextCursor } = await client.listTools(cursor));
        break;
      case 'resources':
        ({ resources: items, nextCursor } = await client.listResources(cursor));
        break;
      case 'templates':
        ({ resourceTemplates: items, nextCursor } = await client.listResourceTemplates(cursor));
        break;
      case 'prompts':
        ({ prompts: items, nextCursor } = await client.listPrompts(cursor));
        break;
    }
    return nextCursor ? { items, nextCursor } : { items };
  }
  callTool(name: string, args: Record<string, unknown>, options: Parameters<ConsoleBackend['callTool']>[2]) {
    const { onTaskStatus, ...request } = options;
    if (onTaskStatus) return callAsTask(this.#ready(), name, args, { ...request, onTaskStatus });
    return this.#ready().callTool(name, args, request);
  }
  readResource(uri: string) {
    return this.#ready().readResource(uri);
  }
  subscribe(uri: string) {
    return this.#ready().subscribeResource(uri);
  }
  unsubscribe(uri: string) {
    return this.#ready().unsubscribeResource(uri);
  }
  getPrompt(name: string, args: Record<string, string>) {
    return this.#ready().getPrompt(name, args);
  }
  complete(params: CompleteRequestParams) {
    return this.#ready().complete(params);
  }
  ping() {
    return this.#ready().ping();
  }
  async setRoots(roots: readonly Root[]): Promise<void> {
    this.#roots = roots;
    // Tells the server its roots changed (the source stays the function reading them).
    await this.#client?.setRoots(() => this.#roots);
    this.hub.emit('state', this.state());
  }
  compareTool(name: string, args: Record<string, unknown>) {
    return this.#compared().callTool(name, args);
  }
  compare(method: string, params: Record<string, unknown>) {
    return this.#compared().request(method, params);
  }
  #compared(): EraComparison {
    this.#comparison ??= new EraComparison(this.transport, this.hub, this.questions, () => this.#roots);
    return this.#comparison;
  }
  async close(): Promise<void> {
    this.#attempt++; // a connection still under way ends unused
    await this.#client?.close().catch(() => {});
    this.#client = undefined;
    await this.#comparison?.close();
  }
}
