/**
 * The host's catalogue as AI SDK tools: each tool's JSON Schema as its input schema, `execute`
 * routed through the host (policy, consent, restarts) with the call's abort signal, and the
 * result mapped to what the model reads. A refused or failed call reaches the model as a tool
 * error, never as an exception that ends the loop.
 * @module
 */
import type { CallToolResult, Tool as McpTool } from '@mcpkit/core';
import { dynamicTool, type JSONSchema7, jsonSchema, type Tool, type ToolSet } from 'ai';
import { LiveTools } from '../agents/liveTools.js';
import type { ToolHost } from '../agents/toolHost.js';
import type { HostEntry } from '../catalogue/catalogue.js';
import { aiSdkModelOutput } from './output.js';

/**
 * The host's tools now, as an AI SDK `ToolSet` keyed by catalogue name (namespaced on collision,
 * denied tools absent). For a set that follows `list_changed`, see {@link liveAiSdkTools}.
 *
 * @example
 * ```ts
 * import { generateText, isStepCount, type LanguageModel } from 'ai';
 * import { aiSdkTools } from '@mcpkit/host/ai-sdk';
 *
 * declare const model: LanguageModel;
 * const { text } = await generateText({ model, tools: await aiSdkTools(host), stopWhen: isStepCount(5), prompt: 'Remember that Ada likes tea' });
 * ```
 */
export async function aiSdkTools(host: ToolHost): Promise<ToolSet> {
  return Object.fromEntries((await host.tools()).map((entry) => [entry.name, aiSdkTool(host, entry)]));
}

/**
 * A tool set that follows the host: `tools` is one object, updated in place when a server's
 * tools change or it restarts; `prepareStep` waits for a listing under way, so each step of
 * `generateText`/`streamText` (which read `tools` again at every step) offers the model the
 * tools as they are now. `close()` stops following.
 *
 * @example
 * ```ts
 * import { generateText, isStepCount, type LanguageModel } from 'ai';
 * declare const model: LanguageModel;
 * declare const prompt: string;
 * const live = await liveAiSdkTools(host);
 * const { text } = await generateText({ model, tools: live.tools, prepareStep: live.prepareStep, stopWhen: isStepCount(10), prompt });
 * live.close();
 * ```
 */
export interface LiveAiSdkTools {
  readonly tools: ToolSet;
  /** For `generateText`'s `prepareStep`: waits until the tools are current; changes nothing else. */
  readonly prepareStep: () => Promise<undefined>;
  /** Lists the host's tools again now. */
  refresh(): Promise<void>;
  close(): void;
}

/**
 * Opens a {@link LiveAiSdkTools} over a host.
 *
 * @example
 * ```ts
 * const live = await liveAiSdkTools(host);
 * Object.keys(live.tools); // ['echo', 'memory__create_entities', …]
 * ```
 */
export async function liveAiSdkTools(host: ToolHost): Promise<LiveAiSdkTools> {
  const tools: ToolSet = {};
  const live = await LiveTools.open(
    host,
    (entry) => aiSdkTool(host, entry),
    (current) => {
      for (const name of Object.keys(tools)) if (!current.has(name)) delete tools[name];
      for (const [name, tool] of current) tools[name] = tool;
    },
  );
  return {
    tools,
    prepareStep: async () => {
      await live.settled();
      return undefined;
    },
    refresh: () => live.refresh(),
    close: () => live.close(),
  };
}

/**
 * One catalogue tool as an AI SDK tool.
 *
 * @example
 * ```ts
 * const [first] = await host.tools();
 * const tools = { [first!.name]: aiSdkTool(host, first!) };
 * ```
 */
export function aiSdkTool(host: ToolHost, entry: HostEntry<McpTool>): Tool {
  return dynamicTool({
    ...(entry.description === undefined ? {} : { description: entry.description }),
    ...(entry.title === undefined ? {} : { title: entry.title }),
    // Which server offers it and its own name there, for the application (the model never sees these).
    metadata: { server: entry.server, tool: entry.original },
    inputSchema: jsonSchema(inputSchemaOf(entry)),
    execute: (input, { abortSignal }) =>
      host.callTool(
        entry.name,
        (input ?? {}) as Record<string, unknown>,
        abortSignal ? { signal: abortSignal } : {},
      ),
    toModelOutput: ({ output }) => aiSdkModelOutput(output as CallToolResult),
  });
}

/** The tool's JSON Schema; some providers insist on `properties` even when there are none. */
function inputSchemaOf(entry: McpTool): JSONSchema7 {
  return {
    ...(entry.inputSchema as JSONSchema7),
    properties: entry.inputSchema.properties ?? {},
  } as JSONSchema7;
}
