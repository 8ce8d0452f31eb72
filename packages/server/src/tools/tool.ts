/**
 * Tool registration: the configuration an author writes, the handle `server.tool()` returns, and
 * the immutable state a call reads.
 *
 * Everything a call needs (the wire definition, the compiled argument and output checks, the
 * handler) is built once at registration into one frozen `ToolState`. An update builds a new state
 * and swaps it in whole, so a call in flight never sees half an update, and a failed update leaves
 * the tool as it was.
 * @module
 */
import type {
  CallToolResult,
  Icon,
  JsonSchemaValidator,
  Meta,
  Tool,
  ToolAnnotations,
  ToolExecution,
  ToolJsonSchema,
} from '@mcpkit/core';
import type { InferSchemaInput, InferSchemaOutput, RequireJsonSchemaConverter } from '@mcpkit/schema';
import type { RequestContext } from '../kernel/context.js';
import { type ItemList, ListedItem } from '../listChanged.js';
import type { InputRequiredResult } from '../mrtr/signal.js';
import { checkHeaderAnnotations } from './headerAnnotations.js';
import { checkIconsAndMeta, checkOptionalString, checkToolAnnotations, cloneJson } from './metadata.js';
import { type PreparedSchema, prepareObjectSchema, type SchemaInput } from './schemas.js';
import { toolNameProblem } from './toolName.js';

/**
 * What `server.tool()` takes besides the name and handler. Every member is optional.
 *
 * @example
 * ```ts
 * const config: ToolConfig = {
 *   title: 'Echo',
 *   description: 'Repeats the text it is given',
 *   inputSchema: z.object({ text: z.string() }),
 *   annotations: { readOnlyHint: true },
 * };
 * ```
 */
export interface ToolConfig<
  In extends SchemaInput | undefined = SchemaInput | undefined,
  Out extends SchemaInput | undefined = SchemaInput | undefined,
> {
  /** Display name. */
  title?: string;
  /** What the tool does, for the model. */
  description?: string;
  /**
   * The arguments: a Standard Schema (zod 4, valibot wrapped in `toStandardJsonSchema`, arktype...)
   * or a JSON Schema object with `"type": "object"`. Absent: the tool takes no arguments. An
   * unwrapped valibot schema is a compile error (it cannot describe itself as JSON Schema).
   */
  inputSchema?: In & RequireJsonSchemaConverter<In>;
  /** The shape of the structured result; when set, every successful result must have one. */
  outputSchema?: Out & RequireJsonSchemaConverter<Out>;
  /** Behaviour hints (read-only, destructive...). Clients treat them as untrusted. */
  annotations?: ToolAnnotations;
  /** Icons (`https:` or `data:` sources only). */
  icons?: Icon[];
  /** Task support (`forbidden` by default). */
  execution?: ToolExecution;
  /**
   * For calls run as tasks: text a host may give the model at once, while the task runs
   * (`_meta["io.modelcontextprotocol/model-immediate-response"]` of the `CreateTaskResult`).
   */
  modelImmediateResponse?: string;
  _meta?: Meta;
}

/**
 * The arguments of a tool without an `inputSchema`: none.
 *
 * @example
 * ```ts
 * const handler: ToolHandler<EmptyArguments> = () => 'pong';
 * ```
 */
export type EmptyArguments = Record<string, never>;

/** `T`, or an open object when nothing more precise is known. */
type ObjectOr<T> = unknown extends T ? Record<string, unknown> : T;

/**
 * The arguments a handler receives for an `inputSchema`: a Standard Schema's output type, the type
 * of an `as const` JSON Schema literal, `Record<string, unknown>` for any other JSON Schema.
 *
 * @example
 * ```ts
 * const schema = z.object({ text: z.string() });
 * type Args = ToolArguments<typeof schema>; // { text: string }
 * ```
 */
export type ToolArguments<In> = [In] extends [undefined] ? EmptyArguments : ObjectOr<InferSchemaOutput<In>>;

/**
 * What a handler may return: anything without an `outputSchema`; with one, the structured value
 * (the schema's input type) or a full `CallToolResult`.
 *
 * @example
 * ```ts
 * const outputSchema = z.object({ celsius: z.number() });
 * type Returns = ToolReturn<typeof outputSchema>; // { celsius: number } | CallToolResult
 * ```
 */
export type ToolReturn<Out> = [Out] extends [undefined]
  ? unknown
  : ObjectOr<InferSchemaInput<Out>> | CallToolResult | InputRequiredResult;

/**
 * A tool's implementation.
 *
 * @example
 * ```ts
 * const echo: ToolHandler<{ text: string }> = ({ text }, ctx) => {
 *   ctx.log.debug(`echoing ${text.length} characters`);
 *   return text;
 * };
 * ```
 */
export type ToolHandler<Args = Record<string, unknown>, Return = unknown> = (
  args: Args,
  ctx: RequestContext,
) => Return | Promise<Return>;

/**
 * Changes for {@link RegisteredTool.update}. A member set to `undefined` is removed; members not
 * mentioned keep their value.
 *
 * @example
 * ```ts
 * declare const tool: RegisteredTool;
 * tool.update({ description: 'Now with emoji', annotations: undefined });
 * ```
 */
export interface ToolUpdate extends ToolConfig {
  /** A new name (must be valid and free). */
  name?: string;
  /** A new handler. Its argument type is not checked against a new `inputSchema`. */
  handler?: ToolHandler<any, unknown>;
}

/**
 * Everything a call reads, built once per registration or update.
 *
 * @example
 * ```ts
 * const { input, handler } = tool.state;
 * ```
 */
export interface ToolState {
  readonly definition: Tool;
  readonly input: PreparedSchema;
  readonly output: PreparedSchema | undefined;
  readonly handler: ToolHandler<any, unknown>;
  readonly config: ToolConfig;
}

/**
 * @internal What building a tool needs from the server that owns it.
 *
 * @example
 * ```ts
 * const context: ToolContext = { validator, emptyInput };
 * ```
 */
export interface ToolContext {
  readonly validator: JsonSchemaValidator;
  /** The compiled check of the empty argument schema, shared by every tool without one. */
  readonly emptyInput: PreparedSchema;
}

const TASK_SUPPORT = new Set(['forbidden', 'optional', 'required']);

/**
 * A registered tool. Enable, disable, update or remove it at any time: every initialized session
 * is told with one (debounced) `notifications/tools/list_changed`.
 *
 * @example
 * ```ts
 * const deploy = server.tool('deploy', { description: 'Deploys the app' }, () => 'deployed');
 * deploy.disable(); // hidden from tools/list; calls answer "unknown tool"
 * deploy.update({ description: 'Deploys the app to staging' });
 * deploy.enable();
 * deploy.remove();
 * ```
 */
export class RegisteredTool extends ListedItem<ToolState> {
  readonly #context: ToolContext;
  /** @internal Use `server.tool()`. */
  constructor(
    list: ItemList,
    context: ToolContext,
    name: string,
    config: ToolConfig,
    handler: ToolHandler<any, unknown>,
  ) {
    super(list, buildToolState(context, name, config, handler), 'name');
    this.#context = context;
  }

  /** The tool's name. */
  get name(): string {
    return this.state.definition.name;
  }

  /**
   * Changes the tool's metadata, schemas, name or handler. Everything is validated and compiled
   * before anything changes.
   *
   * @throws {TypeError} for an invalid change (bad name, schema, icon...) or a name already taken;
   *   the tool is then unchanged.
   * @example
   * ```ts
   * declare const tool: RegisteredTool;
   * tool.update({ description: 'Faster now', inputSchema: z.object({ text: z.string().max(1000) }) });
   * ```
   */
  update(changes: ToolUpdate): this {
    return this.rebuild(changes, 'handler', (name, config, handler) =>
      buildToolState(this.#context, name, config, handler),
    );
  }
}

/**
 * Validates a tool's name and metadata and compiles its schemas.
 *
 * @throws {TypeError} naming the tool and the problem.
 */
function buildToolState(
  context: ToolContext,
  name: string,
  config: ToolConfig,
  handler: ToolHandler<any, unknown>,
): ToolState {
  const nameProblem = toolNameProblem(name);
  if (nameProblem) throw new TypeError(`Invalid tool name ${JSON.stringify(name)}: it ${nameProblem}`);
  const what = `Tool "${name}"`;
  if (typeof handler !== 'function') throw new TypeError(`${what}: the handler must be a function`);
  if (typeof config !== 'object' || config === null)
    throw new TypeError(`${what}: the config must be an object`);
  checkOptionalString(what, 'title', config.title);
  checkOptionalString(what, 'description', config.description);
  checkOptionalString(what, 'modelImmediateResponse', config.modelImmediateResponse);
  checkIconsAndMeta(what, config);
  checkToolAnnotations(what, config.annotations);
  checkExecution(what, config.execution);
  const input =
    config.inputSchema === undefined
      ? context.emptyInput
      : prepareObjectSchema(config.inputSchema, 'input', context.validator, `${what} inputSchema`);
  checkHeaderAnnotations(what, input.json);
  const output =
    config.outputSchema === undefined
      ? undefined
      : prepareObjectSchema(config.outputSchema, 'output', context.validator, `${what} outputSchema`);
  const definition = toolDefinition(name, config, input.json, output?.json);
  return Object.freeze({ definition, input, output, handler, config: { ...config } });
}

function checkExecution(what: string, execution: unknown): void {
  if (execution === undefined) return;
  const taskSupport = (execution as { taskSupport?: unknown } | null)?.taskSupport;
  if (
    typeof execution !== 'object' ||
    execution === null ||
    (taskSupport !== undefined && !TASK_SUPPORT.has(taskSupport as string))
  ) {
    throw new TypeError(`${what}: execution.taskSupport must be "forbidden", "optional" or "required"`);
  }
}

/** The wire definition, members in the order the specification lists them, copied from the config. */
function toolDefinition(
  name: string,
  config: ToolConfig,
  inputSchema: ToolJsonSchema,
  outputSchema: ToolJsonSchema | undefined,
): Tool {
  const tool: Record<string, unknown> = { name };
  if (config.title !== undefined) tool.title = config.title;
  if (config.description !== undefined) tool.description = config.description;
  if (config.icons !== undefined) tool.icons = cloneJson(config.icons);
  tool.inputSchema = inputSchema;
  if (outputSchema !== undefined) tool.outputSchema = outputSchema;
  if (config.annotations !== undefined) tool.annotations = cloneJson(config.annotations);
  if (config.execution !== undefined) tool.execution = cloneJson(config.execution);
  if (config._meta !== undefined) tool._meta = cloneJson(config._meta);
  return tool as Tool;
}
