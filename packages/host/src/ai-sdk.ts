/**
 * `@mcpkit/host/ai-sdk`: the host under a Vercel AI SDK agent. The catalogue as AI SDK tools
 * (policy, consent, restarts and namespacing kept), and sampling answered by AI SDK models.
 * Needs `ai` (v7), an optional peer dependency of `@mcpkit/host`.
 *
 * @example
 * ```ts
 * import { generateText, isStepCount, type LanguageModel } from 'ai';
 * import { liveAiSdkTools } from '@mcpkit/host/ai-sdk';
 *
 * declare const model: LanguageModel;
 * declare const prompt: string;
 * const live = await liveAiSdkTools(host);
 * const { text } = await generateText({ model, tools: live.tools, prepareStep: live.prepareStep, stopWhen: isStepCount(10), prompt });
 * ```
 * @module
 */

export type { ToolHost } from './agents/toolHost.js';
export { aiSdkModelOutput } from './ai-sdk/output.js';
export { type AiSdkSamplingOptions, aiSdkSampling } from './ai-sdk/sampling.js';
export {
  aiSdkTool,
  aiSdkTools,
  type LiveAiSdkTools,
  liveAiSdkTools,
} from './ai-sdk/tools.js';
