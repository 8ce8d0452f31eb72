/**
 * The server's middleware: the context, the typed method narrowing and the hooks.
 * @module
 */
export {
  type ServerMethodContext,
  type ServerMethodMiddleware,
  type ServerMiddleware,
  ServerMiddlewareContext,
} from './context.js';
export {
  hideTools,
  type ListMethod,
  onCallTool,
  onGetPrompt,
  onIncomingNotification,
  onInitialize,
  onList,
  onReadResource,
  type ToolCall,
} from './hooks.js';
export { onMethod } from './method.js';
