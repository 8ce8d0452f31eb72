/**
 * The host's catalogue as LangChain tools (`DynamicStructuredTool`s with each tool's JSON Schema):
 * calls routed through the host (policy, consent, restarts) with the run's abort signal, the
 * result as the tool message's content (text, images, audio; the whole `CallToolResult` as its
 * artifact), and a refused or failed call as a tool message with status `error` that the model
 * reads.
 * @module
 */

import { ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { CallToolResult, Tool as McpTool } from '@mcpkit/core';
import { type ModelPart, modelParts, resultText } from '../agents/content.js';
import { LiveTools } from '../agents/liveTools.js';
import type { ToolHost } from '../agents/toolHost.js';
import type { HostEntry } from '../catalogue/catalogue.js';

/** A content block of a LangChain message (its standard text and data blocks). */
type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio' | 'file'; mimeType: string; data: string };

/** What the tool's function returns: a finished tool message (for a tool call), else the content. */
type ToolOutput = string | ContentPart[] | ToolMessage;

/**
 * The host's tools now, as LangChain tools named by catalogue name (namespaced on collision,
 * denied tools absent). For tools that follow `list_changed`, see {@link liveLangChainTools}.
 *
 * @example
 * ```ts
 * import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
 * import { langChainTools } from '@mcpkit/host/langchain';
 *
 * declare const chatModel: Required<Pick<BaseChatModel, 'bindTools'>>; // e.g. new ChatAnthropic(…)
 * const tools = await langChainTools(host);
 * const model = chatModel.bindTools(tools);
 * ```
 */
export async function langChainTools(host: ToolHost): Promise<DynamicStructuredTool[]> {
  return (await host.tools()).map((entry) => langChainTool(host, entry));
}

/**
 * LangChain tools that follow the host: `current()` is the latest listing, taken again when a
 * server's tools change or it restarts; `settled()` waits for a listing under way. Bind the
 * tools again before each model call of the loop (`model.bindTools(await live.ready())`).
 *
 * @example
 * ```ts
 * import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
 * import type { BaseMessage } from '@langchain/core/messages';
 * declare const chatModel: Required<Pick<BaseChatModel, 'bindTools'>>; // e.g. new ChatAnthropic(…)
 * declare const messages: BaseMessage[];
 * const live = await liveLangChainTools(host);
 * const reply = await chatModel.bindTools(await live.ready()).invoke(messages);
 * live.close();
 * ```
 */
export interface LiveLangChainTools {
  /** The tools of the latest listing. */
  current(): DynamicStructuredTool[];
  /** The tools once any listing under way has finished. */
  ready(): Promise<DynamicStructuredTool[]>;
  /** Lists the host's tools again now. */
  refresh(): Promise<void>;
  close(): void;
}

/**
 * Opens a {@link LiveLangChainTools} over a host.
 *
 * @example
 * ```ts
 * const live = await liveLangChainTools(host);
 * live.current().map((tool) => tool.name); // ['echo', 'memory__create_entities', …]
 * ```
 */
export async function liveLangChainTools(host: ToolHost): Promise<LiveLangChainTools> {
  const live = await LiveTools.open(host, (entry) => langChainTool(host, entry));
  const current = () => [...live.current().values()];
  return {
    current,
    ready: async () => {
      await live.settled();
      return current();
    },
    refresh: () => live.refresh(),
    close: () => live.close(),
  };
}

/**
 * One catalogue tool as a LangChain tool. Invoked with a tool call (as agents do), it returns a
 * `ToolMessage`: the result's content, with the `CallToolResult` as artifact, and status `error`
 * for an `isError` result or a call that failed (unknown name, server down). Invoked with plain
 * arguments, it returns the content, and throws for those failures.
 *
 * @example
 * ```ts
 * const [first] = await host.tools();
 * const message = await langChainTool(host, first!).invoke({ id: 'call_1', name: first!.name, args: {}, type: 'tool_call' });
 * ```
 */
export function langChainTool(host: ToolHost, entry: HostEntry<McpTool>): DynamicStructuredTool {
  const name = entry.name;
  return new DynamicStructuredTool({
    name,
    description: entry.description ?? entry.title ?? name,
    schema: { ...entry.inputSchema, properties: entry.inputSchema.properties ?? {} },
    metadata: {
      server: entry.server,
      original: entry.original,
      ...(entry.annotations ? { annotations: entry.annotations } : {}),
    },
    func: async (input: unknown, _run: unknown, config?: RunnableConfig): Promise<ToolOutput> => {
      const callId = (config as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
      const signal = config?.signal;
      let result: CallToolResult;
      try {
        result = await host.callTool(
          name,
          (input ?? {}) as Record<string, unknown>,
          signal ? { signal } : {},
        );
      } catch (error) {
        if (callId === undefined) throw error;
        const text = error instanceof Error ? error.message : String(error);
        return new ToolMessage({ content: text, tool_call_id: callId, name, status: 'error' });
      }
      if (result.isError && callId === undefined) throw new Error(resultText(result));
      const content = result.isError ? resultText(result) : messageContent(modelParts(result));
      if (callId === undefined) return content;
      const status = result.isError ? 'error' : 'success';
      return new ToolMessage({ content, artifact: result, tool_call_id: callId, name, status });
    },
  });
}

/** Text alone as a string (what every chat model takes); media as LangChain's standard data blocks. */
function messageContent(parts: readonly ModelPart[]): string | ContentPart[] {
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => part.text).join('\n');
  return parts.map((part) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: mediaKind(part.mimeType), mimeType: part.mimeType, data: part.data },
  );
}

function mediaKind(mimeType: string): 'image' | 'audio' | 'file' {
  if (mimeType.startsWith('image/')) return 'image';
  return mimeType.startsWith('audio/') ? 'audio' : 'file';
}
