/**
 * What the agent adapters need of a host (`McpHost` is one): its tools, word of their changes,
 * and calls routed through it.
 * @module
 */
import type { CallToolResult, Tool } from '@mcpkit/core';
import type { HostEntry } from '../catalogue/catalogue.js';
import type { ListChange } from '../hostOptions.js';
import type { HostCallOptions } from '../toolCall.js';

/**
 * A host's tool listing and its changes.
 *
 * @example
 * ```ts
 * const source: ToolSource = host;
 * ```
 */
export interface ToolSource {
  tools(): Promise<HostEntry<Tool>[]>;
  onListChanged(listener: (change: ListChange) => void): () => void;
}

/**
 * A host the adapters' tools can call: {@link ToolSource} plus `callTool`.
 *
 * @example
 * ```ts
 * import { McpHost } from '@mcpkit/host';
 * const toolHost: ToolHost = new McpHost({ servers });
 * ```
 */
export interface ToolHost extends ToolSource {
  callTool(name: string, args?: Record<string, unknown>, options?: HostCallOptions): Promise<CallToolResult>;
}
