/**
 * The completion feature: `completion/complete` for prompt arguments and resource template
 * variables, answered by the completers registered with them.
 * @module
 */

import type { CompleteResult } from '@mcpkit/core';
import { Method } from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';
import { Feature, type FeatureHandlers, type FeatureHost } from '../feature.js';
import type { RequestContext } from '../kernel/context.js';
import type { PagedCollection } from '../pagination.js';
import { invalidParams, requireString, stringRecord } from '../params.js';
import type { RegisteredPrompt } from '../prompts/prompt.js';
import type { RegisteredResource, RegisteredResourceTemplate } from '../resources/resource.js';
import { type Completer, type CompletionValues, toCompleteResult } from './complete.js';

/**
 * The registries completion looks completers up in.
 *
 * @example
 * ```ts
 * const sources: CompletionSources = { prompts: prompts.registry, resources: res.resources, templates: res.templates };
 * ```
 */
export interface CompletionSources {
  /** Absent when the server has no prompt support. */
  readonly prompts?: PagedCollection<RegisteredPrompt> | undefined;
  /** Absent when the server has no resource support. */
  readonly resources?: PagedCollection<RegisteredResource> | undefined;
  readonly templates?: PagedCollection<RegisteredResourceTemplate> | undefined;
}

/**
 * The `completion/complete` handler; installed once a completer is registered. Only prompt and
 * resource support build it (`createCompletion`), so a server with neither does not bundle it.
 *
 * @example
 * ```ts
 * const completion = new CompletionFeature(host, sources);
 * completion.install();
 * ```
 */
export class CompletionFeature extends Feature {
  protected readonly capability = { completions: {} };

  readonly #sources: CompletionSources;
  constructor(host: FeatureHost, sources: CompletionSources) {
    super(host);
    this.#sources = sources;
  }

  protected handlers(): FeatureHandlers {
    return { [Method.CompletionComplete]: (params, ctx) => this.#complete(params, ctx) };
  }

  async #complete(params: Record<string, unknown>, ctx: RequestContext): Promise<CompleteResult> {
    const ref = params.ref;
    const argument = params.argument;
    if (!isRecord(ref) || !isRecord(argument)) {
      throw invalidParams('completion/complete needs "ref" and "argument" objects');
    }
    const argumentName = requireString(argument.name, 'completion/complete: "argument.name"');
    const value = requireString(argument.value, 'completion/complete: "argument.value"');
    const context = isRecord(params.context) ? params.context : undefined;
    const resolved = stringRecord(context?.arguments, 'completion/complete: "context.arguments"');
    const completer = this.#completerFor(ref, argumentName);
    if (!completer) return toCompleteResult([]);
    const returned: CompletionValues = await completer(value, { arguments: resolved }, ctx);
    return toCompleteResult(returned);
  }

  #completerFor(ref: Record<string, unknown>, argumentName: string): Completer | undefined {
    let completers: Readonly<Record<string, Completer | undefined>>;
    if (ref.type === 'ref/prompt') {
      const name = requireString(ref.name, 'completion/complete: "ref.name"');
      const prompt = this.#sources.prompts?.find(name);
      if (!prompt) throw invalidParams(`Unknown prompt: "${name}"`);
      completers = prompt.state.complete;
    } else if (ref.type === 'ref/resource') {
      const uri = requireString(ref.uri, 'completion/complete: "ref.uri"');
      const template = this.#sources.templates?.find(uri);
      if (!template) {
        if (this.#sources.resources?.find(uri)) return undefined;
        throw invalidParams(`Unknown resource template: "${uri}"`);
      }
      completers = template.state.complete;
    } else {
      throw invalidParams('completion/complete: "ref.type" must be "ref/prompt" or "ref/resource"');
    }
    return Object.hasOwn(completers, argumentName) ? completers[argumentName] : undefined;
  }
}
