/**
 * `@mcpkit/host`: many MCP servers in one application, runtime-neutral.
 *
 * @example
 * ```ts
 * import { parseHostConfig } from '@mcpkit/host';
 * const servers = await parseHostConfig({ file: 'mcp.json', text, workspaceFolder: '/w', env: {} });
 * ```
 * @module
 */

export { appLinkOf, visibilityOf } from '@mcpkit/apps';
export type { RestartOptions } from '@mcpkit/client';
export { appLinkIn, type HostAppLink, linkViews, modelVisible } from './appLinks.js';
export {
  Catalogue,
  type CatalogueKind,
  type HostEntry,
  type NameCollision,
  type Route,
} from './catalogue/catalogue.js';
export {
  hashedName,
  type Naming,
  namespacedName,
  namespacedUri,
  splitNamespacedUri,
} from './catalogue/names.js';
export {
  type AskInput,
  type ConfigSource,
  type OAuthEntry,
  parseHostConfig,
  parseServerEntry,
  type ServerEntry,
} from './config.js';
export { type Connector, type HttpConnectorOptions, httpConnector } from './connection/connector.js';
export type { ServerState, StateChange } from './connection/upstream.js';
export { HostConfigError, NameCollisionError, ServerUnavailableError, UNAVAILABLE_META } from './errors.js';
export { type ListChange, McpHost, type McpHostOptions } from './host.js';
export { matchesPattern } from './policy/patterns.js';
export { chooseModel } from './policy/sampling.js';
export type {
  AuditContext,
  AuditEvent,
  ConsentDecision,
  ConsentStore,
  ElicitationHook,
  HostHooks,
  ItemFilter,
  ModelCallback,
  ModelChooser,
  SamplingConsent,
  SamplingPolicy,
  ServerPolicy,
  ToolCallConsent,
  ToolOverride,
} from './policy/types.js';
export type { HostCallOptions } from './toolCall.js';
