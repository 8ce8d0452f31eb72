/**
 * What the bridge talks to and what it tells a view: the server a view belongs to, the host's
 * callbacks for the view's requests to the host, and the host context of `ui/initialize`.
 * @module
 */
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ReadResourceResult,
  Tool,
} from '@mcpkit/core';
import type { DownloadContent } from './wireParams.js';

/**
 * The one server a view belongs to: the bridge proxies the view's `tools/call`, `tools/list` and
 * `resources/read` here and nowhere else, so a view never reaches another server's tools.
 *
 * @example
 * ```ts
 * const server: AppServer = {
 *   listTools: () => client.tools(),
 *   callTool: (name, args) => client.callTool(name, args),
 *   readResource: (uri) => client.readResource(uri),
 * };
 * ```
 */
export interface AppServer {
  /** Every tool of the server, with its `_meta` (the bridge reads `_meta.ui.visibility`). */
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  readResource(uri: string): Promise<ReadResourceResult>;
}

/**
 * A client the bridge can use as an {@link AppServer} as it is: `McpClient` of `@mcpkit/client`
 * connected to the view's server (declaring the extension), or any object with these methods.
 *
 * @example
 * ```ts
 * const client: AppClient = new McpClient({ name: 'host', version: '1.0.0' }, { capabilities: APPS_CLIENT_CAPABILITIES });
 * ```
 */
export interface AppClient {
  tools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  readResource(uri: string): Promise<ReadResourceResult>;
}

/**
 * The host's answers to what a view asks of it. Each one absent is refused with a clear error
 * (and not announced in `hostCapabilities`).
 *
 * @example
 * ```ts
 * const callbacks: HostCallbacks = { openLink: (url) => void window.open(url, '_blank', 'noopener') };
 * ```
 */
export interface HostCallbacks {
  /** `ui/open-link` with an `http:`/`https:` URL (others are refused before this runs). */
  openLink?(url: string): void | Promise<void>;
  /**
   * `ui/message`: content blocks for the conversation (a single block the view sent comes as a
   * list of one). Return `false` to decline: the view gets `-32000` "Message sending denied".
   */
  message?(params: { role: string; content: unknown[] }): void | boolean | Promise<void | boolean>;
  /**
   * `ui/update-model-context`: replaces what the view told the model before. Return `false` to
   * decline: the view gets `-32000` "Context update denied".
   */
  updateModelContext?(params: {
    content?: unknown[];
    structuredContent?: Record<string, unknown>;
  }): void | boolean | Promise<void | boolean>;
  /**
   * `ui/request-display-mode` for a mode the host offers (`displayModes` of `mount`) and the view
   * declared (if it declared any): lay the view out in it and return the mode switched to (the
   * current one to decline). The bridge then sizes the frame and tells the view.
   */
  requestDisplayMode?(mode: DisplayMode): DisplayMode | Promise<DisplayMode>;
  /**
   * `ui/download-file`: the files the view offers, checked (embedded resources with `text` or a
   * base64 `blob`, or `resource_link`s; at most 16). Ask the person first (the spec: SHOULD).
   * Return `false` to decline: the view gets `-32000` "Download denied by user". Absent, every
   * download is refused and `downloadFile` is not announced.
   */
  downloadFile?(params: { contents: DownloadContent[] }): void | boolean | Promise<void | boolean>;
  /**
   * `sampling/createMessage` from the view (the host's model, its consent and limits), after a
   * check of its messages and `maxTokens`. Throw an error with a `code` (e.g. `-1`, "User rejected
   * sampling request") to refuse: the view gets that code and message. Absent, refused.
   */
  sample?(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  /**
   * `notifications/tools/list_changed` from a view that offers tools (`appCapabilities.tools`):
   * list them again with `handle.listViewTools()`.
   */
  viewToolsChanged?(): void;
  /** A log line (`ui/log`, or `notifications/message` from 1.x views). */
  log?(params: { level?: string; data?: unknown; logger?: string }): void;
  /** After the frame was resized for `ui/notifications/size-changed`. */
  sizeChanged?(size: { width?: number; height?: number }): void;
  /** `ui/notifications/request-teardown`: the view asks to be closed (call `handle.teardown()` to agree). */
  requestTeardown?(): void;
}

/**
 * How a view is shown.
 *
 * @example
 * ```ts
 * const mode: DisplayMode = 'inline';
 * ```
 */
export type DisplayMode = 'inline' | 'fullscreen' | 'pip';

/**
 * The host context a view gets in `ui/initialize` (and in `ui/notifications/host-context-changed`).
 *
 * @example
 * ```ts
 * const context: HostContext = { theme: 'dark', displayMode: 'inline', containerDimensions: { maxHeight: 600 }, locale: 'en-GB' };
 * ```
 */
export interface HostContext {
  toolInfo?: { id?: string | number; tool: Tool };
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: DisplayMode;
  availableDisplayModes?: DisplayMode[];
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  [key: string]: unknown;
}
