/**
 * Type-level tests, checked by `tsc -p tsconfig.json`: the agent adapters fit the frameworks'
 * public types as users pass them. The AI SDK: the tool sets are `ToolSet`s that `generateText`
 * and `ToolLoopAgent` take, `prepareStep` is a `PrepareStepFunction`, `aiSdkModelOutput` returns
 * what `toModelOutput` may, and `aiSdkSampling` spreads into `McpHostOptions`. LangChain: the tools
 * are `StructuredToolInterface`s that `bindTools` takes, and they produce `ToolMessage`s.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { McpHost, McpHostOptions } from '@mcpkit/host';
import {
  aiSdkModelOutput,
  aiSdkSampling,
  aiSdkTools,
  type LiveAiSdkTools,
  liveAiSdkTools,
} from '@mcpkit/host/ai-sdk';
import { type LiveLangChainTools, langChainTools, liveLangChainTools } from '@mcpkit/host/langchain';
import {
  Experimental_Agent as Agent,
  generateText,
  isStepCount,
  type LanguageModel,
  type PrepareStepFunction,
  type Tool,
  type ToolSet,
} from 'ai';
import { describe, expectTypeOf, it } from 'vitest';

declare const host: McpHost;
declare const model: LanguageModel;
declare const chatModel: BaseChatModel;

describe('@mcpkit/host/ai-sdk against the AI SDK’s types', () => {
  it('the tool sets are ToolSets generateText and the agent take', async () => {
    const tools = await aiSdkTools(host);
    expectTypeOf(tools).toEqualTypeOf<ToolSet>();
    const live: LiveAiSdkTools = await liveAiSdkTools(host);
    expectTypeOf(live.tools).toEqualTypeOf<ToolSet>();
    expectTypeOf(live.prepareStep).toExtend<PrepareStepFunction<ToolSet>>();
    await generateText({
      model,
      tools: live.tools,
      prepareStep: live.prepareStep,
      stopWhen: isStepCount(5),
      prompt: 'hi',
    });
    new Agent({ model, tools, prepareStep: live.prepareStep });
  });

  it('the model output is what toModelOutput may return', () => {
    expectTypeOf(aiSdkModelOutput).returns.toExtend<
      Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>
    >();
  });

  it('aiSdkSampling spreads into the host’s options', () => {
    const options: McpHostOptions = { servers: [], ...aiSdkSampling({ models: { small: model } }) };
    expectTypeOf(options.model).not.toBeUndefined();
    // A model that is not an AI SDK model is refused.
    // @ts-expect-error a string is a gateway model id in the AI SDK, but an object with no spec is not a model
    aiSdkSampling({ models: { small: { modelId: 'x' } } });
  });
});

describe('@mcpkit/host/langchain against LangChain’s types', () => {
  it('the tools are structured tools that bindTools takes', async () => {
    const tools = await langChainTools(host);
    expectTypeOf(tools).toExtend<StructuredToolInterface[]>();
    const live: LiveLangChainTools = await liveLangChainTools(host);
    expectTypeOf(live.current()).toExtend<StructuredToolInterface[]>();
    chatModel.bindTools?.(await live.ready());
  });
});
