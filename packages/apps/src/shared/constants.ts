/**
 * The names MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865, stable revision 2026-01-26) puts on
 * the wire: the extension's identifier, the resource MIME type, and the postMessage methods.
 * @module
 */

/**
 * The extension's identifier, the key under `capabilities.extensions` on both sides.
 *
 * @example
 * ```ts
 * const capabilities = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
 * ```
 */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * The MIME type of an app's HTML resource.
 *
 * @example
 * ```ts
 * server.resource('ui://clock/view', { mimeType: APP_MIME_TYPE }, () => '<!doctype html><p>clock</p>');
 * ```
 */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The revision of the view↔host protocol this package speaks (`protocolVersion` of `ui/initialize`).
 *
 * @example
 * ```ts
 * APP_PROTOCOL_VERSION; // '2026-01-26'
 * ```
 */
export const APP_PROTOCOL_VERSION = '2026-01-26';

/**
 * The view↔host methods of the extension (the standard MCP ones a view may send as well:
 * `tools/call`, `tools/list`, `resources/read`, `sampling/createMessage`, `ping`).
 *
 * @example
 * ```ts
 * declare const frame: HTMLIFrameElement;
 * declare const result: CallToolResult;
 * frame.contentWindow?.postMessage({ jsonrpc: '2.0', method: UiMethod.ToolResult, params: result }, 'http://127.0.0.1:4100');
 * ```
 */
export const UiMethod = {
  Initialize: 'ui/initialize',
  Initialized: 'ui/notifications/initialized',
  ToolInput: 'ui/notifications/tool-input',
  ToolInputPartial: 'ui/notifications/tool-input-partial',
  ToolResult: 'ui/notifications/tool-result',
  ToolCancelled: 'ui/notifications/tool-cancelled',
  HostContextChanged: 'ui/notifications/host-context-changed',
  SizeChanged: 'ui/notifications/size-changed',
  RequestTeardown: 'ui/notifications/request-teardown',
  ResourceTeardown: 'ui/resource-teardown',
  OpenLink: 'ui/open-link',
  DownloadFile: 'ui/download-file',
  Message: 'ui/message',
  UpdateModelContext: 'ui/update-model-context',
  RequestDisplayMode: 'ui/request-display-mode',
  /** ext-apps 2.x (`BREAKING.md`): a view's log line; 1.x views send `notifications/message`. */
  Log: 'ui/log',
  SandboxProxyReady: 'ui/notifications/sandbox-proxy-ready',
  SandboxResourceReady: 'ui/notifications/sandbox-resource-ready',
} as const;

/**
 * The prefix of the messages between a host and its sandbox proxy, which the proxy never forwards.
 *
 * @example
 * ```ts
 * 'ui/notifications/sandbox-proxy-ready'.startsWith(SANDBOX_METHOD_PREFIX); // true
 * ```
 */
export const SANDBOX_METHOD_PREFIX = 'ui/notifications/sandbox-';

/**
 * The client capabilities a host declares to a server to get its apps (merge into the client's
 * `capabilities` option).
 *
 * @example
 * ```ts
 * const client = new McpClient({ name: 'host', version: '1.0.0' }, { capabilities: APPS_CLIENT_CAPABILITIES });
 * ```
 */
export const APPS_CLIENT_CAPABILITIES = {
  extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
} as const;
