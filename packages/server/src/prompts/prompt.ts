/**
 * Prompt registration: configuration, argument typing, the handle `server.prompt()` returns, and
 * turning a handler's return into a `GetPromptResult`.
 *
 * Arguments are declared either as the protocol's `PromptArgument` list, or as an object schema
 * (Standard Schema or JSON Schema) whose properties become the listed arguments; the schema then
 * also validates the values (which clients always send as strings).
 * @module
 */
import type {
  GetPromptResult,
  Icon,
  JsonSchemaValidator,
  Meta,
  Prompt,
  PromptArgument,
  PromptMessage,
  ToolJsonSchema,
} from '@mcpkit/core';
import { isStandardSchema } from '@mcpkit/core/internal';
import type { InferSchemaOutput, RequireJsonSchemaConverter } from '@mcpkit/schema';
import { type Completer, type Completers, checkCompleters } from '../completion/complete.js';
import type { RequestContext } from '../kernel/context.js';
import { type ItemList, ListedItem } from '../listChanged.js';
import type { InputRequiredResult } from '../mrtr/signal.js';
import { checkIconsAndMeta, checkOptionalString, cloneJson } from '../tools/metadata.js';
import { type PreparedSchema, prepareObjectSchema, type SchemaInput } from '../tools/schemas.js';
import { isContentBlock } from '../tools/toolResult.js';

/**
 * How a prompt declares its arguments: a `PromptArgument` list, or an object schema.
 *
 * @example
 * ```ts
 * const asList: PromptArgumentsInput = [{ name: 'code', required: true }];
 * const asSchema: PromptArgumentsInput = z.object({ code: z.string(), language: z.string().optional() });
 * ```
 */
export type PromptArgumentsInput = readonly PromptArgument[] | SchemaInput;

type ObjectOr<T> = unknown extends T ? Record<string, unknown> : T;

type ArgumentsFromList<List extends readonly PromptArgument[]> = {
  [Entry in List[number] as Entry extends { readonly required: true } ? Entry['name'] : never]: string;
} & {
  [Entry in List[number] as Entry extends { readonly required: true } ? never : Entry['name']]?: string;
};

/**
 * The arguments a prompt handler receives: required ones as `string`, optional ones as
 * `string | undefined` for a list; a schema's output type for a schema.
 *
 * @example
 * ```ts
 * type Args = PromptArguments<readonly [{ name: 'code'; required: true }, { name: 'style' }]>;
 * // { code: string; style?: string }
 * ```
 */
export type PromptArguments<A> = [A] extends [undefined]
  ? Record<string, never>
  : A extends readonly PromptArgument[]
    ? ArgumentsFromList<A>
    : ObjectOr<InferSchemaOutput<A>>;

/**
 * The argument names of a prompt, for typing its completers.
 *
 * @example
 * ```ts
 * type Names = PromptArgumentName<readonly [{ name: 'code' }]>; // 'code'
 * ```
 */
export type PromptArgumentName<A> = [A] extends [undefined]
  ? never
  : A extends readonly PromptArgument[]
    ? A[number]['name']
    : Extract<keyof PromptArguments<A>, string>;

/**
 * What `server.prompt()` takes besides the name and handler.
 *
 * @example
 * ```ts
 * const config: PromptConfig = {
 *   title: 'Code review',
 *   description: 'Asks for a review of a snippet',
 *   arguments: [{ name: 'code', description: 'The code', required: true }],
 * };
 * ```
 */
export interface PromptConfig<A extends PromptArgumentsInput | undefined = PromptArgumentsInput | undefined> {
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Meta;
  /** Argument descriptors, or a schema (an unwrapped valibot schema is a compile error, as for tools). */
  arguments?: A & RequireJsonSchemaConverter<A>;
  /** Completers of arguments, for `completion/complete` with `ref/prompt`. */
  complete?: Completers<PromptArgumentName<A> & string>;
}

/**
 * What a prompt handler may return: a string (one user text message), one message, a list of
 * messages, or a full `GetPromptResult`.
 *
 * @example
 * ```ts
 * const reply: PromptReturn = [{ role: 'user', content: { type: 'text', text: 'Review this' } }];
 * ```
 */
export type PromptReturn =
  | string
  | PromptMessage
  | readonly PromptMessage[]
  | GetPromptResult
  /** 2026-07-28: ask the client yourself (see docs/input-required.md); passed as it is. */
  | InputRequiredResult;

/**
 * A prompt's implementation.
 *
 * @example
 * ```ts
 * const review: PromptHandler<{ code: string }> = ({ code }) => `Please review:\n${code}`;
 * ```
 */
export type PromptHandler<Args = Record<string, string | undefined>> = (
  args: Args,
  ctx: RequestContext,
) => PromptReturn | Promise<PromptReturn>;

/**
 * Changes for {@link RegisteredPrompt.update}; a member set to `undefined` is removed.
 *
 * @example
 * ```ts
 * const prompt = server.prompt('review', () => 'Review this code');
 * prompt.update({ description: 'Asks for a thorough review' });
 * ```
 */
export interface PromptUpdate extends PromptConfig {
  name?: string;
  handler?: PromptHandler<any>;
}

/**
 * Everything a `prompts/get` reads, built once per registration or update.
 *
 * @example
 * ```ts
 * const { arguments: declared, handler } = prompt.state;
 * ```
 */
export interface PromptState {
  readonly definition: Prompt;
  readonly arguments: readonly PromptArgument[];
  /** The schema check, when arguments were declared by a schema. */
  readonly schema: PreparedSchema | undefined;
  readonly handler: PromptHandler<any>;
  readonly complete: Readonly<Record<string, Completer | undefined>>;
  readonly config: PromptConfig;
}

/**
 * A registered prompt. Changes send one debounced `notifications/prompts/list_changed`.
 *
 * @example
 * ```ts
 * const review = server.prompt('review', { arguments: [{ name: 'code', required: true }] }, ({ code }) => `Review:\n${code}`);
 * review.update({ title: 'Code review' });
 * ```
 */
export class RegisteredPrompt extends ListedItem<PromptState> {
  readonly #validator: JsonSchemaValidator;
  /** @internal Use `server.prompt()`. */
  constructor(
    list: ItemList,
    validator: JsonSchemaValidator,
    name: string,
    config: PromptConfig,
    handler: PromptHandler<any>,
  ) {
    super(list, buildPromptState(validator, name, config, handler), 'name');
    this.#validator = validator;
  }

  /** The prompt's name. */
  get name(): string {
    return this.state.definition.name;
  }

  /**
   * Changes the prompt's metadata, arguments, completers, name or handler.
   *
   * @throws {TypeError} for an invalid change or a name already taken; nothing changes then.
   * @example
   * ```ts
   * declare const prompt: RegisteredPrompt;
   * prompt.update({ name: 'code-review' });
   * ```
   */
  update(changes: PromptUpdate): this {
    return this.rebuild(changes, 'handler', (name, config, handler) =>
      buildPromptState(this.#validator, name, config, handler),
    );
  }
}

function buildPromptState(
  validator: JsonSchemaValidator,
  name: string,
  config: PromptConfig,
  handler: PromptHandler<any>,
): PromptState {
  if (typeof name !== 'string' || name.length === 0)
    throw new TypeError('A prompt name must be a non-empty string');
  const what = `Prompt "${name}"`;
  if (typeof handler !== 'function') throw new TypeError(`${what}: the handler must be a function`);
  if (typeof config !== 'object' || config === null)
    throw new TypeError(`${what}: the config must be an object`);
  checkOptionalString(what, 'title', config.title);
  checkOptionalString(what, 'description', config.description);
  checkIconsAndMeta(what, config);
  const { list, schema } = declaredArguments(config.arguments, validator, what);
  checkCompleters(
    what,
    config.complete,
    list.map((argument) => argument.name),
  );
  const definition: Record<string, unknown> = { name };
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  if (list.length > 0) definition.arguments = list;
  if (config.icons !== undefined) definition.icons = cloneJson(config.icons);
  if (config._meta !== undefined) definition._meta = cloneJson(config._meta);
  return Object.freeze({
    definition: definition as Prompt,
    arguments: list,
    schema,
    handler,
    complete: { ...config.complete },
    config: { ...config },
  });
}

function declaredArguments(
  declared: PromptArgumentsInput | undefined,
  validator: JsonSchemaValidator,
  what: string,
): { list: PromptArgument[]; schema: PreparedSchema | undefined } {
  if (declared === undefined) return { list: [], schema: undefined };
  if (Array.isArray(declared)) return { list: checkArgumentList(declared, what), schema: undefined };
  if (!isStandardSchema(declared) && (typeof declared !== 'object' || declared === null)) {
    throw new TypeError(`${what}: "arguments" must be a PromptArgument list or an object schema`);
  }
  const schema = prepareObjectSchema(declared as SchemaInput, 'input', validator, `${what} arguments`);
  return { list: argumentsOfSchema(schema.json), schema };
}

function checkArgumentList(list: readonly unknown[], what: string): PromptArgument[] {
  const seen = new Set<string>();
  return list.map((entry, index) => {
    const argument = entry as PromptArgument;
    if (
      typeof argument !== 'object' ||
      argument === null ||
      typeof argument.name !== 'string' ||
      !argument.name
    ) {
      throw new TypeError(`${what}: arguments[${index}] needs a non-empty string "name"`);
    }
    if (seen.has(argument.name))
      throw new TypeError(`${what}: argument "${argument.name}" is declared twice`);
    seen.add(argument.name);
    checkOptionalString(what, `arguments[${index}].title`, argument.title);
    checkOptionalString(what, `arguments[${index}].description`, argument.description);
    if (argument.required !== undefined && typeof argument.required !== 'boolean') {
      throw new TypeError(`${what}: arguments[${index}].required must be a boolean`);
    }
    return cloneJson(argument);
  });
}

/** The listed arguments of an object schema: its properties, with titles and descriptions. */
function argumentsOfSchema(json: ToolJsonSchema): PromptArgument[] {
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  const properties = json.properties ?? {};
  return Object.entries(properties).map(([name, property]) => {
    const argument: PromptArgument = { name };
    if (typeof property.title === 'string') argument.title = property.title;
    if (typeof property.description === 'string') argument.description = property.description;
    if (required.has(name)) argument.required = true;
    return argument;
  });
}

/**
 * The `prompts/get` result for what a handler returned; the prompt's description is added when
 * the result has none.
 *
 * @throws {TypeError} for any other shape (a server bug, answered as an internal error).
 * @example
 * ```ts
 * toGetPromptResult('Review this', 'Asks for a review');
 * // { description: 'Asks for a review', messages: [{ role: 'user', content: { type: 'text', text: 'Review this' } }] }
 * ```
 */
export function toGetPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  let result: GetPromptResult;
  if (typeof value === 'string') {
    result = { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  } else if (isPromptMessage(value)) {
    result = { messages: [value] };
  } else if (Array.isArray(value) && value.every(isPromptMessage)) {
    result = { messages: value };
  } else if (isGetPromptResult(value)) {
    result = value;
  } else {
    throw new TypeError(
      'A prompt handler must return a string, a message ({ role, content }), a list of messages, or { messages }',
    );
  }
  if (description === undefined || result.description !== undefined) return result;
  return { description, ...result };
}

function isPromptMessage(value: unknown): value is PromptMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { role, content } = value as { role?: unknown; content?: unknown };
  return (role === 'user' || role === 'assistant') && isContentBlock(content);
}

function isGetPromptResult(value: unknown): value is GetPromptResult {
  const messages = (value as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) && messages.every(isPromptMessage);
}
