/**
 * The client a host makes for each server (again on each restart): the host's sampling and
 * elicitation hooks labelled with that server, its roots, and its policy as middleware.
 * @module
 */

import { APPS_CLIENT_CAPABILITIES } from '@mcpkit/apps';
import {
  type ClientRequestContext,
  type FormElicitationHandler,
  McpClient,
  type ProtocolEra,
  type SamplingHandler,
  type UrlElicitationHandler,
} from '@mcpkit/client';
import type { ElicitRequestFormParams, ElicitRequestURLParams, Implementation } from '@mcpkit/core';
import type { ServerEntry } from './config.js';
import { type AuditSink, audited } from './policy/audit.js';
import type { ConsentMemory } from './policy/consent.js';
import { itemBoundary } from './policy/items.js';
import { samplingHandler } from './policy/sampling.js';
import { toolBoundary } from './policy/tools.js';
import type { HostHooks, ModelCallback, ModelChooser, ServerPolicy } from './policy/types.js';

/** What every client of one host shares. */
export interface ClientFactoryOptions {
  readonly info: Implementation;
  readonly hooks: HostHooks;
  readonly model?: ModelCallback;
  readonly models: readonly string[];
  readonly chooseModel?: ModelChooser;
  /** Declare `sampling.tools`: the model takes a request's tools. */
  readonly samplingTools: boolean;
  readonly consent: ConsentMemory;
  readonly audit: AuditSink;
  /** The revision spoken to URL upstreams (see `McpHostOptions.protocolEra`). */
  readonly protocolEra?: ProtocolEra | undefined;
  /** Declare MCP Apps to every server (see `McpHostOptions.apps`). */
  readonly apps?: boolean;
  /** The longest an upstream request may run, progress or not (see `McpHostOptions.maxTotalTimeout`). */
  readonly maxTotalTimeout?: number | undefined;
}

/**
 * Makes the host's clients.
 *
 * @example
 * ```ts
 * const client = factory.create(entry, policy);
 * await client.connect(transport);
 * ```
 */
export class ClientFactory {
  /** One sampling handler per server for the host's lifetime, so its rate limit survives restarts. */
  private readonly samplers = new Map<string, SamplingHandler>();

  constructor(private readonly options: ClientFactoryOptions) {}

  /** A fresh client for `entry`, with `policy` enforced in its middleware. */
  create(entry: ServerEntry, policy: ServerPolicy): McpClient {
    const server = entry.name;
    const { hooks, model, consent, audit } = this.options;
    const client = new McpClient(this.options.info, {
      // The host's policies rest on 2025 sessions: a refused sampling or elicitation answers the
      // server with an error (2026-07-28 input rounds have no error answer), roots views are told
      // by list_changed, log levels are per session. So upstreams speak 2025 until those map.
      protocolEra: '2025',
      ...(entry.timeoutMs === undefined ? {} : { requestTimeout: entry.timeoutMs }),
      ...(this.options.maxTotalTimeout === undefined
        ? {}
        : { maxTotalTimeout: this.options.maxTotalTimeout }),
      ...(entry.kind === 'url' && this.options.protocolEra ? { protocolEra: this.options.protocolEra } : {}),
      ...(policy.roots ? { roots: policy.roots } : {}),
      ...(this.options.apps ? { capabilities: APPS_CLIENT_CAPABILITIES } : {}),
      ...(model ? { sampling: this.samplerOf(server, policy, model) } : {}),
      ...(model && this.options.samplingTools ? { samplingTools: true } : {}),
      ...(hooks.elicitation ? { elicitation: this.elicitation(server, hooks.elicitation) } : {}),
    });
    client.use(
      toolBoundary({ server, policy, autoApprove: entry.autoApprove, hooks, consent, audit }, client),
    );
    // Inside the tool boundary, so a refused prompt or resource is audited as denied.
    const items = itemBoundary(policy);
    return items ? client.use(items) : client;
  }

  private samplerOf(server: string, policy: ServerPolicy, model: ModelCallback): SamplingHandler {
    let handler = this.samplers.get(server);
    if (!handler) {
      const { models, hooks, consent, audit, chooseModel } = this.options;
      handler = samplingHandler({
        server,
        policy: policy.sampling ?? {},
        models,
        model,
        choose: chooseModel,
        hooks,
        consent,
        audit,
      });
      this.samplers.set(server, handler);
    }
    return handler;
  }

  private elicitation(
    server: string,
    hook: NonNullable<HostHooks['elicitation']>,
  ): { form: FormElicitationHandler; url: UrlElicitationHandler } {
    const run =
      (mode: 'form' | 'url') =>
      (params: ElicitRequestFormParams | ElicitRequestURLParams, context: ClientRequestContext) =>
        audited(
          this.options.audit,
          {
            server,
            operation: 'elicitation/create',
            item: mode,
            arguments: params,
            onBehalfOf: context.onBehalfOf,
          },
          async () => hook({ server, mode, params, signal: context.signal, onBehalfOf: context.onBehalfOf }),
        );
    return { form: run('form'), url: run('url') };
  }
}
