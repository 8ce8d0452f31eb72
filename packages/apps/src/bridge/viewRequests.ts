/**
 * The bridge's answers to a view's requests, one function per method: the host's own `ui/*`
 * requests (through the host's callbacks; refused when the host has none), and the MCP requests
 * it proxies to the view's server, honouring `_meta.ui.visibility`: a view calls only tools of its
 * own server that list `"app"` (never a model-only tool; another server is out of reach).
 * @module
 */
import type { Tool } from '@mcpkit/core';
import { APP_PROTOCOL_VERSION, UI_EXTENSION, UiMethod } from '../shared/constants.js';
import { visibilityOf } from '../shared/meta.js';
import { BridgeRefusal, isRecord, RpcCode } from './rpc.js';
import type { AppServer, DisplayMode, HostCallbacks, HostContext } from './types.js';
import { downloadContents, samplingParams } from './wireParams.js';

/** What a request handler may read and change of one mounted view. */
export interface ViewState {
  readonly server: AppServer;
  readonly callbacks: HostCallbacks;
  readonly hostInfo: { name: string; version: string };
  readonly hostCapabilities: Record<string, unknown>;
  hostContext: HostContext;
  /** The display modes the view declared in `ui/initialize`, if any. */
  viewModes: DisplayMode[] | undefined;
  /** Whether the view declared `appCapabilities.tools` (it offers tools of its own to the host). */
  viewTools: boolean;
  initializeSeen: boolean;
  /** The server's tools, listed on the first proxied tool request, listed again for an unknown name. */
  tools: Tool[] | undefined;
}

type Handler = (state: ViewState, params: Record<string, unknown>) => Promise<unknown> | unknown;

/** The MCP revisions the bridge answers a view's `initialize` with, newest first. */
const MCP_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

function refuse(message: string): never {
  throw new BridgeRefusal(RpcCode.Refused, message);
}

function stringParam(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  if (typeof value !== 'string') throw new BridgeRefusal(RpcCode.InvalidParams, `${name} must be a string`);
  return value;
}

function needInitialize(state: ViewState, method: string): void {
  if (!state.initializeSeen) {
    throw new BridgeRefusal(
      RpcCode.InvalidRequest,
      `${method} before ui/initialize: initialize the view first`,
    );
  }
}

/** The tool `name` if the view may call it, after listing the server's tools (again for an unknown name). */
async function appCallable(state: ViewState, name: string): Promise<Tool> {
  let tool = state.tools?.find((candidate) => candidate.name === name);
  if (!tool) {
    state.tools = await state.server.listTools();
    tool = state.tools.find((candidate) => candidate.name === name);
  }
  if (!tool) throw new BridgeRefusal(RpcCode.InvalidParams, `Unknown tool: ${name}`);
  if (!visibilityOf(tool).includes('app')) {
    refuse(`Tool "${name}" is not callable from an app: its visibility does not include "app"`);
  }
  return tool;
}

function isDisplayMode(value: unknown): value is DisplayMode {
  return value === 'inline' || value === 'fullscreen' || value === 'pip';
}

/** Content blocks (objects with a string `type`) as a list: one block alone becomes a list of one. */
function contentBlocks(value: unknown): unknown[] | undefined {
  const blocks = Array.isArray(value) ? value : [value];
  return blocks.every((block) => isRecord(block) && typeof block.type === 'string') ? blocks : undefined;
}

/**
 * Whether the view may be shown in `mode`: the host offers it (`availableDisplayModes`) and the view
 * declared it, when it declared any (the spec: a host MUST NOT switch a view to a mode it did not declare).
 *
 * @example
 * ```ts
 * displayable(state, 'fullscreen'); // false unless the host offers fullscreen
 * ```
 */
export function displayable(state: ViewState, mode: DisplayMode): boolean {
  const current = state.hostContext.displayMode ?? 'inline';
  const hostModes = state.hostContext.availableDisplayModes ?? [current];
  return hostModes.includes(mode) && (state.viewModes === undefined || state.viewModes.includes(mode));
}

function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BridgeRefusal(RpcCode.InvalidParams, 'Invalid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    refuse(`Links to ${url.protocol} URLs are not opened`);
  return url.href;
}

/**
 * The handlers of the requests a view may send, by method.
 *
 * @example
 * ```ts
 * const result = await VIEW_REQUESTS['ping']?.(state, {}); // {}
 * ```
 */
export const VIEW_REQUESTS: Readonly<Record<string, Handler>> = {
  [UiMethod.Initialize]: (state, params) => {
    state.initializeSeen = true;
    const capabilities = params.appCapabilities as
      | { availableDisplayModes?: unknown; tools?: unknown }
      | undefined;
    const modes = capabilities?.availableDisplayModes;
    state.viewModes = Array.isArray(modes) ? modes.filter(isDisplayMode) : undefined;
    state.viewTools = isRecord(capabilities?.tools);
    return {
      protocolVersion: APP_PROTOCOL_VERSION,
      hostInfo: state.hostInfo,
      hostCapabilities: state.hostCapabilities,
      hostContext: state.hostContext,
    };
  },
  // A view built as a plain MCP client (the spec's own example does this) starts with the MCP
  // handshake; the host answers as the server it stands in for. ui/initialize still follows for
  // the host context, and nothing is sent to the view before ui/notifications/initialized.
  initialize: (state, params) => {
    state.initializeSeen = true;
    const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : undefined;
    return {
      protocolVersion: asked !== undefined && MCP_REVISIONS.includes(asked) ? asked : MCP_REVISIONS[0],
      capabilities: { tools: {}, resources: {}, extensions: { [UI_EXTENSION]: state.hostCapabilities } },
      serverInfo: state.hostInfo,
    };
  },
  ping: () => ({}),
  'tools/call': async (state, params) => {
    needInitialize(state, 'tools/call');
    const name = stringParam(params, 'name');
    const args = params.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new BridgeRefusal(RpcCode.InvalidParams, 'arguments must be an object');
    }
    await appCallable(state, name);
    return state.server.callTool(name, args as Record<string, unknown>);
  },
  'tools/list': async (state) => {
    needInitialize(state, 'tools/list');
    state.tools = await state.server.listTools();
    return { tools: state.tools.filter((tool) => visibilityOf(tool).includes('app')) };
  },
  'resources/read': (state, params) => {
    needInitialize(state, 'resources/read');
    return state.server.readResource(stringParam(params, 'uri'));
  },
  'sampling/createMessage': (state, params) => {
    needInitialize(state, 'sampling/createMessage');
    const sample = state.callbacks.sample;
    if (!sample) refuse('This host does not offer sampling to apps');
    return sample(samplingParams(params));
  },
  [UiMethod.OpenLink]: async (state, params) => {
    const url = httpUrl(stringParam(params, 'url'));
    const open = state.callbacks.openLink;
    if (!open) refuse('This host does not open links');
    await open(url);
    return {};
  },
  [UiMethod.Message]: async (state, params) => {
    const message = state.callbacks.message;
    if (!message) refuse('This host does not take messages from apps');
    const content = contentBlocks(params.content);
    if (typeof params.role !== 'string' || content === undefined) {
      throw new BridgeRefusal(
        RpcCode.InvalidParams,
        'Invalid message format: a role and content blocks are required',
      );
    }
    if ((await message({ role: params.role, content })) === false) refuse('Message sending denied');
    return {};
  },
  [UiMethod.UpdateModelContext]: async (state, params) => {
    const update = state.callbacks.updateModelContext;
    if (!update) refuse('This host does not take model context from apps');
    const { content, structuredContent } = params;
    if (
      (content !== undefined && (!Array.isArray(content) || contentBlocks(content) === undefined)) ||
      (structuredContent !== undefined && !isRecord(structuredContent))
    ) {
      throw new BridgeRefusal(RpcCode.InvalidParams, 'Invalid content format');
    }
    const context: { content?: unknown[]; structuredContent?: Record<string, unknown> } = {};
    if (content !== undefined) context.content = content as unknown[];
    if (structuredContent !== undefined)
      context.structuredContent = structuredContent as Record<string, unknown>;
    if ((await update(context)) === false) refuse('Context update denied');
    return {};
  },
  [UiMethod.RequestDisplayMode]: async (state, params) => {
    const requested = params.mode;
    if (!isDisplayMode(requested))
      throw new BridgeRefusal(RpcCode.InvalidParams, 'mode must be inline, fullscreen or pip');
    const current = state.hostContext.displayMode ?? 'inline';
    const change = state.callbacks.requestDisplayMode;
    if (requested === current || !change || !displayable(state, requested)) return { mode: current };
    const granted = await change(requested);
    // The host's answer counts only if it is a mode the view may be in; anything else keeps the mode.
    const mode = isDisplayMode(granted) && displayable(state, granted) ? granted : current;
    state.hostContext = { ...state.hostContext, displayMode: mode };
    return { mode };
  },
  [UiMethod.DownloadFile]: async (state, params) => {
    const download = state.callbacks.downloadFile;
    if (!download) refuse('This host does not download files for apps');
    if ((await download({ contents: downloadContents(params) })) === false) refuse('Download denied by user');
    return {};
  },
};

/**
 * The `hostCapabilities` of `ui/initialize`: only what this host will do.
 *
 * @example
 * ```ts
 * hostCapabilitiesOf({}, {}); // { serverTools: {}, serverResources: {}, logging: {}, sandbox: { … } }
 * ```
 */
export function hostCapabilitiesOf(
  callbacks: HostCallbacks,
  sandbox: { csp?: unknown; permissions?: unknown },
): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {
    serverTools: {},
    serverResources: {},
    logging: {},
    sandbox,
  };
  if (callbacks.openLink) capabilities.openLinks = {};
  if (callbacks.downloadFile) capabilities.downloadFile = {};
  if (callbacks.message) capabilities.message = { text: {} };
  if (callbacks.updateModelContext) capabilities.updateModelContext = { text: {}, structuredContent: {} };
  if (callbacks.sample) capabilities.sampling = {};
  return capabilities;
}
