/**
 * The prompt and resource boundary of one server: `policy.prompts` and `policy.resources` allow
 * and deny lists (`*` patterns) keep items out of the listings, and a request for one that is not
 * offered is refused before it is sent, as for tools: the server never hears of it.
 * @module
 */
import type { ClientMiddleware } from '@mcpkit/client';
import { ErrorCode, McpError, type Prompt, type Resource, type ResourceTemplate } from '@mcpkit/core';
import { PolicyDenial } from './audit.js';
import { matchesAny } from './patterns.js';
import type { ItemFilter, ServerPolicy } from './types.js';

/**
 * Whether `filter` lets `key` (a prompt name, a resource URI or a template's `uriTemplate`) through.
 *
 * @example
 * ```ts
 * offered({ deny: ['secret_*'] }, 'secret_plan'); // false
 * ```
 */
export function offered(filter: ItemFilter | undefined, key: string): boolean {
  if (!filter) return true;
  if (filter.allow && !matchesAny(filter.allow, key)) return false;
  return !matchesAny(filter.deny, key);
}

/**
 * The middleware, or none when the policy filters neither prompts nor resources (no cost then).
 *
 * @example
 * ```ts
 * const boundary = itemBoundary({ prompts: { deny: ['internal_*'] } });
 * if (boundary) client.use(boundary);
 * ```
 */
export function itemBoundary(policy: ServerPolicy): ClientMiddleware | undefined {
  const { prompts, resources } = policy;
  if (!prompts && !resources) return undefined;
  return (ctx, next) => {
    if (ctx.direction !== 'send') return next();
    const params = ctx.params;
    switch (ctx.method) {
      case 'prompts/list':
        return filtered(next, 'prompts', (prompt: Prompt) => offered(prompts, prompt.name));
      case 'resources/list':
        return filtered(next, 'resources', (resource: Resource) => offered(resources, resource.uri));
      case 'resources/templates/list':
        return filtered(next, 'resourceTemplates', (template: ResourceTemplate) =>
          offered(resources, template.uriTemplate),
        );
      case 'prompts/get':
        return offered(prompts, String(params.name)) ? next() : refuse('prompt', String(params.name));
      case 'resources/read':
      case 'resources/subscribe':
        return offered(resources, String(params.uri)) ? next() : refuse('resource', String(params.uri));
      case 'completion/complete': {
        const ref = params.ref as { type?: string; name?: string; uri?: string } | undefined;
        if (ref?.type === 'ref/prompt' && !offered(prompts, String(ref.name)))
          return refuse('prompt', String(ref.name));
        if (ref?.type === 'ref/resource' && !offered(resources, String(ref.uri)))
          return refuse('resource', String(ref.uri));
        return next();
      }
      default:
        return next();
    }
  };
}

function filtered<T>(
  next: () => Promise<unknown>,
  key: string,
  keep: (item: T) => boolean,
): Promise<unknown> {
  return next().then((result) => {
    const list = result as Record<string, T[]>;
    return { ...list, [key]: (list[key] ?? []).filter(keep) };
  });
}

/** Refused as the server would answer an unknown item; audited as denied. */
function refuse(kind: 'prompt' | 'resource', key: string): Promise<never> {
  const error =
    kind === 'prompt'
      ? new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${key}`)
      : new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${key}`);
  return Promise.reject(new PolicyDenial(`${kind} "${key}" is not offered by policy`, error));
}
