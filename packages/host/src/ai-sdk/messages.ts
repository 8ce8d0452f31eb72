/**
 * A sampling request's messages in the AI SDK's shapes, and the model's reply back in MCP's:
 * text, images and audio, and (2025-11-25) tool uses and their results.
 * @module
 */
import type {
  CreateMessageResult,
  JsonObject,
  SamplingMessage,
  SamplingMessageContentBlock,
  ToolResultContent,
} from '@mcpkit/core';
import type { FinishReason, ModelMessage } from 'ai';
import { aiSdkModelOutput } from './output.js';

type UserPart = Exclude<Extract<ModelMessage, { role: 'user' }>['content'], string>[number];
type AssistantPart = Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number];
type ToolPart = Extract<ModelMessage, { role: 'tool' }>['content'][number];

/**
 * The AI SDK messages of a sampling conversation. A user message's `tool_result` blocks become a
 * `tool` message (named after the `tool_use` they answer) ahead of the rest of that message.
 *
 * @example
 * ```ts
 * toModelMessages([{ role: 'user', content: { type: 'text', text: 'Hi' } }]); // [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]
 * ```
 */
export function toModelMessages(messages: readonly SamplingMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  const out: ModelMessage[] = [];
  for (const message of messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    if (message.role === 'assistant') {
      out.push({ role: 'assistant', content: blocks.map((block) => assistantPart(block, toolNames)) });
      continue;
    }
    const results = blocks.filter((block): block is ToolResultContent => block.type === 'tool_result');
    if (results.length > 0) out.push({ role: 'tool', content: results.map((r) => toolPart(r, toolNames)) });
    const rest = blocks.filter((block) => block.type !== 'tool_result');
    if (rest.length > 0) out.push({ role: 'user', content: rest.map(userPart) });
  }
  return out;
}

function userPart(block: SamplingMessageContentBlock): UserPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', image: block.data, mediaType: block.mimeType };
    case 'audio':
      return { type: 'file', data: block.data, mediaType: block.mimeType };
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

function assistantPart(block: SamplingMessageContentBlock, toolNames: Map<string, string>): AssistantPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      toolNames.set(block.id, block.name);
      return { type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.input };
    case 'image':
    case 'audio':
      return { type: 'file', data: block.data, mediaType: block.mimeType };
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

function toolPart(block: ToolResultContent, toolNames: ReadonlyMap<string, string>): ToolPart {
  return {
    type: 'tool-result',
    toolCallId: block.toolUseId,
    toolName: toolNames.get(block.toolUseId) ?? 'unknown',
    output: aiSdkModelOutput(block),
  };
}

/** MCP's stop reasons for the AI SDK's finish reasons; others pass through as the provider said. */
const STOP_REASONS: Partial<Record<FinishReason, CreateMessageResult['stopReason']>> = {
  stop: 'endTurn',
  length: 'maxTokens',
  'tool-calls': 'toolUse',
};

/**
 * What {@link fromGenerateText} reads of `generateText`'s result.
 *
 * @example
 * ```ts
 * const reply: ModelReply = { text: 'Hi', toolCalls: [], finishReason: 'stop', response: { modelId: 'small' } };
 * ```
 */
export interface ModelReply {
  readonly text: string;
  readonly toolCalls: ReadonlyArray<{ toolCallId: string; toolName: string; input: unknown }>;
  readonly finishReason: FinishReason;
  readonly response?: { readonly modelId?: string };
}

/**
 * The model's reply as a sampling result: its text, then its tool calls as `tool_use` blocks.
 *
 * @example
 * ```ts
 * const result = fromGenerateText(await generateText({ model, prompt: 'Hi' }), 'small');
 * ```
 */
export function fromGenerateText(reply: ModelReply, model: string): CreateMessageResult {
  const content: SamplingMessageContentBlock[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    content.push({
      type: 'tool_use',
      id: call.toolCallId,
      name: call.toolName,
      input: (call.input ?? {}) as JsonObject,
    });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  return {
    role: 'assistant',
    content: content.length === 1 ? content[0]! : content,
    model: reply.response?.modelId ?? model,
    stopReason: STOP_REASONS[reply.finishReason] ?? reply.finishReason,
  };
}
