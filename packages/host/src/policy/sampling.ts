/**
 * Sampling through the host: consent for the asking server, its rate limit, then the host's one
 * model with the request shaped by policy (model choice, `maxTokens` cap, `includeContext`).
 * @module
 */
import type { SamplingHandler } from '@mcpkit/client';
import { type CreateMessageRequestParams, McpError } from '@mcpkit/core';
import { type AuditSink, audited, PolicyDenial } from './audit.js';
import type { ConsentMemory } from './consent.js';
import type { HostHooks, ModelCallback, ModelChooser, SamplingPolicy } from './types.js';

/** The spec's error code for a sampling request the user rejected. */
const USER_REJECTED = -1;
const CONTEXT_ORDER = ['none', 'thisServer', 'allServers'] as const;

/** What one server's sampling handler needs. */
export interface SamplingBoundary {
  readonly server: string;
  readonly policy: SamplingPolicy;
  /** The host's models, best first. */
  readonly models: readonly string[];
  readonly model: ModelCallback;
  /** Picks among the allowed models; default {@link chooseModel}'s rule. */
  readonly choose?: ModelChooser | undefined;
  readonly hooks: HostHooks;
  readonly consent: ConsentMemory;
  readonly audit: AuditSink;
}

/**
 * The sampling handler of one server's client.
 *
 * @example
 * ```ts
 * new McpClient(info, { sampling: samplingHandler(boundary) });
 * ```
 */
export function samplingHandler(boundary: SamplingBoundary): SamplingHandler {
  const limiter = new WindowLimiter(boundary.policy.perMinute ?? 20, 60_000);
  const { server } = boundary;
  return (params, context) => {
    const what = {
      server,
      operation: 'sampling/createMessage' as const,
      item: 'sampling',
      arguments: params,
      onBehalfOf: context.onBehalfOf,
    };
    return audited(boundary.audit, what, async () => {
      if (!limiter.take(Date.now())) {
        const text = `Server "${server}" exceeded its sampling limit of ${limiter.limit} requests per minute`;
        throw new PolicyDenial(text, new McpError(-32000, text));
      }
      const ask = boundary.hooks.sampling;
      const allowed = await boundary.consent.decide(`sampling:${server}`, () => ask?.({ server, params }));
      if (!allowed) {
        const text = ask
          ? 'User rejected sampling request'
          : 'Sampling needs consent and this host has no one to ask';
        throw new PolicyDenial(text, new McpError(USER_REJECTED, text));
      }
      const model = pickModel(boundary, params);
      if (model === undefined) {
        const text = `No model is allowed for server "${server}"`;
        throw new PolicyDenial(text, new McpError(USER_REJECTED, text));
      }
      return boundary.model({
        server,
        model,
        params: shape(boundary.policy, params),
        signal: context.signal,
        onBehalfOf: context.onBehalfOf,
      });
    });
  };
}

/**
 * The host model for a request: the first allowed model that contains a hint's name (hints in
 * the server's order of preference), else the first allowed model.
 *
 * @example
 * ```ts
 * chooseModel({ models: ['claude-haiku', 'claude-sonnet'], policy: {} }, { modelPreferences: { hints: [{ name: 'sonnet' }] } }); // 'claude-sonnet'
 * ```
 */
export function chooseModel(
  boundary: Pick<SamplingBoundary, 'models' | 'policy'>,
  params: Pick<CreateMessageRequestParams, 'modelPreferences'>,
): string | undefined {
  const candidates = allowedModels(boundary);
  for (const hint of params.modelPreferences?.hints ?? []) {
    const wanted = hint.name?.toLowerCase();
    const found = wanted ? candidates.find((model) => model.toLowerCase().includes(wanted)) : undefined;
    if (found) return found;
  }
  return candidates[0];
}

/** The application's chooser (held to the allowed models), else the default rule. */
function pickModel(boundary: SamplingBoundary, params: CreateMessageRequestParams): string | undefined {
  if (!boundary.choose) return chooseModel(boundary, params);
  const models = allowedModels(boundary);
  const chosen = boundary.choose({ server: boundary.server, preferences: params.modelPreferences, models });
  return chosen !== undefined && models.includes(chosen) ? chosen : undefined;
}

function allowedModels(boundary: Pick<SamplingBoundary, 'models' | 'policy'>): string[] {
  const allowed = boundary.policy.models;
  return boundary.models.filter((model) => !allowed || allowed.includes(model));
}

/** Applies the `maxTokens` cap and narrows `includeContext` to what policy allows. */
function shape(policy: SamplingPolicy, params: CreateMessageRequestParams): CreateMessageRequestParams {
  const cap = policy.maxTokens;
  const widest = CONTEXT_ORDER.indexOf(policy.includeContext ?? 'none');
  const asked = params.includeContext === undefined ? -1 : CONTEXT_ORDER.indexOf(params.includeContext);
  return {
    ...params,
    ...(cap !== undefined && params.maxTokens > cap ? { maxTokens: cap } : {}),
    ...(asked > widest ? { includeContext: CONTEXT_ORDER[widest] } : {}),
  };
}

/**
 * A fixed-window counter: at most `limit` takes per window. (rate-limiter-flexible's entry point
 * requires `node:cluster`, and this package must run in browsers and workers too.)
 */
class WindowLimiter {
  private windowStart = 0;
  private used = 0;
  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(now: number): boolean {
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.used = 0;
    }
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }
}
