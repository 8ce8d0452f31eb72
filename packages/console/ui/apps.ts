/**
 * Where MCP Apps plug in. A tool whose description links a `ui://` resource (MCP Apps:
 * `_meta.ui.resourceUri`) gets an App slot beside its result. The console does not render Apps
 * itself: the MCP Apps host bridge (a browser module of its own, sandboxed on its own origin with
 * the resource's CSP) registers a renderer here, and each slot hands it the container, the
 * resource URI, the tool, its arguments and result, and a way to read resources through the
 * console's backend. Until one is registered, the slot says which App the tool links.
 * @module
 */

/**
 * What a renderer is given for one App.
 *
 * @example
 * ```ts
 * const mount = (app: AppMount) => app.container.append(`App ${app.resourceUri}`);
 * ```
 */
export interface AppMount {
  readonly container: HTMLElement;
  /** The `ui://` resource the tool links. */
  readonly resourceUri: string;
  readonly tool: { readonly name: string; readonly _meta?: Record<string, unknown> };
  readonly arguments: Record<string, unknown>;
  readonly result: unknown;
  /** Reads a resource through the console's backend (the server the tool came from). */
  readonly readResource: (uri: string) => Promise<unknown>;
  /** Calls a tool through the console's backend, as an App may ask its host to. */
  readonly callTool: (name: string, args: Record<string, unknown>) => Promise<unknown>;
}

/**
 * Renders one App into its container; returns the function that tears it down.
 *
 * @example
 * ```ts
 * registerAppRenderer((app) => { const frame = bridge.mount(app); return () => frame.remove(); });
 * ```
 */
export type AppRenderer = (app: AppMount) => () => void;

let renderer: AppRenderer | undefined;

/**
 * Registers the renderer of MCP Apps (the host bridge); the slots shown from now on use it.
 *
 * @example
 * ```ts
 * registerAppRenderer(myBridgeRenderer);
 * ```
 */
export function registerAppRenderer(next: AppRenderer | undefined): void {
  renderer = next;
}

/** The renderer registered, if any. */
export function appRenderer(): AppRenderer | undefined {
  return renderer;
}

/**
 * The `ui://` resource a tool links, if it links one (`_meta.ui.resourceUri`, or the older
 * flat key `_meta["ui/resourceUri"]`).
 *
 * @example
 * ```ts
 * appResourceUri({ name: 'chart', _meta: { ui: { resourceUri: 'ui://charts/bar' } } }); // 'ui://charts/bar'
 * ```
 */
export function appResourceUri(tool: object): string | undefined {
  const meta = ((tool as { _meta?: unknown })._meta ?? {}) as Record<string, unknown>;
  const nested = (meta.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  const uri = typeof nested === 'string' ? nested : meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}
