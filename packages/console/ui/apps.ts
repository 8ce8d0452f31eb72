/**
 * Where MCP Apps plug in. A tool whose description links a `ui://` resource (MCP Apps:
 * `_meta.ui.resourceUri`) gets an App slot beside its result. The slots do not render Apps
 * themselves: the MCP Apps host bridge (`appBridge.ts`, which sandboxes each view on the sandbox
 * proxy's origin with the resource's CSP) registers a renderer here, and each slot hands it the
 * container, the resource URI, the tool, its arguments and result, and ways to list tools, call
 * them and read resources through the console's backend. Without one, the slot says which App the
 * tool links.
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
  /** The tool as its server names it (against a host: its name there, not the catalogue's). */
  readonly tool: { readonly name: string; readonly _meta?: Record<string, unknown> };
  readonly arguments: Record<string, unknown>;
  readonly result: unknown;
  /** Reads a resource through the console's backend (the server the tool came from). */
  readonly readResource: (uri: string) => Promise<unknown>;
  /** Calls a tool of the App's server (by its name there) through the console's backend. */
  readonly callTool: (name: string, args: Record<string, unknown>) => Promise<unknown>;
  /** The tools of the App's server, named as that server names them, with their `_meta`. */
  readonly listTools: () => Promise<{ name: string; _meta?: Record<string, unknown> }[]>;
  /**
   * Asks the person, through the backend's questions (the dialog says which tool's view asks):
   * a sampling request (resolves with the reply; a rejection fails with code -1) or files to save
   * (resolves with `{ accepted }`).
   */
  readonly askPerson: (kind: 'sampling' | 'download', params: Record<string, unknown>) => Promise<unknown>;
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
