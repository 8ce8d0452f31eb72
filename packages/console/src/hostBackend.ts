/**
 * The console against a host: every server of a config file in one `McpHost`, its namespaced
 * catalogue, each server's state, and its policy at work. Consent to a tool call, sampling and
 * elicitation are asked of the person on the page; every audit event (the host's policy
 * decisions) and every message to and from each server is shown.
 * @module
 */
import type { AuthProvider } from '@mcpkit/client/http';
import type { CompleteRequestParams, Root } from '@mcpkit/core';
import {
  type ConsentDecision,
  McpHost,
  type ServerEntry,
  type ServerPolicy,
  type ServerState,
  type StateChange,
} from '@mcpkit/host';
import { nodeConnector } from '@mcpkit/host/node';
import { elicit, PERSON_MODEL, sample } from './answers.js';
import type { ConsoleBackend, ConsoleState } from './backend.js';
import { CONSOLE_INFO } from './consoleClient.js';
import type { EventHub } from './eventHub.js';
import { LoggedTransport } from './protocolLog.js';
import type { Questions } from './questions.js';
import { followTask } from './taskCall.js';

/** The consent answers the page may give for one tool call. */
const DECISIONS: ReadonlySet<string> = new Set(['once', 'session', 'deny']);

/**
 * Every server of a config file behind one host.
 *
 * @example
 * ```ts
 * const backend = new HostBackend(await loadHostConfig('mcp.json'), {}, '--config mcp.json', hub, questions);
 * await backend.reconnect('auto');
 * ```
 */
export class HostBackend implements ConsoleBackend {
  readonly #host: McpHost;
  readonly #subscriptions = new Map<string, () => Promise<void>>();
  /** Servers that were ready once: starting again is a restart. */
  readonly #wasReady = new Set<string>();
  /** Why each server last left `ready` (a crash's cause, or a restart asked from the page). */
  readonly #reasons = new Map<string, string>();
  /** Restarts asked from the page, while each runs: the state change it causes says so. */
  readonly #asked = new Set<string>();
  /** The roots the person chose: the host's own, which each server sees (within any it is configured with). */
  #roots: readonly Root[] = [];

  constructor(
    servers: readonly ServerEntry[],
    policy: Readonly<Record<string, ServerPolicy>>,
    private readonly target: string,
    private readonly hub: EventHub,
    private readonly questions: Questions,
    authProvider?: (entry: ServerEntry & { kind: 'url' }) => AuthProvider | undefined,
  ) {
    const connector = nodeConnector(authProvider ? { authProvider } : {});
    this.#host = new McpHost({
      servers,
      policy,
      info: CONSOLE_INFO,
      eager: true,
      // Host roots from the start, so every server is offered roots; none until the person adds some.
      roots: [],
      // The page renders MCP Apps, so the servers list their views and app-only tools.
      apps: true,
      connector: async (entry) =>
        new LoggedTransport(await connector(entry), (line) => hub.emit('log', line), entry.name),
      models: [PERSON_MODEL],
      model: ({ server, params, signal }) => sample(this.questions, params, signal, server),
      hooks: {
        toolCall: async (request) => {
          const answer = (await this.questions.ask('toolConsent', request, undefined, request.server)) as {
            decision?: unknown;
          } | null;
          const decision = typeof answer?.decision === 'string' ? answer.decision : 'deny';
          return (DECISIONS.has(decision) ? decision : 'deny') as ConsentDecision;
        },
        // The sampling question itself is where the person consents (or rejects).
        sampling: () => 'once',
        elicitation: ({ server, mode, params, signal }) =>
          elicit(this.questions, mode === 'url' ? 'elicitationUrl' : 'elicitation', params, signal, server),
      },
      audit: (event) => hub.emit('audit', event),
    });
    this.#host.onStateChange((change) => this.#changed(change));
    this.#host.onListChanged((change) => hub.emit('listChanged', change));
    this.#host.onLog((server, message) => hub.emit('serverLog', { ...message, server }));
  }

  state(): ConsoleState {
    const servers = this.#host.status().map(({ server, state, restarts, lastError }) => {
      const shown = this.#shown(server, state);
      const reason = lastError ?? (shown === 'restarting' ? this.#reasons.get(server) : undefined);
      return { server, state: shown, restarts, ...(reason ? { lastError: reason } : {}) };
    });
    return {
      mode: 'host',
      target: this.target,
      pinned: 'auto',
      connected: servers.some((server) => server.state === 'ready' || server.state === 'degraded'),
      roots: this.#roots,
      servers,
    };
  }

  async reconnect(): Promise<void> {
    await this.#host.start().catch(() => {}); // each server's failure is its state, shown on the page
    this.hub.emit('state', this.state());
  }

  /** Replaces the host's roots; each running server whose view changed is told (`roots/list_changed`). */
  async setRoots(roots: readonly Root[]): Promise<void> {
    this.#roots = roots;
    await this.#host.setHostRoots(roots);
    this.hub.emit('state', this.state());
  }

  /**
   * Restarts one server on purpose (`McpHost.restart`): its state goes restarting, then ready
   * (or failed, with the reason), as the page's state changes show.
   */
  async restartServer(server: string): Promise<void> {
    this.#asked.add(server);
    try {
      await this.#host.restart(server);
    } finally {
      this.#asked.delete(server);
    }
  }

  /** A server's state as the page names it: `starting` again after it was ready is `restarting`. */
  #shown(server: string, state: ServerState): string {
    return state === 'starting' && this.#wasReady.has(server) ? 'restarting' : state;
  }

  /** One state change: remembered (why it left ready), shown in the page's history and header. */
  #changed({ server, state, previous, error, startMs }: StateChange): void {
    const asked = state === 'starting' && this.#asked.has(server);
    const reason = error?.message ?? (asked ? 'restart asked in the console' : undefined);
    if (state === 'starting' && this.#wasReady.has(server))
      this.#reasons.set(server, reason ?? 'the connection closed');
    const shownPrevious = this.#shown(server, previous);
    const shown = this.#shown(server, state);
    if (state === 'ready') {
      this.#wasReady.add(server);
      this.#reasons.delete(server);
    }
    this.hub.emit('serverState', {
      time: Date.now(),
      server,
      previous: shownPrevious,
      state: shown,
      ...(reason ? { reason } : {}),
      ...(startMs === undefined ? {} : { startMs }),
    });
    this.hub.emit('state', this.state());
  }

  listTools() {
    return this.#host.tools();
  }
  listResources() {
    return this.#host.resources();
  }
  listTemplates() {
    return this.#host.resourceTemplates();
  }
  listPrompts() {
    return this.#host.prompts();
  }
  callTool(name: string, args: Record<string, unknown>, options: Parameters<ConsoleBackend['callTool']>[2]) {
    const { onTaskStatus } = options;
    if (!onTaskStatus) return this.#host.callTool(name, args, options);
    // Cancelled by the person: the status its server then reports is the last one shown.
    return followTask(
      { ...options, onTaskStatus },
      (onStatus) => this.#host.callTool(name, args, { ...options, onTaskStatus: onStatus }),
      async () => {
        const server = (await this.#host.tools()).find((tool) => tool.name === name)?.server;
        return server === undefined ? undefined : this.#host.client(server);
      },
    );
  }
  readResource(uri: string) {
    return this.#host.readResource(uri);
  }
  async subscribe(uri: string): Promise<void> {
    if (this.#subscriptions.has(uri)) return;
    const stop = await this.#host.subscribe(uri, (updated) =>
      this.hub.emit('resourceUpdated', { uri: updated }),
    );
    this.#subscriptions.set(uri, stop);
  }
  async unsubscribe(uri: string): Promise<void> {
    const stop = this.#subscriptions.get(uri);
    this.#subscriptions.delete(uri);
    await stop?.();
  }
  getPrompt(name: string, args: Record<string, string>) {
    return this.#host.getPrompt(name, args);
  }
  complete(params: CompleteRequestParams) {
    return this.#host.complete(params);
  }
  async ping(): Promise<void> {
    await Promise.all(
      this.#host
        .status()
        .filter((server) => server.state === 'ready')
        .map(async ({ server }) => (await this.#host.client(server)).ping()),
    );
  }
  async close(): Promise<void> {
    await this.#host.close();
  }
}
