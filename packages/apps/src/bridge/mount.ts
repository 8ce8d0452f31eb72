/**
 * Renders an MCP App in a host page: the view's HTML goes to a sandbox proxy on another origin
 * (a frame with `sandbox="allow-scripts allow-same-origin"`, whose page is served with the CSP
 * built from the view's declared domains; `@mcpkit/apps/sandbox` serves it), the proxy loads it in
 * an inner frame, and the bridge speaks the view's JSON-RPC over `postMessage`: `ui/initialize`
 * answered with the host's capabilities and context, nothing sent to the view before
 * `ui/notifications/initialized`, tool input and result as notifications, the view's requests
 * answered or proxied to its own server, `ui/resource-teardown` before the frame goes.
 * @module
 */
import type { CallToolResult, Tool } from '@mcpkit/core';
import { SANDBOX_METHOD_PREFIX, UiMethod } from '../shared/constants.js';
import type { UiPermissions } from '../shared/meta.js';
import { type AppView, appViewOf } from './appResource.js';
import { BridgeRefusal, errorOf, RpcCode, type RpcId, readViewMessage, type ViewMessage } from './rpc.js';

/** The view's answer to a request of the host. */
type ViewAnswer = Extract<ViewMessage, { kind: 'response' }>;

import { frameSize } from './sizing.js';
import type { AppClient, AppServer, DisplayMode, HostCallbacks, HostContext } from './types.js';
import { displayable, hostCapabilitiesOf, VIEW_REQUESTS, type ViewState } from './viewRequests.js';
import { VIEW_TOOL_METHODS, ViewToolError, viewToolList, viewToolResult } from './viewTools.js';

/**
 * A DOM element type when the DOM lib is loaded, `object` otherwise: the published declarations
 * then type-check in Node-only projects too (a bridge is only ever called in a browser).
 */
type Dom<Name extends string> = typeof globalThis extends Record<Name, { prototype: infer T }> ? T : object;

/**
 * The `<iframe>` element type (`HTMLIFrameElement` where the DOM lib is loaded).
 *
 * @example
 * ```ts
 * declare const app: AppHandle;
 * const frame: FrameElement = app.frame;
 * ```
 */
export type FrameElement = Dom<'HTMLIFrameElement'>;

/**
 * The element type a view mounts in (`HTMLElement` where the DOM lib is loaded).
 *
 * @example
 * ```ts
 * declare const container: ContainerElement;
 * ```
 */
export type ContainerElement = Dom<'HTMLElement'>;

/**
 * The proxy frame's `sandbox`, exactly as the spec requires.
 *
 * @example
 * ```ts
 * declare const frame: HTMLIFrameElement;
 * frame.setAttribute('sandbox', PROXY_SANDBOX); // 'allow-scripts allow-same-origin'
 * ```
 */
export const PROXY_SANDBOX = 'allow-scripts allow-same-origin';

/**
 * What to render and where to send what the view asks.
 *
 * @example
 * ```ts
 * const options: MountOptions = { client, resource: 'ui://demo/tally', sandbox: 'http://127.0.0.1:4100/sandbox' };
 * ```
 */
export interface MountOptions {
  /** The view's server as a client (`McpClient` declaring the extension), or… */
  client?: AppClient;
  /** …as callbacks. One of the two is required. */
  server?: AppServer;
  /** The `ui://` URI to read from the server, or a view already read (see `appViewOf`). */
  resource: string | AppView;
  /** The resource's `resources/list` entry, for its `_meta.ui` when the content has none. */
  resourceListing?: { _meta?: unknown };
  /** The sandbox proxy page's URL; its origin must differ from the host page's. */
  sandbox: string | URL;
  /** The tool whose call opened the view (`hostContext.toolInfo`). */
  tool?: Tool;
  /** The call's arguments, sent as `ui/notifications/tool-input` once the view is initialized. */
  toolInput?: Record<string, unknown>;
  /** The call's result, sent as `ui/notifications/tool-result` after the input. */
  toolResult?: CallToolResult;
  hostContext?: HostContext;
  /**
   * The display modes the host offers the view (`hostContext.availableDisplayModes`). Default
   * `['inline']`: a host that can lay a view out fullscreen or in picture-in-picture names those
   * modes here and switches in `callbacks.requestDisplayMode` (required then).
   */
  displayModes?: DisplayMode[];
  hostInfo?: { name: string; version: string };
  callbacks?: HostCallbacks;
  /** Permissions the host grants, intersected with those the view asks for. Default none. */
  grantPermissions?: UiPermissions;
  /** How long to wait for the view's answer to `ui/resource-teardown`. Default 2000 ms. */
  teardownTimeoutMs?: number;
  /** Proxied requests a view may have in flight at once. Default 16. */
  maxPendingRequests?: number;
  /** How long to wait for the view's answer to a listing or a call of its own tools. Default 30000 ms. */
  viewToolTimeoutMs?: number;
  /** Tools a view may list; a longer list is refused. Default 64. */
  maxViewTools?: number;
}

/**
 * A mounted view.
 *
 * @example
 * ```ts
 * declare const container: HTMLElement;
 * declare const options: MountOptions;
 * declare const result: CallToolResult;
 * const app = await mount(container, options);
 * await app.initialized;
 * app.sendToolResult(result);
 * await app.teardown('closed by the user');
 * ```
 */
export interface AppHandle {
  /** The sandbox proxy frame. */
  readonly frame: FrameElement;
  readonly view: AppView;
  /** Settles when the view sent `ui/notifications/initialized`. */
  readonly initialized: Promise<void>;
  sendToolInput(args: Record<string, unknown>): void;
  sendToolInputPartial(args: Record<string, unknown>): void;
  sendToolResult(result: CallToolResult): void;
  sendToolCancelled(reason?: string): void;
  /** Merges `changes` into the host context and tells the view. */
  setHostContext(changes: Partial<HostContext>): void;
  /** The view's display mode now. */
  readonly displayMode: DisplayMode;
  /** Whether the view may be switched to `mode`: the host offers it and the view declared it (if it declared any). */
  canDisplay(mode: DisplayMode): boolean;
  /**
   * A switch the host makes itself (its own button, Escape): after laying the view out in `mode`,
   * tell the bridge, which sizes the frame and tells the view. Returns the mode now (unchanged
   * when `canDisplay(mode)` is false).
   */
  setDisplayMode(mode: DisplayMode): DisplayMode;
  /** Whether the view offers tools of its own (it declared `appCapabilities.tools` in `ui/initialize`). */
  readonly offersTools: boolean;
  /**
   * The view's own tools (`ui/list-view-tools`; `tools/list` for a view that predates ext-apps
   * 2.x), checked and capped (`maxViewTools`).
   *
   * @throws {ViewToolError} when the view offers none, does not answer in time, or answers amiss.
   */
  listViewTools(): Promise<Tool[]>;
  /**
   * Calls one of the view's own tools (`ui/call-view-tool`, or `tools/call`). The view is
   * untrusted: its result is checked, and shown to a person as what a view says.
   *
   * @throws {ViewToolError} as `listViewTools()` does, or with the view's error code.
   */
  callViewTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Sends `ui/resource-teardown`, waits for the answer (or the timeout), removes the frame. */
  teardown(reason?: string): Promise<void>;
}

function defaultHostContext(): HostContext {
  const dark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  return {
    theme: dark ? 'dark' : 'light',
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    locale: typeof navigator === 'object' ? navigator.language : 'en',
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'web',
  };
}

function serverOf(options: MountOptions): AppServer {
  if (options.server) return options.server;
  const client = options.client;
  if (!client) throw new TypeError('mount() needs a client or a server');
  return {
    listTools: () => client.tools(),
    callTool: (name, args) => client.callTool(name, args),
    readResource: (uri) => client.readResource(uri),
  };
}

class MountedApp implements AppHandle {
  readonly frame: HTMLIFrameElement;
  readonly initialized: Promise<void>;
  readonly #state: ViewState;
  readonly #origin: string;
  readonly #outbox: object[] = [];
  readonly #waiting = new Map<RpcId, (message: ViewAnswer | undefined) => void>();
  readonly #teardownTimeout: number;
  readonly #maxPending: number;
  #pending = 0;
  #resourceSent = false;
  #ready = false;
  #gone = false;
  #nextId = 1;
  /** The frame's size in inline mode (what the view last reported, within the host's limits). */
  #inlineSize: { width?: number; height?: number };
  /** The host's container dimensions for inline mode, told to the view again when it returns there. */
  #inlineContainer: HostContext['containerDimensions'];
  /** Watches the frame's size while the host lays it out (any mode but inline). */
  #resizes: ResizeObserver | undefined;
  #markInitialized!: () => void;
  /** Which of `VIEW_TOOL_METHODS` the view answers. */
  #toolMethods: (typeof VIEW_TOOL_METHODS)[number] = VIEW_TOOL_METHODS[0];

  constructor(
    readonly view: AppView,
    frame: HTMLIFrameElement,
    origin: string,
    state: ViewState,
    private readonly options: MountOptions,
  ) {
    this.frame = frame;
    this.#origin = origin;
    this.#state = state;
    this.#teardownTimeout = options.teardownTimeoutMs ?? 2000;
    this.#maxPending = options.maxPendingRequests ?? 16;
    this.#inlineContainer = state.hostContext.containerDimensions;
    const fixed = this.#inlineContainer;
    this.#inlineSize = { width: fixed?.width, height: fixed?.height };
    this.initialized = new Promise((resolve) => {
      this.#markInitialized = resolve;
    });
    this.#sizeFrame();
    if (options.toolInput !== undefined) this.sendToolInput(options.toolInput);
    if (options.toolResult !== undefined) this.sendToolResult(options.toolResult);
  }

  /** The one `message` listener of this view (an object listener: no closure per message). */
  handleEvent(event: MessageEvent): void {
    if (this.#gone || event.source !== this.frame.contentWindow || event.origin !== this.#origin) return;
    const message = readViewMessage(event.data);
    if (!message) return;
    if (message.kind === 'response') {
      this.#waiting.get(message.id)?.(message);
      return;
    }
    if (message.method.startsWith(SANDBOX_METHOD_PREFIX)) {
      if (message.method === UiMethod.SandboxProxyReady) this.#sendResource();
      return;
    }
    if (message.kind === 'notification') this.#notified(message.method, message.params);
    else void this.#answer(message.id, message.method, message.params);
  }

  #sendResource(): void {
    if (this.#resourceSent) return;
    this.#resourceSent = true;
    const { html, meta } = this.view;
    const permissions = grantedPermissions(meta.permissions, this.options.grantPermissions);
    this.#post({
      jsonrpc: '2.0',
      method: UiMethod.SandboxResourceReady,
      params: { html, csp: meta.csp ?? {}, permissions },
    });
  }

  #notified(method: string, params: Record<string, unknown>): void {
    const callbacks = this.#state.callbacks;
    switch (method) {
      case UiMethod.Initialized:
        if (this.#ready) return;
        this.#ready = true;
        for (const message of this.#outbox.splice(0)) this.#post(message);
        this.#markInitialized();
        return;
      case UiMethod.SizeChanged: {
        // Outside inline mode the host's layout sizes the frame; the view's size waits for inline.
        const size = frameSize(params, { containerDimensions: this.#inlineContainer });
        this.#inlineSize = { ...this.#inlineSize, ...size };
        if (this.displayMode !== 'inline') return;
        this.#sizeFrame();
        callbacks.sizeChanged?.(size);
        return;
      }
      case UiMethod.Log:
      case 'notifications/message':
        callbacks.log?.(params as { level?: string; data?: unknown; logger?: string });
        return;
      case UiMethod.RequestTeardown:
        callbacks.requestTeardown?.();
        return;
      case 'notifications/tools/list_changed':
        if (this.#state.viewTools) callbacks.viewToolsChanged?.();
        return;
      default:
        return; // Other notifications (list changes, progress) have nothing to act on here.
    }
  }

  async #answer(id: RpcId, method: string, params: Record<string, unknown>): Promise<void> {
    const handler = Object.hasOwn(VIEW_REQUESTS, method) ? VIEW_REQUESTS[method] : undefined;
    if (!handler) {
      this.#post({
        jsonrpc: '2.0',
        id,
        error: { code: RpcCode.MethodNotFound, message: `Method not found: ${method}` },
      });
      return;
    }
    if (this.#pending >= this.#maxPending) {
      const error = errorOf(
        new BridgeRefusal(RpcCode.Refused, 'Too many requests in flight; wait for an answer first'),
      );
      this.#post({ jsonrpc: '2.0', id, error });
      return;
    }
    this.#pending++;
    const mode = this.displayMode;
    try {
      const result = await handler(this.#state, params);
      if (!this.#gone) this.#post({ jsonrpc: '2.0', id, result });
      // A display mode the view asked for and got is host context that changed.
      if (this.displayMode !== mode) this.#displayModeChanged();
    } catch (error) {
      if (!this.#gone) this.#post({ jsonrpc: '2.0', id, error: errorOf(error) });
    } finally {
      this.#pending--;
    }
  }

  #post(message: object): void {
    this.frame.contentWindow?.postMessage(message, this.#origin);
  }

  /** Host → view messages wait for `ui/notifications/initialized`. */
  #toView(method: string, params: unknown): void {
    if (this.#gone) return;
    const message = { jsonrpc: '2.0', method, params };
    if (this.#ready) this.#post(message);
    else this.#outbox.push(message);
  }

  sendToolInput(args: Record<string, unknown>): void {
    this.#toView(UiMethod.ToolInput, { arguments: args });
  }

  sendToolInputPartial(args: Record<string, unknown>): void {
    this.#toView(UiMethod.ToolInputPartial, { arguments: args });
  }

  sendToolResult(result: CallToolResult): void {
    this.#toView(UiMethod.ToolResult, result);
  }

  sendToolCancelled(reason?: string): void {
    this.#toView(UiMethod.ToolCancelled, reason === undefined ? {} : { reason });
  }

  setHostContext(changes: Partial<HostContext>): void {
    this.#merge(changes);
    if (changes.containerDimensions !== undefined && this.displayMode === 'inline') {
      this.#inlineContainer = changes.containerDimensions;
    }
  }

  #merge(changes: Partial<HostContext>): void {
    this.#state.hostContext = { ...this.#state.hostContext, ...changes };
    this.#toView(UiMethod.HostContextChanged, changes);
  }

  get displayMode(): DisplayMode {
    return this.#state.hostContext.displayMode ?? 'inline';
  }

  canDisplay(mode: DisplayMode): boolean {
    return displayable(this.#state, mode);
  }

  setDisplayMode(mode: DisplayMode): DisplayMode {
    if (mode === this.displayMode || !this.canDisplay(mode)) return this.displayMode;
    this.#state.hostContext = { ...this.#state.hostContext, displayMode: mode };
    this.#displayModeChanged();
    return mode;
  }

  /** Inline, the frame takes the view's size; otherwise it fills what the host laid out. */
  #sizeFrame(): void {
    const inline = this.displayMode === 'inline';
    const { width, height } = this.#inlineSize;
    this.frame.style.width = inline && width !== undefined ? `${width}px` : '100%';
    this.frame.style.height = !inline ? '100%' : height !== undefined ? `${height}px` : '';
  }

  /**
   * Sizes the frame for the new mode and tells the view: the mode, and the container it now has
   * (fixed at the frame's size outside inline mode, the host's inline dimensions back in inline).
   */
  #displayModeChanged(): void {
    this.#sizeFrame();
    const displayMode = this.displayMode;
    this.#resizes ??=
      typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.#resized()) : undefined;
    if (displayMode === 'inline') {
      this.#resizes?.disconnect();
      this.#merge({ displayMode, containerDimensions: this.#inlineContainer ?? {} });
      return;
    }
    this.#merge({ displayMode, containerDimensions: this.#frameDimensions() });
    this.#resizes?.observe(this.frame);
  }

  #frameDimensions(): { width: number; height: number } {
    return { width: this.frame.clientWidth, height: this.frame.clientHeight };
  }

  /** Outside inline mode the host's layout sizes the frame (a window resized, say): the view is told. */
  #resized(): void {
    const told = this.#state.hostContext.containerDimensions;
    const now = this.#frameDimensions();
    if (this.displayMode === 'inline' || (told?.width === now.width && told?.height === now.height)) return;
    this.#merge({ containerDimensions: now });
  }

  /** Sends a request to the view; its answer, or undefined after `timeoutMs` (or once the view is gone). */
  #ask(method: string, params: object, timeoutMs: number): Promise<ViewAnswer | undefined> {
    if (this.#gone) return Promise.resolve(undefined);
    const id = `host-${this.#nextId++}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.#waiting.set(id, (message) => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve(message);
      });
      this.#post({ jsonrpc: '2.0', id, method, params });
    });
  }

  get offersTools(): boolean {
    return this.#state.viewTools;
  }

  /** Asks the view about its tools: the newer method name first, the older one if the view knows only that. */
  async #askTools(pick: 'list' | 'call', params: object): Promise<unknown> {
    if (!this.#ready || !this.#state.viewTools) throw new ViewToolError('The view offers no tools');
    const timeout = this.options.viewToolTimeoutMs ?? 30_000;
    let answer = await this.#ask(this.#toolMethods[pick], params, timeout);
    if (answer?.error?.code === RpcCode.MethodNotFound && this.#toolMethods === VIEW_TOOL_METHODS[0]) {
      this.#toolMethods = VIEW_TOOL_METHODS[1];
      answer = await this.#ask(this.#toolMethods[pick], params, timeout);
    }
    if (!answer) throw new ViewToolError('The view did not answer in time, or was closed');
    if (answer.error) throw new ViewToolError(answer.error.message, answer.error.code);
    return answer.result;
  }

  async listViewTools(): Promise<Tool[]> {
    return viewToolList(await this.#askTools('list', {}), this.options.maxViewTools ?? 64);
  }

  async callViewTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return viewToolResult(await this.#askTools('call', { name, arguments: args }));
  }

  async teardown(reason = 'The host closed the view'): Promise<void> {
    if (this.#gone) return;
    if (this.#ready) await this.#ask(UiMethod.ResourceTeardown, { reason }, this.#teardownTimeout);
    this.#gone = true;
    for (const answer of [...this.#waiting.values()]) answer(undefined);
    this.#resizes?.disconnect();
    this.#waiting.clear();
    this.#outbox.length = 0;
    window.removeEventListener('message', this);
    this.frame.remove();
  }
}

function grantedPermissions(
  requested: UiPermissions | undefined,
  granted: UiPermissions | undefined,
): UiPermissions {
  const out: UiPermissions = {};
  for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) {
    if (requested?.[key] !== undefined && granted?.[key] !== undefined) out[key] = {};
  }
  return out;
}

const FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/**
 * The proxy page's URL for a view: `sandbox` with the host's origin and the view's declared CSP
 * as query parameters (the page's server builds its CSP header from them).
 *
 * @throws {TypeError} when `sandbox` has the host page's origin.
 * @example
 * ```ts
 * sandboxUrlFor('http://127.0.0.1:4100/sandbox', 'http://127.0.0.1:3000', { connectDomains: ['https://api.example.com'] });
 * ```
 */
export function sandboxUrlFor(sandbox: string | URL, hostOrigin: string, csp: unknown): URL {
  const url = new URL(sandbox, hostOrigin);
  if (url.origin === hostOrigin) {
    throw new TypeError(`The sandbox proxy must be on another origin than the host page (${hostOrigin})`);
  }
  url.searchParams.set('host', hostOrigin);
  url.searchParams.set('csp', JSON.stringify(csp ?? {}));
  return url;
}

/**
 * Mounts an app's view in `container`: reads the resource (when given a URI), adds the sandbox
 * proxy frame and starts the bridge. The view's requests go to `client`/`server` only.
 *
 * @throws {TypeError} with neither `client` nor `server`, or a sandbox on the host's own origin.
 * @throws {AppResourceError} when the resource is not an app view.
 * @example
 * ```ts
 * import { mount } from '@mcpkit/apps/bridge';
 *
 * const tool = (await client.tools()).find((t) => t.name === 'show_tally')!;
 * const result = await client.callTool('show_tally', {});
 * const app = await mount(document.getElementById('app')!, {
 *   client,
 *   resource: 'ui://demo/tally',
 *   sandbox: 'http://127.0.0.1:4100/sandbox',
 *   tool,
 *   toolInput: {},
 *   toolResult: result,
 *   hostContext: { theme: 'dark', containerDimensions: { maxHeight: 600 } },
 *   callbacks: { openLink: (url) => void window.open(url, '_blank', 'noopener') },
 * });
 * // later
 * await app.teardown();
 * ```
 */
export async function mount(container: ContainerElement, options: MountOptions): Promise<AppHandle> {
  const server = serverOf(options);
  const hostOrigin = window.location.origin;
  const view =
    typeof options.resource === 'string'
      ? appViewOf(options.resource, await server.readResource(options.resource), options.resourceListing)
      : options.resource;
  const url = sandboxUrlFor(options.sandbox, hostOrigin, view.meta.csp);
  const callbacks = options.callbacks ?? {};
  const permissions = grantedPermissions(view.meta.permissions, options.grantPermissions);
  const hostContext: HostContext = { ...defaultHostContext(), ...options.hostContext };
  if (options.tool && hostContext.toolInfo === undefined) hostContext.toolInfo = { tool: options.tool };
  const current = hostContext.displayMode ?? 'inline';
  const modes = options.displayModes ?? hostContext.availableDisplayModes ?? [current];
  hostContext.availableDisplayModes = modes.includes(current) ? [...modes] : [current, ...modes];
  if (!callbacks.requestDisplayMode && hostContext.availableDisplayModes.some((mode) => mode !== current)) {
    throw new TypeError(
      'Offering display modes other than the current one needs callbacks.requestDisplayMode',
    );
  }
  const state: ViewState = {
    server,
    callbacks,
    hostInfo: options.hostInfo ?? { name: 'mcpkit-apps-bridge', version: '0.1.0' },
    hostCapabilities: hostCapabilitiesOf(callbacks, { csp: view.meta.csp ?? {}, permissions }),
    hostContext,
    viewModes: undefined,
    viewTools: false,
    initializeSeen: false,
    tools: undefined,
  };
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', PROXY_SANDBOX);
  const allow = Object.entries(FEATURES)
    .filter(([key]) => permissions[key as keyof UiPermissions] !== undefined)
    .map(([, feature]) => `${feature} ${url.origin}`);
  if (allow.length > 0) frame.setAttribute('allow', allow.join('; '));
  frame.setAttribute('title', view.uri);
  frame.style.border = view.meta.prefersBorder === true ? '1px solid rgba(128, 128, 128, 0.4)' : '0';
  frame.style.display = 'block';
  const app = new MountedApp(view, frame, url.origin, state, options);
  window.addEventListener('message', app);
  frame.src = url.href;
  container.appendChild(frame);
  return app;
}
