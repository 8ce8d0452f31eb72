/**
 * The console's MCP Apps renderer: `@mcpkit/apps/bridge`'s `mount()` behind each App slot. The
 * view renders in the sandbox proxy the backend serves on a loopback origin of its own (told to
 * the page in `state`), gets the tool's input and result, and whatever it asks of its server
 * (tools, resources) goes through the console's backend: the bridge lets it call only the tools
 * whose visibility includes `"app"` (app-only ones included, model-only ones refused). The view is
 * torn down (`ui/resource-teardown`, then the frame goes) when its slot goes.
 * @module
 */
import { type AppHandle, mount } from '@mcpkit/apps/bridge';
import type { CallToolResult, ReadResourceResult, Tool } from '@mcpkit/core';
import { call } from './api.js';
import type { AppMount } from './apps.js';

let sandbox: Promise<string | undefined> | undefined;

/** The sandbox proxy's URL, asked of the backend once. */
function sandboxUrl(): Promise<string | undefined> {
  sandbox ??= call<{ sandbox?: string }>('state').then((state) => state.sandbox);
  return sandbox;
}

/** Says in the slot why the view is not shown. */
function failed(container: HTMLElement, error: unknown): void {
  const alert = document.createElement('p');
  alert.className = 'error';
  alert.setAttribute('role', 'alert');
  alert.textContent = `The App could not be shown: ${error instanceof Error ? error.message : String(error)}`;
  container.append(alert);
}

/**
 * Mounts one App; returns its teardown (which waits for nothing: the slot is already going).
 *
 * @example
 * ```ts
 * declare const app: AppMount;
 * const stop = renderApp(app);
 * stop();
 * ```
 */
export function renderApp(app: AppMount): () => void {
  let handle: AppHandle | undefined;
  let gone = false;
  void (async () => {
    const url = await sandboxUrl();
    if (!url) throw new Error('the console serves no sandbox proxy');
    const mounted = await mount(app.container, {
      server: {
        listTools: () => app.listTools() as Promise<Tool[]>,
        callTool: (name, args) => app.callTool(name, args) as Promise<CallToolResult>,
        readResource: (uri) => app.readResource(uri) as Promise<ReadResourceResult>,
      },
      resource: app.resourceUri,
      sandbox: url,
      tool: app.tool as Tool,
      toolInput: app.arguments,
      toolResult: app.result as CallToolResult,
      hostInfo: { name: 'mcpkit-console', version: '0.1.0' },
      callbacks: { openLink: (link) => void window.open(link, '_blank', 'noopener,noreferrer') },
    });
    if (gone) void mounted.teardown('The console closed the view');
    else handle = mounted;
  })().catch((error: unknown) => {
    if (!gone) failed(app.container, error);
  });
  return () => {
    gone = true;
    void handle?.teardown('The console closed the view');
  };
}
