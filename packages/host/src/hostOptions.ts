/**
 * The options of `McpHost`, and the events it reports that are not a server's state.
 * @module
 */
import type { KeepAliveOptions, ProtocolEra, RestartOptions } from '@mcpkit/client';
import type { Implementation, Root } from '@mcpkit/core';
import type { NameCollision } from './catalogue/catalogue.js';
import type { Naming } from './catalogue/names.js';
import type { ServerEntry } from './config.js';
import type { Connector } from './connection/connector.js';
import type { StateChange } from './connection/upstream.js';
import type {
  AuditContext,
  AuditEvent,
  ConsentStore,
  HostHooks,
  ModelCallback,
  ModelChooser,
  ServerPolicy,
} from './policy/types.js';

/**
 * Options of {@link McpHost}.
 *
 * @example
 * ```ts
 * const options: McpHostOptions = { servers, connector: nodeConnector(), policy: { files: { readOnly: true } } };
 * ```
 */
export interface McpHostOptions {
  /** The servers, e.g. from `loadHostConfig`. Entries marked `disabled` are never started. */
  servers: readonly ServerEntry[];
  /** Turns an entry into a transport. Default: HTTP only; use `nodeConnector()` for stdio. */
  connector?: Connector;
  /** How the host introduces itself to every server. */
  info?: Implementation;
  /**
   * How long (ms) a listing (`tools()`, `tools/list` through a gateway) waits for a server that is
   * starting or restarting, counted from when its start began. A server not ready by then is left
   * out of that listing (its state is `starting`, or `failed` with the reason); when it is ready,
   * {@link McpHost.onListChanged} fires for each list it offers, so a gateway sends
   * `notifications/tools/list_changed` and the like. A call by name still waits for it. A config
   * entry's `startBudget` (seconds) overrides it per server. Default 3000; `Infinity` waits for
   * every server as before.
   */
  startBudgetMs?: number;
  /** Start every server in `start()`; otherwise each starts on first use. Default false. */
  eager?: boolean;
  /** Namespacing: mode (default `onCollision`), separator (default `__`). */
  naming?: { mode?: Naming['mode']; separator?: string };
  /** Rules per server key. */
  policy?: Readonly<Record<string, ServerPolicy>>;
  hooks?: HostHooks;
  /** The host's one model; without it servers are not offered sampling. */
  model?: ModelCallback;
  /** The models `model` can run, best first (matched against `modelPreferences.hints`). */
  models?: readonly string[];
  /**
   * Picks the model for a sampling request from the allowed `models`. Default: the first whose
   * name contains a hint (`modelPreferences.hints`, in order), else the first allowed.
   */
  chooseModel?: ModelChooser;
  /**
   * Declare `sampling.tools` to servers: `model` understands a request's `tools` and
   * `toolChoice` and may answer with `tool_use` blocks. Default false.
   */
  samplingTools?: boolean;
  /** Keeps `always`/`never` decisions; without it they last for this host's lifetime. */
  consentStore?: ConsentStore;
  /**
   * The host's own roots (the folders open in an IDE): each server then sees their intersection
   * with its `policy.roots` (all of them when it has none), and {@link McpHost.setHostRoots}
   * tells only the servers whose view changed. Pass `[]` to start with none but change them later.
   */
  roots?: readonly Root[];
  /**
   * Receives one event per call, read, prompt, completion, sampling and elicitation, and what it
   * was made on behalf of (a gateway names the downstream session by it).
   */
  audit?: (event: AuditEvent, context: AuditContext) => void;
  /**
   * Arguments in audit events: in full (`true`), as `sha256:HEX` of their JSON (`'sha256'`: equal
   * calls match, values stay out; a short secret can still be guessed from its hash), or
   * `'[redacted]'` (default).
   */
  auditArguments?: boolean | 'sha256';
  /**
   * The longest (ms) a request to a server may run, however much progress it reports: each
   * progress notification resets a call's timeout (the entry's `timeout`), so a server that
   * floods progress would otherwise hold a call, and a gateway's caller, until this ends it with
   * a `RequestTimeoutError` (and `notifications/cancelled` upstream). Default 10 minutes
   * (`DEFAULT_CLIENT_MAX_TOTAL_TIMEOUT`); a call's own `maxTotalTimeout` overrides it. Longer work
   * belongs in a task.
   */
  maxTotalTimeout?: number;
  restart?: RestartOptions;
  keepAlive?: KeepAliveOptions;
  /**
   * The revision spoken to URL (HTTP) upstreams: `'2025'` (default, 2025-11-25 and older),
   * `'2026'` (2026-07-28) or `'auto'` (2026-07-28 when the server offers it). stdio upstreams
   * always speak 2025. Under 2026 an upstream's questions arrive as input-required results, which
   * the client answers through the same hooks; `resources/subscribe` does not exist there.
   */
  protocolEra?: ProtocolEra;
  /**
   * Declare MCP Apps (`io.modelcontextprotocol/ui`) to every server: servers then list their
   * tools' app links (`_meta.ui`), their app-only tools and their `ui://` views. `tools()` then
   * includes tools only a view may call: read `appLinkOf(tool).visibility` (or use
   * `host.modelTools()`) before giving tools to a model. Default false.
   */
  apps?: boolean;
  /**
   * Told of every state change of any server, from the first (as {@link McpHost.onStateChange},
   * but also for the hosts a gateway makes: per session, lanes, 2026 pool hosts).
   */
  onStateChange?: (change: StateChange) => void;
  /** Told when two items still share a name after namespacing; both get a `_HASH` suffix. */
  onNameCollision?: (collision: NameCollision) => void;
}

/**
 * A `list_changed` from one server; the catalogue's next listing includes the change.
 *
 * @example
 * ```ts
 * host.onListChanged(({ server, kind }) => console.log(`${server} changed its ${kind}`));
 * ```
 */
export interface ListChange {
  readonly server: string;
  readonly kind: 'tools' | 'prompts' | 'resources';
}

/** The lists a server can say changed. */
export const LIST_KINDS = ['tools', 'prompts', 'resources'] as const;
