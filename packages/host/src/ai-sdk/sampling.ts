/**
 * The host's one model as AI SDK language models: a server's `sampling/createMessage` (a 2025
 * request, or a 2026-07-28 input-required round: the client runs the same handler for both)
 * becomes a `generateText` call, after the host has asked the user's consent, applied the
 * server's policy and chosen the model.
 * @module
 */
import type { CreateMessageRequestParams } from '@mcpkit/core';
import { generateText, jsonSchema, type LanguageModel, type ToolSet, tool } from 'ai';
import type { McpHostOptions } from '../hostOptions.js';
import type { ModelCallback, ModelChooser } from '../policy/types.js';
import { fromGenerateText, toModelMessages } from './messages.js';

/**
 * Options of {@link aiSdkSampling}.
 *
 * @example
 * ```ts
 * import type { LanguageModel } from 'ai';
 * declare const small: LanguageModel, large: LanguageModel; // e.g. openai('gpt-5-mini'), anthropic('claude-sonnet-4-5')
 * const options: AiSdkSamplingOptions = { models: { 'gpt-small': small, 'claude-sonnet': large } };
 * ```
 */
export interface AiSdkSamplingOptions {
  /**
   * The models servers may be answered by, best first, under the names the host chooses among
   * (a server's `modelPreferences.hints` match these names; a server's `sampling.models` policy
   * lists them).
   */
  models: Readonly<Record<string, LanguageModel>>;
  /** Picks a name of `models` for a request; default: by hints, else the first allowed. */
  chooseModel?: ModelChooser;
}

/**
 * Sampling through AI SDK models, as host options to spread into `new McpHost({ … })`: the
 * host's `model` callback, its `models` and `samplingTools` (servers may send tools).
 * Consent (`hooks.sampling`), rate limits, the `maxTokens` cap and the model choice stay the
 * host's; the model call honours the request's system prompt, `maxTokens`, temperature, stop
 * sequences, tools and tool choice, with the request's abort signal. The AI SDK's telemetry
 * names the server that asked (`functionId: mcp-sampling:<server>`).
 *
 * @example
 * ```ts
 * import { McpHost } from '@mcpkit/host';
 * import { aiSdkSampling } from '@mcpkit/host/ai-sdk';
 * import type { LanguageModel } from 'ai';
 *
 * declare const sonnet: LanguageModel; // e.g. anthropic('claude-sonnet-4-5')
 * const host = new McpHost({
 *   servers,
 *   ...aiSdkSampling({ models: { 'claude-sonnet': sonnet } }),
 *   hooks: { sampling: async ({ server }) => ((await confirm(`${server} wants to use the model`)) ? 'session' : 'deny') },
 * });
 * ```
 */
export function aiSdkSampling(
  options: AiSdkSamplingOptions,
): Required<Pick<McpHostOptions, 'model' | 'models' | 'samplingTools'>> &
  Pick<McpHostOptions, 'chooseModel'> {
  const model: ModelCallback = async ({ server, model: name, params, signal }) => {
    const languageModel = options.models[name];
    if (!languageModel) throw new Error(`The host has no model named "${name}"`);
    const reply = await generateText({
      model: languageModel,
      ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
      messages: toModelMessages(params.messages),
      maxOutputTokens: params.maxTokens,
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.stopSequences?.length ? { stopSequences: params.stopSequences } : {}),
      ...toolsOf(params),
      abortSignal: signal,
      maxRetries: 0,
      telemetry: { functionId: `mcp-sampling:${server}` },
    });
    return fromGenerateText(reply, name);
  };
  return {
    model,
    models: Object.keys(options.models),
    samplingTools: true,
    ...(options.chooseModel ? { chooseModel: options.chooseModel } : {}),
  };
}

/** The request's tools, offered to the model without `execute`: the server runs them. */
function toolsOf(params: CreateMessageRequestParams): {
  tools?: ToolSet;
  toolChoice?: 'auto' | 'required' | 'none';
} {
  if (!params.tools?.length) return {};
  const tools: ToolSet = {};
  for (const t of params.tools) {
    tools[t.name] = tool({
      ...(t.description === undefined ? {} : { description: t.description }),
      inputSchema: jsonSchema({ ...t.inputSchema, properties: t.inputSchema.properties ?? {} } as Parameters<
        typeof jsonSchema
      >[0]),
    });
  }
  return { tools, ...(params.toolChoice?.mode ? { toolChoice: params.toolChoice.mode } : {}) };
}
