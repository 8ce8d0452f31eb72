/**
 * `@mcpkit/apps/bridge`: render MCP Apps in a browser host page. `mount(container, options)`
 * returns a handle with `teardown()`; the view runs in an inner frame of a sandbox proxy on
 * another origin (`@mcpkit/apps/sandbox` serves one). See docs/apps.md.
 * @module
 */
export { AppResourceError, type AppView, appViewOf } from './bridge/appResource.js';
export {
  type AppHandle,
  type ContainerElement,
  type FrameElement,
  type MountOptions,
  mount,
  PROXY_SANDBOX,
  sandboxUrlFor,
} from './bridge/mount.js';
export { BridgeRefusal, RpcCode } from './bridge/rpc.js';
export type { AppClient, AppServer, DisplayMode, HostCallbacks, HostContext } from './bridge/types.js';
export { ViewToolError } from './bridge/viewTools.js';
export type { DownloadContent } from './bridge/wireParams.js';
export { APP_MIME_TYPE, APPS_CLIENT_CAPABILITIES, UI_EXTENSION, UiMethod } from './shared/constants.js';
export { appLinkOf, visibilityOf } from './shared/meta.js';
