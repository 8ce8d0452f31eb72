/**
 * Every MCP method and notification name, defined once as a typed constant.
 *
 * Feature code never spells a method as a string literal; it uses these constants, so a typo is a
 * compile error and a rename is one edit.
 *
 * @example
 * ```ts
 * import { Method } from '@mcpkit/core';
 * await client.request(Method.ToolsList, {});
 * ```
 * @module
 */

/**
 * Request methods of revision 2025-11-25 (and the older revisions, which use a subset).
 *
 * @example
 * ```ts
 * server.setRequestHandler(Method.ToolsList, () => ({ tools: [] }));
 * ```
 */
export const Method = {
  Initialize: 'initialize',
  Ping: 'ping',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  ResourcesList: 'resources/list',
  ResourcesTemplatesList: 'resources/templates/list',
  ResourcesRead: 'resources/read',
  ResourcesSubscribe: 'resources/subscribe',
  ResourcesUnsubscribe: 'resources/unsubscribe',
  PromptsList: 'prompts/list',
  PromptsGet: 'prompts/get',
  CompletionComplete: 'completion/complete',
  LoggingSetLevel: 'logging/setLevel',
  SamplingCreateMessage: 'sampling/createMessage',
  ElicitationCreate: 'elicitation/create',
  RootsList: 'roots/list',
  TasksGet: 'tasks/get',
  TasksResult: 'tasks/result',
  TasksList: 'tasks/list',
  TasksCancel: 'tasks/cancel',
} as const;

/** A request method name. */
export type MethodName = (typeof Method)[keyof typeof Method];

/**
 * Notification methods of revision 2025-11-25.
 *
 * @example
 * ```ts
 * client.onNotification(Notification.Message, (params) => console.error(params.data));
 * ```
 */
export const Notification = {
  Initialized: 'notifications/initialized',
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  Message: 'notifications/message',
  ResourcesUpdated: 'notifications/resources/updated',
  ResourcesListChanged: 'notifications/resources/list_changed',
  ToolsListChanged: 'notifications/tools/list_changed',
  PromptsListChanged: 'notifications/prompts/list_changed',
  RootsListChanged: 'notifications/roots/list_changed',
  ElicitationComplete: 'notifications/elicitation/complete',
  TasksStatus: 'notifications/tasks/status',
} as const;

/** A notification method name. */
export type NotificationName = (typeof Notification)[keyof typeof Notification];
