/**
 * The resources feature: static resources and resource templates, `resources/list`,
 * `resources/templates/list`, `resources/read`, and per-session subscriptions with
 * `notifications/resources/updated`.
 * @module
 */
import {
  ErrorCode,
  type ListResourceTemplatesResult,
  McpError,
  Method,
  Notification,
  type ReadResourceResult,
} from '@mcpkit/core';
import { CompletionFeature, type CompletionSources } from '../completion/completionFeature.js';
import { Feature, type FeatureHandlers, type FeatureHost } from '../feature.js';
import type { RequestContext } from '../kernel/context.js';
import type { ItemList } from '../listChanged.js';
import { type InputRequiredResult, isInputRequired } from '../mrtr/signal.js';
import { listResult, PagedCollection } from '../pagination.js';
import { invalidParams, requireString } from '../params.js';
import { listResources } from './listing.js';
import { toReadResourceResult } from './readResult.js';
import {
  RegisteredResource,
  RegisteredResourceTemplate,
  type ResourceConfig,
  type ResourceReader,
  type ResourceTemplateConfig,
  type TemplateReader,
} from './resource.js';
import { uriProblem } from './uri.js';

/**
 * How `McpServer` gets its resource support; see {@link resourceSupport}.
 *
 * @example
 * ```ts
 * const support: ResourceSupport = resourceSupport;
 * ```
 */
export type ResourceSupport = (host: FeatureHost, maxSubscriptionsPerSession: number) => ResourcesFeature;

/**
 * Resource support for `McpServer`, given as its `resources` option: static resources, URI
 * templates, reads and subscriptions. It is a value to pass rather than built in so that servers
 * without resources do not bundle it (the URI-template engine is the largest optional part).
 *
 * @example
 * ```ts
 * import { McpServer, resourceSupport } from '@mcpkit/server';
 * const server = new McpServer({ name: 'docs', version: '1.0.0' }, { resources: resourceSupport });
 * server.resource('test://hello', () => 'Hello!');
 * ```
 */
export const resourceSupport: ResourceSupport = (host, maxSubscriptionsPerSession) =>
  new ResourcesFeature(host, maxSubscriptionsPerSession);

function resourceNotFound(uri: string): McpError {
  return new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

/**
 * The resource and template registries and the `resources/*` handlers.
 *
 * @example
 * ```ts
 * const resources = new ResourcesFeature(host, 1000);
 * resources.register('test://hello', {}, () => 'Hello');
 * resources.notifyUpdated('test://hello');
 * ```
 */
export class ResourcesFeature extends Feature {
  /** The static resources. */
  readonly resources = new PagedCollection<RegisteredResource>('r');
  /** The resource templates. */
  readonly templates = new PagedCollection<RegisteredResourceTemplate>('u');
  readonly #resourceList: ItemList;
  readonly #templateList: ItemList;
  protected readonly capability = { resources: { subscribe: true, listChanged: true } };

  readonly #maxSubscriptions: number;
  constructor(
    host: FeatureHost,
    /** Most URIs one session may subscribe to. */
    maxSubscriptions: number,
  ) {
    super(host);
    this.#maxSubscriptions = maxSubscriptions;
    this.#resourceList = {
      kind: 'resource',
      items: this.resources,
      changed: () => host.changed('resources'),
    };
    this.#templateList = {
      kind: 'resource template',
      items: this.templates,
      changed: (item) => host.changed('resources', item),
    };
  }

  /** The completion feature over `sources`: built through prompt or resource support only. */
  createCompletion(sources: CompletionSources): CompletionFeature {
    return new CompletionFeature(this.host, sources);
  }

  /** Registers a static resource (see `McpServer.resource`). */
  register(uri: string, config: ResourceConfig, read: ResourceReader): RegisteredResource {
    const duplicate = `A resource with URI "${uri}" is already registered`;
    return this.addItem(this.resources, 'resources', uri, duplicate, () => {
      return new RegisteredResource(this.#resourceList, uri, config, read);
    });
  }

  /** Registers a resource template (see `McpServer.resourceTemplate`). */
  registerTemplate(
    uriTemplate: string,
    config: ResourceTemplateConfig<any>,
    read: TemplateReader<any>,
  ): RegisteredResourceTemplate {
    const duplicate = `A resource template "${uriTemplate}" is already registered`;
    return this.addItem(this.templates, 'resources', uriTemplate, duplicate, () => {
      return new RegisteredResourceTemplate(this.#templateList, uriTemplate, config, read);
    });
  }

  protected handlers(): FeatureHandlers {
    return {
      [Method.ResourcesList]: (params, ctx) =>
        listResources(this.resources, this.templates, params.cursor, this.host.pageSize, ctx),
      [Method.ResourcesTemplatesList]: (params): ListResourceTemplatesResult =>
        listResult('resourceTemplates', this.templates.page(params.cursor, this.host.pageSize)),
      [Method.ResourcesRead]: (params, ctx) => this.#read(params, ctx),
      [Method.ResourcesSubscribe]: (params, ctx) => this.#subscribe(params, ctx),
      [Method.ResourcesUnsubscribe]: (params, ctx) => this.#unsubscribe(params, ctx),
    };
  }

  /** Tells every session subscribed to `uri` that the resource changed. */
  notifyUpdated(uri: string): void {
    this.host.broadcast(
      Notification.ResourcesUpdated,
      { uri },
      (session) => session.subscriptions?.has(uri) === true,
      { subscribedTo: uri },
    );
  }

  async #read(
    params: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<ReadResourceResult | InputRequiredResult> {
    const uri = requestedUri(params, Method.ResourcesRead);
    const resource = this.resources.find(uri);
    if (resource) {
      const state = resource.state;
      return readResult(await state.read(uri, ctx), uri, state.definition.mimeType);
    }
    for (const template of this.templates.list()) {
      const state = template.state;
      const variables = state.template.match(uri);
      if (variables) return readResult(await state.read(uri, variables, ctx), uri, state.definition.mimeType);
    }
    throw resourceNotFound(uri);
  }

  #isKnown(uri: string): boolean {
    if (this.resources.find(uri)) return true;
    return this.templates.list().some((template) => template.state.template.match(uri) !== undefined);
  }

  #subscribe(params: Record<string, unknown>, ctx: RequestContext): Record<string, never> {
    const uri = requestedUri(params, Method.ResourcesSubscribe);
    if (!this.#isKnown(uri)) throw resourceNotFound(uri);
    const session = ctx.session;
    if (!session.subscriptions) session.subscriptions = new Set();
    if (!session.subscriptions.has(uri) && session.subscriptions.size >= this.#maxSubscriptions) {
      throw invalidParams(
        `This session already has ${this.#maxSubscriptions} subscriptions: unsubscribe from some first`,
      );
    }
    session.subscriptions.add(uri);
    return {};
  }

  #unsubscribe(params: Record<string, unknown>, ctx: RequestContext): Record<string, never> {
    const uri = requireString(params.uri, 'resources/unsubscribe: "uri"');
    ctx.session.subscriptions?.delete(uri);
    return {};
  }
}

function requestedUri(params: Record<string, unknown>, method: string): string {
  const uri = requireString(params.uri, `${method}: "uri"`);
  const problem = uriProblem(uri);
  if (problem) throw invalidParams(`${method}: "uri" ${problem}`, { uri });
  return uri;
}

/** A reader's answer as a result; an input-required result of its own (2026-07-28) passes as it is. */
function readResult(
  read: unknown,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult | InputRequiredResult {
  return isInputRequired(read) ? read : toReadResourceResult(read, uri, mimeType);
}
