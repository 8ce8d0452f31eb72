/**
 * Resource and resource template registration: configurations, reader types, the handles
 * `server.resource()` and `server.resourceTemplate()` return, and the immutable state a read uses.
 * @module
 */
import type { Annotations, Icon, Meta, Resource, ResourceTemplate } from '@mcpkit/core';
import { type Completer, type Completers, checkCompleters } from '../completion/complete.js';
import type { RequestContext } from '../kernel/context.js';
import { type ItemList, ListedItem } from '../listChanged.js';
import { checkAnnotations, checkIconsAndMeta, checkOptionalString, cloneJson } from '../tools/metadata.js';
import type { ReadResourceReturn } from './readResult.js';
import { uriProblem } from './uri.js';
import { UriTemplate } from './uriTemplate.js';

/**
 * Metadata of a static resource. `name` defaults to the URI.
 *
 * @example
 * ```ts
 * const config: ResourceConfig = { name: 'readme', mimeType: 'text/markdown', annotations: { audience: ['user'] } };
 * ```
 */
export interface ResourceConfig {
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** `audience`, `priority` (0 to 1), `lastModified` (ISO 8601). */
  annotations?: Annotations;
  icons?: Icon[];
  /** Raw size in bytes, if known. */
  size?: number;
  _meta?: Meta;
}

/**
 * Reads a static resource.
 *
 * @example
 * ```ts
 * declare function fetchNotes(auth: AuthInfo | undefined): Promise<{ markdown: string }>;
 * const read: ResourceReader = async (uri, ctx) => (await fetchNotes(ctx.authInfo)).markdown;
 * ```
 */
export type ResourceReader = (
  uri: string,
  ctx: RequestContext,
) => ReadResourceReturn | Promise<ReadResourceReturn>;

/**
 * Changes for {@link RegisteredResource.update}; a member set to `undefined` is removed.
 *
 * @example
 * ```ts
 * declare const resource: RegisteredResource;
 * resource.update({ description: 'Refreshed hourly', size: 2048 });
 * ```
 */
export interface ResourceUpdate extends ResourceConfig {
  uri?: string;
  read?: ResourceReader;
}

/**
 * Everything a read of a static resource uses.
 *
 * @example
 * ```ts
 * const { read, definition } = resource.state;
 * ```
 */
export interface ResourceState {
  readonly definition: Resource;
  readonly read: ResourceReader;
  readonly config: ResourceConfig;
}

/**
 * A registered static resource. Changes send one debounced `notifications/resources/list_changed`.
 *
 * @example
 * ```ts
 * const readme = server.resource('file:///README.md', { mimeType: 'text/markdown' }, () => '# Demo');
 * readme.update({ description: 'Project overview' });
 * server.notifyResourceUpdated('file:///README.md');
 * ```
 */
export class RegisteredResource extends ListedItem<ResourceState> {
  /** @internal Use `server.resource()`. */
  constructor(list: ItemList, uri: string, config: ResourceConfig, read: ResourceReader) {
    super(list, buildResourceState(uri, config, read), 'uri');
  }

  /** The resource's URI. */
  get uri(): string {
    return this.state.definition.uri;
  }

  /**
   * Changes the resource's metadata, URI or reader.
   *
   * @throws {TypeError} for an invalid change or a URI already registered; nothing changes then.
   * @example
   * ```ts
   * declare const resource: RegisteredResource;
   * resource.update({ mimeType: 'application/json' });
   * ```
   */
  update(changes: ResourceUpdate): this {
    return this.rebuild(changes, 'read', buildResourceState);
  }
}

function checkCommonMetadata(what: string, config: ResourceConfig): void {
  if (typeof config !== 'object' || config === null)
    throw new TypeError(`${what}: the config must be an object`);
  for (const field of ['name', 'title', 'description', 'mimeType'] as const) {
    checkOptionalString(what, field, config[field]);
  }
  checkIconsAndMeta(what, config);
  checkAnnotations(what, config.annotations);
}

function buildResourceState(uri: string, config: ResourceConfig, read: ResourceReader): ResourceState {
  if (typeof uri === 'string' && UriTemplate.isTemplate(uri)) {
    throw new TypeError(
      `Resource "${uri}" looks like a URI template: register it with server.resourceTemplate()`,
    );
  }
  const problem = uriProblem(uri);
  if (problem) throw new TypeError(`Invalid resource URI ${JSON.stringify(uri)}: it ${problem}`);
  const what = `Resource "${uri}"`;
  if (typeof read !== 'function') throw new TypeError(`${what}: the reader must be a function`);
  checkCommonMetadata(what, config);
  if (config.size !== undefined && !(Number.isSafeInteger(config.size) && config.size >= 0)) {
    throw new TypeError(`${what}: "size" must be a non-negative integer (bytes)`);
  }
  const definition: Record<string, unknown> = { uri, name: config.name ?? uri };
  copyMetadata(definition, config);
  if (config.size !== undefined) definition.size = config.size;
  if (config._meta !== undefined) definition._meta = cloneJson(config._meta);
  return Object.freeze({ definition: definition as Resource, read, config: { ...config } });
}

function copyMetadata(
  target: Record<string, unknown>,
  config: ResourceConfig | ResourceTemplateConfig,
): void {
  if (config.title !== undefined) target.title = config.title;
  if (config.description !== undefined) target.description = config.description;
  if (config.mimeType !== undefined) target.mimeType = config.mimeType;
  if (config.annotations !== undefined) target.annotations = cloneJson(config.annotations);
  if (config.icons !== undefined) target.icons = cloneJson(config.icons);
}

// ---------------------------------------------------------------------------------------------
// Templates

/** The `{...}` expressions of a template string. */
type Expressions<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}`
  ? Expression | Expressions<Rest>
  : never;

type OptionalOperator = '#' | '.' | '/' | ';' | '?' | '&';
type WithoutOperator<E> = E extends `${OptionalOperator | '+'}${infer Body}` ? Body : E;
type VariableOf<V> = V extends `${infer Name}*` ? Name : V extends `${infer Name}:${string}` ? Name : V;
type VariablesOf<List> = List extends `${infer Head},${infer Tail}`
  ? VariableOf<Head> | VariablesOf<Tail>
  : VariableOf<List>;
type RequiredExpression<E> = E extends `${OptionalOperator}${string}` ? never : E;
type OptionalExpression<E> = E extends `${OptionalOperator}${string}` ? E : never;

/**
 * The variable names of a URI template string, e.g. `'id'` for `'test://template/{id}/data'`.
 *
 * @example
 * ```ts
 * type Names = TemplateVariableName<'weather://{country}/{city}{?units}'>; // 'country' | 'city' | 'units'
 * ```
 */
export type TemplateVariableName<T extends string> = string extends T
  ? string
  : VariablesOf<WithoutOperator<Expressions<T>>>;

/**
 * The variables a matched URI yields. Simple (`{x}`) and reserved (`{+x}`) expressions are always
 * present; the others (`{?x}`, `{/x}`, `{#x}`...) may be absent from a URI. A value is a list when
 * the expression is exploded (`{x*}`) or the URI holds a comma-separated list.
 *
 * @example
 * ```ts
 * type Vars = TemplateVariables<'search://{index}{?q}'>; // { index: string | string[]; q?: string | string[] }
 * ```
 */
export type TemplateVariables<T extends string> = string extends T
  ? Readonly<Record<string, string | string[]>>
  : {
      readonly [K in VariablesOf<WithoutOperator<RequiredExpression<Expressions<T>>>>]: string | string[];
    } & {
      readonly [K in VariablesOf<WithoutOperator<OptionalExpression<Expressions<T>>>>]?: string | string[];
    };

/**
 * Metadata, completers and listing of a resource template.
 *
 * @example
 * ```ts
 * const ids = ['1', '2', '3'];
 * const config: ResourceTemplateConfig<'id'> = {
 *   name: 'record',
 *   mimeType: 'application/json',
 *   complete: { id: (value) => ids.filter((id) => id.startsWith(value)) },
 *   list: async () => ids.map((id) => ({ uri: `db://records/${id}`, name: `record ${id}` })),
 * };
 * ```
 */
export interface ResourceTemplateConfig<Name extends string = string>
  extends Omit<ResourceTemplate, 'uriTemplate'> {
  /** Completers of the template's variables, for `completion/complete` with `ref/resource`. */
  complete?: Completers<Name>;
  /** The concrete resources to show in `resources/list` (after the static ones). */
  list?: (ctx: RequestContext) => readonly Resource[] | Promise<readonly Resource[]>;
}

/**
 * Reads a resource whose URI matched a template.
 *
 * @example
 * ```ts
 * declare function load(id: string): object;
 * const read: TemplateReader<{ readonly id: string | string[] }> = (uri, { id }) => JSON.stringify(load(String(id)));
 * ```
 */
export type TemplateReader<Variables = Readonly<Record<string, string | string[]>>> = (
  uri: string,
  variables: Variables,
  ctx: RequestContext,
) => ReadResourceReturn | Promise<ReadResourceReturn>;

/**
 * Changes for {@link RegisteredResourceTemplate.update}; a member set to `undefined` is removed.
 *
 * @example
 * ```ts
 * declare const template: RegisteredResourceTemplate;
 * template.update({ description: 'Records, newest first' });
 * ```
 */
export interface ResourceTemplateUpdate extends Partial<ResourceTemplateConfig> {
  uriTemplate?: string;
  read?: TemplateReader<any>;
}

/**
 * Everything a read, listing or completion through a template uses.
 *
 * @example
 * ```ts
 * const variables = template.state.template.match(uri);
 * ```
 */
export interface ResourceTemplateState {
  readonly definition: ResourceTemplate;
  readonly template: UriTemplate;
  readonly read: TemplateReader<any>;
  readonly complete: Readonly<Record<string, Completer | undefined>>;
  readonly list: ResourceTemplateConfig['list'];
  readonly config: ResourceTemplateConfig;
}

/**
 * A registered resource template. Changes send one debounced
 * `notifications/resources/list_changed`.
 *
 * @example
 * ```ts
 * declare function load(id: string): string;
 * const records = server.resourceTemplate('db://records/{id}', { name: 'record' }, (uri, { id }) => load(String(id)));
 * records.disable();
 * ```
 */
export class RegisteredResourceTemplate extends ListedItem<ResourceTemplateState> {
  /** @internal Use `server.resourceTemplate()`. */
  constructor(
    list: ItemList,
    uriTemplate: string,
    config: ResourceTemplateConfig,
    read: TemplateReader<any>,
  ) {
    super(list, buildTemplateState(uriTemplate, config, read), 'uriTemplate');
  }

  /** The URI template. */
  get uriTemplate(): string {
    return this.state.definition.uriTemplate;
  }

  /**
   * Changes the template's metadata, template string, completers, listing or reader.
   *
   * @throws {TypeError} for an invalid change or a template already registered; nothing changes.
   * @example
   * ```ts
   * declare const template: RegisteredResourceTemplate;
   * template.update({ list: undefined }); // stop listing concrete resources
   * ```
   */
  update(changes: ResourceTemplateUpdate): this {
    return this.rebuild(changes, 'read', buildTemplateState);
  }
}

/** The template with every expression removed: what must read as an absolute URI prefix. */
function literalParts(uriTemplate: string): string {
  let out = '';
  let depth = 0;
  for (const char of uriTemplate) {
    if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += char;
  }
  return out;
}

function buildTemplateState(
  uriTemplate: string,
  config: ResourceTemplateConfig,
  read: TemplateReader<any>,
): ResourceTemplateState {
  if (typeof uriTemplate !== 'string' || !UriTemplate.isTemplate(uriTemplate)) {
    throw new TypeError(
      `Invalid resource template ${JSON.stringify(uriTemplate)}: it has no {variable}; register a fixed URI with server.resource()`,
    );
  }
  const what = `Resource template "${uriTemplate}"`;
  const template = new UriTemplate(uriTemplate);
  const problem = uriProblem(literalParts(uriTemplate));
  if (problem) throw new TypeError(`${what}: its fixed parts must form an absolute URI: it ${problem}`);
  if (typeof read !== 'function') throw new TypeError(`${what}: the reader must be a function`);
  checkCommonMetadata(what, config);
  if (typeof config.name !== 'string') throw new TypeError(`${what}: "name" is required`);
  if (config.list !== undefined && typeof config.list !== 'function') {
    throw new TypeError(`${what}: "list" must be a function`);
  }
  checkCompleters(what, config.complete, template.variableNames);
  const definition: Record<string, unknown> = { uriTemplate, name: config.name };
  copyMetadata(definition, config);
  if (config._meta !== undefined) definition._meta = cloneJson(config._meta);
  return Object.freeze({
    definition: definition as ResourceTemplate,
    template,
    read,
    complete: { ...config.complete },
    list: config.list,
    config: { ...config },
  });
}
