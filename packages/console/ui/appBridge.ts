/**
 * The console's MCP Apps renderer: `@mcpkit/apps/bridge`'s `mount()` behind each App slot. The
 * view renders in the sandbox proxy the backend serves on a loopback origin of its own (told to
 * the page in `state`), gets the tool's input and result, and whatever it asks of its server
 * (tools, resources) goes through the console's backend: the bridge lets it call only the tools
 * whose visibility includes `"app"` (app-only ones included, model-only ones refused). The view is
 * torn down (`ui/resource-teardown`, then the frame goes) when its slot goes, unless it floats in
 * picture-in-picture (`AppStage.tsx` lays out the display modes and shows what the view sent).
 * @module
 */
import { type AppHandle, mount } from '@mcpkit/apps/bridge';
import type { CallToolResult, ReadResourceResult, Tool } from '@mcpkit/core';
import { AppStage } from './AppStage.js';
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
 * Mounts one App on a stage of its own in the slot; returns what the slot calls as it goes: the
 * view is torn down then (without waiting), unless it floats in picture-in-picture, where it stays
 * until the person closes it.
 *
 * @example
 * ```ts
 * declare const app: AppMount;
 * const stop = renderApp(app);
 * stop();
 * ```
 */
export function renderApp(app: AppMount): () => void {
  const stage = new AppStage(app.container);
  let handle: AppHandle | undefined;
  let gone = false;
  const close = (view: AppHandle) =>
    void view.teardown('The console closed the view').then(() => stage.element.remove());
  void (async () => {
    const url = await sandboxUrl();
    if (!url) throw new Error('the console serves no sandbox proxy');
    const mounted = await mount(stage.frameBox, {
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
      displayModes: stage.modes,
      callbacks: {
        openLink: (link) => void window.open(link, '_blank', 'noopener,noreferrer'),
        requestDisplayMode: (mode) => stage.present(mode),
        // No conversation to add them to: the person reads them under the view.
        message: (message) => stage.addMessage(message),
        updateModelContext: (context) => stage.setContext(context),
      },
    });
    if (gone) return close(mounted);
    handle = mounted;
    stage.attach(mounted);
    // The view declares the modes it supports in ui/initialize: the buttons follow them.
    await mounted.initialized;
    stage.refresh();
  })().catch((error: unknown) => {
    if (!gone) failed(app.container, error);
  });
  return () => {
    gone = true;
    if (!stage.slotGone() && handle) close(handle);
  };
}
