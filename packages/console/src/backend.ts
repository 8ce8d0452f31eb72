/**
 * What the console's API drives: one server through an `McpClient`, or every server of a config
 * file through an `McpHost`. Both answer the same operations; a host's items name their server.
 * @module
 */
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  ProgressUpdate,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  Task,
  Tool,
} from '@mcpkit/core';

/**
 * The revisions a person can pin: `auto` lets the client negotiate (2026-07-28 when the server
 * offers it), the others insist on one era.
 *
 * @example
 * ```ts
 * const era: PinnedEra = '2025';
 * ```
 */
export type PinnedEra = 'auto' | '2026' | '2025';

/**
 * One of a host's servers, as the page shows it.
 *
 * @example
 * ```ts
 * const server: HostServerState = { server: 'files', state: 'failed', restarts: 2, lastError: 'exited with code 1' };
 * ```
 */
export interface HostServerState {
  readonly server: string;
  readonly state: string;
  readonly restarts: number;
  readonly lastError?: string;
}

/**
 * What the page shows in its header: whom it talks to and what was negotiated.
 *
 * @example
 * ```ts
 * const state: ConsoleState = { mode: 'server', target: 'http://127.0.0.1:3000/mcp', pinned: 'auto', connected: true };
 * ```
 */
export interface ConsoleState {
  readonly mode: 'server' | 'host';
  /** The target as `mcpkit` takes it on the command line: a URL, `-- command …` or `--config FILE`. */
  readonly target: string;
  readonly pinned: PinnedEra;
  readonly connected: boolean;
  /** Why connecting failed, when it did. */
  readonly error?: string;
  readonly serverInfo?: Implementation;
  readonly protocolVersion?: string;
  readonly capabilities?: ServerCapabilities;
  readonly instructions?: string;
  /** The roots the person chose (against a host: the host's, which every server sees). */
  readonly roots?: readonly Root[];
  /** Against a host: every server and its state. */
  readonly servers?: readonly HostServerState[];
}

/**
 * A listed item; against a host it names its server and its name there.
 *
 * @example
 * ```ts
 * const tool: Listed<Tool> = { name: 'a__echo', inputSchema: { type: 'object' }, server: 'a', original: 'echo' };
 * ```
 */
export type Listed<T> = T & { readonly server?: string; readonly original?: string };

/**
 * What the console lists.
 *
 * @example
 * ```ts
 * const kind: ConsoleListKind = 'templates';
 * ```
 */
export type ConsoleListKind = 'tools' | 'resources' | 'templates' | 'prompts';

/**
 * One page of a list, as the server sent it.
 *
 * @example
 * ```ts
 * const page: ListPage = { items: [], nextCursor: 'abc' };
 * ```
 */
export interface ListPage {
  readonly items: readonly unknown[];
  readonly nextCursor?: string;
}

/**
 * The operations of the console's API, over a client or a host.
 *
 * @example
 * ```ts
 * const tools = await backend.listTools();
 * ```
 */
export interface ConsoleBackend {
  state(): ConsoleState;
  listTools(): Promise<Listed<Tool>[]>;
  listResources(): Promise<Listed<Resource>[]>;
  listTemplates(): Promise<Listed<ResourceTemplate>[]>;
  listPrompts(): Promise<Listed<Prompt>[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: {
      onProgress: (update: ProgressUpdate) => void;
      signal: AbortSignal;
      /** Run the tool as a task (it supports tasks) and report each status the client sees. */
      onTaskStatus?: (task: Task) => void;
    },
  ): Promise<CallToolResult>;
  readResource(uri: string): Promise<ReadResourceResult>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  complete(params: CompleteRequestParams): Promise<CompleteResult>;
  ping(): Promise<void>;
  /** One page of a list, from `cursor` (one server only: a host's catalogue is one list). */
  listPage?(kind: ConsoleListKind, cursor: string | undefined): Promise<ListPage>;
  /** Replaces the roots the server sees (against a host: every server) and tells it. */
  setRoots?(roots: readonly Root[]): Promise<void>;
  /** The same tool call on 2025-11-25 and on 2026-07-28 (one server only). */
  compareTool?(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** The same request (a read, a prompt, a list…) on 2025-11-25 and on 2026-07-28 (one server only). */
  compare?(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** Restarts one of a host's servers (`McpHost.restart`; a host only). */
  restartServer?(server: string): Promise<void>;
  /** Connects again speaking `era` (one server only). */
  reconnect(era: PinnedEra): Promise<void>;
  close(): Promise<void>;
}

/** The header fields of a connected client. */
export function negotiated(result: InitializeResult | undefined, protocolVersion: string | undefined) {
  return {
    ...(result ? { serverInfo: result.serverInfo, capabilities: result.capabilities } : {}),
    ...(result?.instructions ? { instructions: result.instructions } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
  };
}
