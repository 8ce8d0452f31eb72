/**
 * `@mcpkit/host/langchain`: the host under a LangChain agent. The catalogue as LangChain tools,
 * with the host's policy, consent, restarts and namespacing kept. Needs `@langchain/core` (v1),
 * an optional peer dependency of `@mcpkit/host`.
 *
 * @example
 * ```ts
 * import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
 * import { langChainTools } from '@mcpkit/host/langchain';
 *
 * declare const chatModel: Required<Pick<BaseChatModel, 'bindTools'>>; // e.g. new ChatAnthropic(…)
 * const model = chatModel.bindTools(await langChainTools(host));
 * ```
 * @module
 */

export type { ToolHost } from './agents/toolHost.js';
export {
  type LiveLangChainTools,
  langChainTool,
  langChainTools,
  liveLangChainTools,
} from './langchain/tools.js';
