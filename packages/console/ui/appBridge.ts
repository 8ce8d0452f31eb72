/**
 * The console's MCP Apps renderer: `@mcpkit/apps/bridge`'s `mount()` behind each App slot. The
 * view renders in the sandbox proxy the backend serves on a loopback origin of its own (told to
 * the page in `state`), gets the tool's input and result, and whatever it asks of its server
 * (tools, resources) goes through the console's backend: the bridge lets it call only the tools
 * whose visibility includes `"app"` (app-only ones included, model-only ones refused). The view is
 * torn down (`ui/resource-teardown`, then the frame goes) when its slot goes, unless it floats in
 * picture-in-picture (`AppStage.tsx` lays out the display modes and shows what the view sent).
 * What the view asks of the person (a model reply, files to save) is asked in the console's
 * question dialog, naming the tool whose view asks; files are saved only on yes, from the
 * console's own origin; the view's own tools are listed under it (`ViewTools.tsx`).
 * @module
 */
import { type AppHandle, type DownloadContent, mount } from '@mcpkit/apps/bridge';
import type { CallToolResult, CreateMessageResult, ReadResourceResult, Tool } from '@mcpkit/core';
import { AppStage } from './AppStage.js';
import { call } from './api.js';
import type { AppMount } from './apps.js';
import { downloadFile } from './download.js';
import { viewFiles } from './viewFiles.js';

let sandbox: Promise<string | undefined> | undefined;

/** `ui/download-file`: the person is asked (name, type, size of each file); on yes each is saved or its link opened. */
async function download(app: AppMount, contents: DownloadContent[]): Promise<boolean> {
  const files = viewFiles(contents);
  const asked = files.map(({ name, mimeType, bytes, url }) =>
    url ? { name, url, ...(mimeType ? { mimeType } : {}) } : { name, mimeType, size: bytes!.length },
  );
  const { accepted } = (await app.askPerson('download', { files: asked })) as { accepted: boolean };
  if (!accepted) return false;
  for (const file of files) {
    if (file.bytes) downloadFile(file.name, file.bytes, file.mimeType);
    else window.open(file.url, '_blank', 'noopener,noreferrer');
  }
  return true;
}

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
        downloadFile: ({ contents }) => download(app, contents),
        sample: (params) =>
          app.askPerson(
            'sampling',
            params as unknown as Record<string, unknown>,
          ) as Promise<CreateMessageResult>,
        viewToolsChanged: () => stage.toolsChanged(),
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
