/**
 * The plain requests and notification readers of each server feature, one typed method each: one
 * page of a list, a read, a prompt, a completion; resource updates, log messages, completed
 * URL elicitations. {@link McpClient} builds on them (caches, validation, subscriptions).
 * @module
 */
import type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingMessageNotificationParams,
  OutgoingRequestOptions,
  ReadResourceResult,
} from '@mcpkit/core';
import { Client } from './client.js';

/**
 * The base of {@link McpClient}: thin typed wrappers of `request` and `onNotification`. Not
 * exported from the package; construct an `McpClient`.
 *
 * @example
 * ```ts
 * const client = new McpClient({ name: 'my-host', version: '1.0.0' });
 * const { tools } = await client.listTools();
 * ```
 */
export abstract class FeatureClient extends Client {
  /**
   * Lists one page of tools.
   *
   * @example
   * ```ts
   * const { tools, nextCursor } = await client.listTools();
   * ```
   */
  listTools(cursor?: string, options?: OutgoingRequestOptions): Promise<ListToolsResult> {
    return this.request<ListToolsResult>('tools/list', cursor === undefined ? {} : { cursor }, options);
  }

  /**
   * Lists one page of resources.
   *
   * @example
   * ```ts
   * const { resources } = await client.listResources();
   * ```
   */
  listResources(cursor?: string, options?: OutgoingRequestOptions): Promise<ListResourcesResult> {
    return this.request<ListResourcesResult>(
      'resources/list',
      cursor === undefined ? {} : { cursor },
      options,
    );
  }

  /**
   * Lists one page of resource templates.
   *
   * @example
   * ```ts
   * const { resourceTemplates } = await client.listResourceTemplates();
   * ```
   */
  listResourceTemplates(
    cursor?: string,
    options?: OutgoingRequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.request<ListResourceTemplatesResult>(
      'resources/templates/list',
      cursor === undefined ? {} : { cursor },
      options,
    );
  }

  /**
   * Reads a resource.
   *
   * @throws {McpError} `-32002` when the server has no such resource.
   * @example
   * ```ts
   * const { contents } = await client.readResource('file:///README.md');
   * ```
   */
  readResource(uri: string, options?: OutgoingRequestOptions): Promise<ReadResourceResult> {
    return this.request<ReadResourceResult>('resources/read', { uri }, options);
  }

  /**
   * Calls `listener` with the URI of each `notifications/resources/updated`.
   *
   * @example
   * ```ts
   * client.onResourceUpdated((uri) => console.log('changed:', uri));
   * ```
   */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.onNotification('notifications/resources/updated', (params) => {
      if (typeof params.uri === 'string') listener(params.uri);
    });
  }

  /**
   * Lists one page of prompts.
   *
   * @example
   * ```ts
   * const { prompts } = await client.listPrompts();
   * ```
   */
  listPrompts(cursor?: string, options?: OutgoingRequestOptions): Promise<ListPromptsResult> {
    return this.request<ListPromptsResult>('prompts/list', cursor === undefined ? {} : { cursor }, options);
  }

  /**
   * Gets a prompt with its arguments filled in.
   *
   * @example
   * ```ts
   * const { messages } = await client.getPrompt('greet', { name: 'Ada' });
   * ```
   */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: OutgoingRequestOptions,
  ): Promise<GetPromptResult> {
    return this.request<GetPromptResult>(
      'prompts/get',
      args === undefined ? { name } : { name, arguments: args },
      options,
    );
  }

  /**
   * Asks for completions of a prompt argument or a template variable.
   *
   * @example
   * ```ts
   * const { completion } = await client.complete({
   *   ref: { type: 'ref/prompt', name: 'greet' },
   *   argument: { name: 'name', value: 'A' },
   * });
   * ```
   */
  complete(params: CompleteRequestParams, options?: OutgoingRequestOptions): Promise<CompleteResult> {
    return this.request<CompleteResult>('completion/complete', params, options);
  }

  /**
   * Calls `listener` with each `notifications/message` from the server.
   *
   * @example
   * ```ts
   * client.onLog((log) => console.error(`[${log.level}]`, log.data));
   * ```
   */
  onLog(listener: (message: LoggingMessageNotificationParams) => void): () => void {
    return this.onNotification('notifications/message', (params) =>
      listener(params as LoggingMessageNotificationParams),
    );
  }

  /**
   * Calls `listener` when the server reports a URL-mode elicitation complete.
   *
   * @example
   * ```ts
   * declare function closeBrowserPrompt(elicitationId: string): void;
   * client.onElicitationComplete((id) => closeBrowserPrompt(id));
   * ```
   */
  onElicitationComplete(listener: (elicitationId: string) => void): () => void {
    return this.onNotification('notifications/elicitation/complete', (params) => {
      if (typeof params.elicitationId === 'string') listener(params.elicitationId);
    });
  }
}
