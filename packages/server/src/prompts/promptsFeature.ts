/**
 * The prompts feature: the prompt registry, `prompts/list` and `prompts/get`.
 * @module
 */

import type { GetPromptResult, ListPromptsResult } from '@mcpkit/core';
import { Method } from '@mcpkit/core';
import { formatIssues, isPromiseLike } from '@mcpkit/core/internal';
import { CompletionFeature, type CompletionSources } from '../completion/completionFeature.js';
import { Feature, type FeatureHandlers, type FeatureHost } from '../feature.js';
import type { RequestContext } from '../kernel/context.js';
import type { ItemList } from '../listChanged.js';
import { type InputRequiredResult, isInputRequired } from '../mrtr/signal.js';
import { listResult, PagedCollection } from '../pagination.js';
import { invalidParams, requireString, stringRecord } from '../params.js';
import { type PromptConfig, type PromptHandler, RegisteredPrompt, toGetPromptResult } from './prompt.js';

/**
 * How `McpServer` gets its prompt support; see {@link promptSupport}.
 *
 * @example
 * ```ts
 * const support: PromptSupport = promptSupport;
 * ```
 */
export type PromptSupport = (host: FeatureHost) => PromptsFeature;

/**
 * Prompt support for `McpServer`, given as its `prompts` option: `server.prompt()`, `prompts/list`,
 * `prompts/get` and completion of prompt arguments. It is a value to pass rather than built in so
 * that servers without prompts bundle neither the prompt nor the completion code.
 *
 * @example
 * ```ts
 * import { McpServer, promptSupport } from '@mcpkit/server';
 * const server = new McpServer({ name: 'prompts', version: '1.0.0' }, { prompts: promptSupport });
 * server.prompt('greet', () => 'Say hello');
 * ```
 */
export const promptSupport: PromptSupport = (host) => new PromptsFeature(host);

/**
 * The prompt registry and the `prompts/*` handlers.
 *
 * @example
 * ```ts
 * const prompts = new PromptsFeature(host);
 * prompts.register('greet', {}, () => 'Hello');
 * ```
 */
export class PromptsFeature extends Feature {
  /** The registered prompts. */
  readonly registry = new PagedCollection<RegisteredPrompt>('p');
  protected readonly capability = { prompts: { listChanged: true } };
  readonly #list: ItemList;

  constructor(host: FeatureHost) {
    super(host);
    this.#list = { kind: 'prompt', items: this.registry, changed: (item) => host.changed('prompts', item) };
  }

  /** The completion feature over `sources`: built through prompt or resource support only. */
  createCompletion(sources: CompletionSources): CompletionFeature {
    return new CompletionFeature(this.host, sources);
  }

  /** Registers a prompt (see `McpServer.prompt`). */
  register(name: string, config: PromptConfig, handler: PromptHandler<any>): RegisteredPrompt {
    const duplicate = `A prompt named "${name}" is already registered`;
    return this.addItem(this.registry, 'prompts', name, duplicate, () => {
      return new RegisteredPrompt(this.#list, this.host.validator, name, config, handler);
    });
  }

  protected handlers(): FeatureHandlers {
    return {
      [Method.PromptsList]: (params): ListPromptsResult =>
        listResult('prompts', this.registry.page(params.cursor, this.host.pageSize)),
      [Method.PromptsGet]: (params, ctx) => this.#getPrompt(params, ctx),
    };
  }

  async #getPrompt(
    params: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<GetPromptResult | InputRequiredResult> {
    const name = requireString(params.name, 'prompts/get: "name"');
    const prompt = this.registry.find(name);
    if (!prompt) throw invalidParams(`Unknown prompt: "${name}"`);
    const state = prompt.state;
    const args = stringRecord(params.arguments, 'prompts/get: "arguments"');
    const missing = state.arguments.filter(
      (argument) => argument.required && !Object.hasOwn(args, argument.name),
    );
    if (missing.length > 0) {
      const names = missing.map((argument) => `"${argument.name}"`).join(', ');
      throw invalidParams(
        `Prompt "${name}" is missing required argument${missing.length > 1 ? 's' : ''} ${names}`,
      );
    }
    let value: unknown = args;
    if (state.schema) {
      const pending = state.schema.validate(args);
      const checked = isPromiseLike(pending) ? await pending : pending;
      if (!checked.valid) {
        throw invalidParams(
          `Invalid arguments for prompt "${name}":\n${formatIssues(checked.issues, 'list')}`,
        );
      }
      value = checked.value;
    }
    const returned = await state.handler(value, ctx);
    // An input-required result of the handler's own (2026-07-28) passes as it is.
    return isInputRequired(returned) ? returned : toGetPromptResult(returned, state.definition.description);
  }
}
