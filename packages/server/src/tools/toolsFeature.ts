/**
 * The tools feature: the tool registry, `tools/list` and `tools/call`.
 *
 * A call validates its arguments, runs the handler and builds the result. Every failure of the
 * tool itself (invalid arguments, a thrown error, output that breaks `outputSchema`) is an
 * `isError: true` result the model can read; only `UrlElicitationRequiredError` is answered as a
 * JSON-RPC error, as the specification requires. A synchronous validator and handler give a plain
 * result: no promise and no microtask per call.
 * @module
 */
import {
  type CallToolRequestParams,
  type CallToolResult,
  ErrorCode,
  type ListToolsResult,
  McpError,
  Method,
  MissingRequiredClientCapabilityError,
  UrlElicitationRequiredError,
  type ValidationResult,
} from '@mcpkit/core';
import { formatIssues, isPlainObject, isPromiseLike, isRecord, toError } from '@mcpkit/core/internal';
import { Feature, type FeatureHandlers, type FeatureHost } from '../feature.js';
import type { RequestContext } from '../kernel/context.js';
import type { ItemList } from '../listChanged.js';
import type { ServerMiddlewareContext } from '../middleware/context.js';
import { InputRequiredSignal, isInputRequired } from '../mrtr/signal.js';
import { listResult, PagedCollection } from '../pagination.js';
import { invalidParams, requireString } from '../params.js';
import { prepareObjectSchema } from './schemas.js';
import {
  RegisteredTool,
  type ToolConfig,
  type ToolContext,
  type ToolHandler,
  type ToolState,
} from './tool.js';
import {
  invalidArgumentsResult,
  isCallToolResult,
  structuredResult,
  ToolError,
  thrownErrorText,
  toCallToolResult,
  toolErrorResult,
} from './toolResult.js';

const EMPTY_INPUT_SCHEMA = { type: 'object', additionalProperties: false } as const;

/**
 * How the tools feature behaves.
 *
 * @example
 * ```ts
 * const options: ToolsFeatureOptions = {
 *   maskErrors: true,
 *   wantsTask: (_tool, params) => params.task !== undefined,
 *   runAsTask: (tool, args, ctx) => tools.execute(tool, args, ctx),
 * };
 * ```
 */
export interface ToolsFeatureOptions {
  /** Hide the messages of unexpected errors (see `maskToolErrors`). */
  readonly maskErrors: boolean;
  /** Runs a plain call instead of {@link ToolsFeature.execute} (a subclass's `executeTool`). */
  readonly execute?: (
    tool: RegisteredTool,
    args: Record<string, unknown>,
    ctx: RequestContext,
  ) => CallToolResult | Promise<CallToolResult>;
  /**
   * Whether a call runs as a task (the server's task engine decides: a `task` param under
   * 2025-11-25, the tasks extension under 2026-07-28).
   */
  readonly wantsTask: (tool: RegisteredTool, params: Record<string, unknown>, ctx: RequestContext) => boolean;
  /** Runs a call as a task (see `wantsTask`). */
  readonly runAsTask: (
    tool: RegisteredTool,
    args: Record<string, unknown>,
    ctx: RequestContext,
    params: CallToolRequestParams,
  ) => unknown;
}

/**
 * The tool registry and the `tools/*` handlers.
 *
 * @example
 * ```ts
 * const tools = new ToolsFeature(host, { maskErrors: true, wantsTask, runAsTask });
 * tools.register('ping', {}, () => 'pong');
 * ```
 */
export class ToolsFeature extends Feature {
  protected readonly capability = { tools: { listChanged: true } };
  /** The registered tools. */
  readonly registry = new PagedCollection<RegisteredTool>('t');
  readonly #list: ItemList;
  readonly #context: ToolContext;
  #firstPage: ListToolsResult | undefined;

  readonly #options: ToolsFeatureOptions;
  constructor(host: FeatureHost, options: ToolsFeatureOptions) {
    super(host);
    this.#options = options;
    this.#context = {
      validator: host.validator,
      emptyInput: prepareObjectSchema(EMPTY_INPUT_SCHEMA, 'input', host.validator, 'The empty input schema'),
    };
    this.#list = { kind: 'tool', items: this.registry, changed: () => this.#changed() };
    host.provideToolHeaders((name) => this.registry.get(name)?.definition.inputSchema);
  }

  /** Registers a tool (see `McpServer.tool`). */
  register(name: string, config: ToolConfig, handler: ToolHandler<any>): RegisteredTool {
    this.#firstPage = undefined;
    return this.addItem(this.registry, 'tools', name, `A tool named "${name}" is already registered`, () => {
      return new RegisteredTool(this.#list, this.#context, name, config, handler);
    });
  }

  protected handlers(): FeatureHandlers {
    return {
      [Method.ToolsList]: (params) => this.#listTools(params),
      [Method.ToolsCall]: (params, ctx) => this.#callTool(params, ctx),
    };
  }

  /** Validates the arguments, runs the handler and builds the result (see the module comment). */
  execute(
    tool: RegisteredTool,
    args: Record<string, unknown>,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    const state = tool.state;
    return this.#whenChecked(state, state.input.validate(args), ctx);
  }

  /**
   * What an unexpected error of a middleware around `tools/call` becomes: the same masked
   * `isError` result and `onError` report as the tool's own error. A protocol error (a guard's
   * deliberate refusal) is rethrown, to reach the peer with its code and `data`.
   */
  middlewareFailed(params: Record<string, unknown>, error: unknown, ctx: RequestContext): CallToolResult {
    if (error instanceof McpError || error instanceof InputRequiredSignal) throw error;
    return this.#errorResult(typeof params.name === 'string' ? params.name : '', error, ctx);
  }

  #changed(): void {
    this.#firstPage = undefined;
    this.host.changed('tools');
  }

  #listTools(params: Record<string, unknown>): ListToolsResult {
    const cursor = params.cursor;
    if (cursor === undefined && this.#firstPage) return this.#firstPage;
    const result: ListToolsResult = listResult('tools', this.registry.page(cursor, this.host.pageSize));
    if (cursor === undefined) this.#firstPage = result;
    return result;
  }

  #callTool(params: Record<string, unknown>, ctx: RequestContext): unknown {
    const tool = this.#route(params, ctx);
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    if (!this.host.hasMiddleware) return this.#dispatchCall(tool, args, params, ctx);
    if (this.#asTask(tool, params, ctx) || this.#options.execute) {
      // The call runs elsewhere (a task, a subclass's executeTool): the chain wraps it whole.
      const ran = this.host.runMiddleware(Method.ToolsCall, params, ctx, (c) => {
        const routed = this.#route(c.params, ctx);
        return this.#dispatchCall(
          routed,
          (c.params.arguments ?? {}) as Record<string, unknown>,
          c.params,
          ctx,
        );
      });
      return Promise.resolve(ran).catch((error: unknown) => this.middlewareFailed(params, error, ctx));
    }
    return this.#whenChecked(tool.state, tool.state.input.validate(args), ctx, params);
  }

  /**
   * The one place an argument check that may still be pending is awaited. Invalid arguments are the
   * tool's error result; valid ones go through the middleware chain when the call's `params` are
   * given (a plain call with middleware), else straight to the handler.
   */
  #whenChecked(
    state: ToolState,
    checked: ValidationResult | PromiseLike<ValidationResult>,
    ctx: RequestContext,
    params?: Record<string, unknown>,
    checkOutput = true,
  ): CallToolResult | Promise<CallToolResult> {
    if (isPromiseLike(checked)) {
      return Promise.resolve(checked).then((result) =>
        this.#whenChecked(state, result, ctx, params, checkOutput),
      );
    }
    if (!checked.valid) return invalidArgumentsResult(state.definition.name, checked.issues);
    return params
      ? this.#callValidated(state, params, checked.value, ctx)
      : this.#runHandler(state, checked.value, ctx, checkOutput);
  }

  /**
   * Routing: the tool by name (a hidden one is unknown), arguments that are an object, a plain
   * call to a task-only tool refused; a refusal here passes no middleware.
   */
  #route(params: Record<string, unknown>, ctx: RequestContext): RegisteredTool {
    const name = requireString(params.name, 'tools/call: "name"');
    const tool = this.registry.find(name);
    if (!tool || this.host.hidesTool(name, params, ctx)) throw unknownToolError(name);
    const args = params.arguments ?? {};
    if (!isRecord(args)) throw invalidParams('tools/call: "arguments" must be an object');
    if (tool.state.definition.execution?.taskSupport === 'required' && !this.#asTask(tool, params, ctx)) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool "${name}" can only be called as a task: add "task" to the tools/call params`,
      );
    }
    return tool;
  }

  #dispatchCall(
    tool: RegisteredTool,
    args: Record<string, unknown>,
    params: Record<string, unknown>,
    ctx: RequestContext,
  ): unknown {
    if (this.#asTask(tool, params, ctx)) {
      return this.#options.runAsTask(tool, args, ctx, params as CallToolRequestParams);
    }
    const execute = this.#options.execute;
    return execute ? execute(tool, args, ctx) : this.execute(tool, args, ctx);
  }

  /** Whether this call runs as a task (see {@link ToolsFeatureOptions.wantsTask}). */
  #asTask(tool: RegisteredTool, params: Record<string, unknown>, ctx: RequestContext): boolean {
    return this.#options.wantsTask(tool, params, ctx);
  }

  /**
   * A plain call with middleware installed: the chain runs after argument validation (it sees the
   * validated arguments) and before output validation, so no middleware can make the server send
   * `structuredContent` that breaks the tool's `outputSchema`. A middleware that changes the call's
   * name or arguments has it routed and validated again.
   */
  #callValidated(
    routed: ToolState,
    params: Record<string, unknown>,
    value: unknown,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult> {
    const args = value as Record<string, unknown>;
    const called = args === params.arguments ? params : { ...params, arguments: args };
    let state = routed;
    const end = (c: ServerMiddlewareContext): unknown => {
      const now = c.params;
      if (now === called || (now.name === called.name && now.arguments === args)) {
        return this.#runHandler(state, args, ctx, false);
      }
      state = this.#route(now, ctx).state;
      const again = state.input.validate((now.arguments ?? {}) as Record<string, unknown>);
      return this.#whenChecked(state, again, ctx, undefined, false);
    };
    const ran = this.host.runMiddleware(Method.ToolsCall, called, ctx, end);
    if (!(ran instanceof Promise)) return this.#checked(state, ran, ctx);
    return ran.then(
      (result) => this.#checked(state, result, ctx),
      (error: unknown) => this.middlewareFailed(called, error, ctx),
    );
  }

  /** The chain's answer to a plain call, with structured output checked once the chain is done. */
  #checked(state: ToolState, result: unknown, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
    return state.output ? this.#structured(state, result, ctx) : (result as CallToolResult);
  }

  /** Runs the handler on arguments that passed their check. */
  #runHandler(
    state: ToolState,
    args: unknown,
    ctx: RequestContext,
    checkOutput: boolean,
  ): CallToolResult | Promise<CallToolResult> {
    let returned: unknown;
    try {
      returned = state.handler(args, ctx);
    } catch (error) {
      return this.#failed(state, error, ctx);
    }
    if (!isPromiseLike(returned)) return this.#finish(state, returned, ctx, checkOutput);
    return Promise.resolve(returned).then(
      (value) => this.#finish(state, value, ctx, checkOutput),
      (error: unknown) => this.#failed(state, error, ctx),
    );
  }

  /**
   * What the handler returned, as a `CallToolResult`; a failure to build one is the tool's error.
   * Without `checkOutput` (a middleware runs behind), structured output is only shaped: it is
   * checked once the middleware is done.
   */
  #finish(
    state: ToolState,
    returned: unknown,
    ctx: RequestContext,
    checkOutput: boolean,
  ): CallToolResult | Promise<CallToolResult> {
    try {
      // An input-required result of the handler's own (2026-07-28), or a task it started itself
      // (`server.tasks.run`, e.g. after input-required rounds), is no tool result: it passes as it is.
      if (isInputRequired(returned) || isCreatedTask(returned)) return returned as unknown as CallToolResult;
      if (!state.output) return toCallToolResult(returned);
      if (!checkOutput) {
        return isCallToolResult(returned) || !isPlainObject(returned)
          ? toCallToolResult(returned)
          : structuredResult(returned);
      }
      return this.#structured(state, returned, ctx).then(undefined, (error: unknown) =>
        this.#failed(state, error, ctx),
      );
    } catch (error) {
      return this.#failed(state, error, ctx);
    }
  }

  /** A thrown error becomes an `isError` result, except one the specification answers as an error. */
  #failed(state: ToolState, error: unknown, ctx: RequestContext): CallToolResult {
    // Answered as errors: a question waiting for the next input-required round (2026-07-28), which
    // the runner takes, and errors the specification defines.
    if (
      error instanceof UrlElicitationRequiredError ||
      error instanceof MissingRequiredClientCapabilityError ||
      error instanceof InputRequiredSignal
    )
      throw error;
    return this.#errorResult(state.definition.name, error, ctx);
  }

  /**
   * Tool `name`'s error as an `isError` result; one it did not throw on purpose (a `ToolError`
   * is), and that no cancellation explains, also goes to `onError`.
   */
  #errorResult(name: string, error: unknown, ctx: RequestContext): CallToolResult {
    if (!(error instanceof ToolError) && !ctx.request.cancelled && !ctx.request.aborted) {
      this.host.reportError(toError(error), ctx.session);
    }
    return toolErrorResult(thrownErrorText(name, error, this.#options.maskErrors));
  }

  /** Checks structured output against `outputSchema`; a mismatch is the server's bug, reported. */
  async #structured(state: ToolState, returned: unknown, ctx: RequestContext): Promise<CallToolResult> {
    const name = state.definition.name;
    if (isInputRequired(returned) || isCreatedTask(returned)) return returned as unknown as CallToolResult;
    const result = isCallToolResult(returned) ? returned : undefined;
    if (result?.isError) return result;
    const structured = result ? result.structuredContent : isPlainObject(returned) ? returned : undefined;
    if (structured === undefined) {
      return this.#bug(
        ctx,
        `Tool "${name}" declares an outputSchema but returned no structured content.`,
        `Return an object matching the outputSchema of tool "${name}" (or a result with structuredContent)`,
      );
    }
    const pending = state.output!.validate(structured);
    const checked = isPromiseLike(pending) ? await pending : pending;
    if (!checked.valid) {
      return this.#bug(
        ctx,
        `Tool "${name}" returned structured content that does not match its outputSchema:\n${formatIssues(checked.issues, 'list')}`,
        `Tool "${name}" returned structured content that does not match its outputSchema`,
      );
    }
    const value = checked.value as Record<string, unknown>;
    if (!result) return structuredResult(value);
    return value === structured ? result : { ...result, structuredContent: value };
  }

  #bug(ctx: RequestContext, message: string, report: string): CallToolResult {
    this.host.reportError(new Error(report), ctx.session);
    return toolErrorResult(message);
  }
}

/**
 * The refusal of a call to a tool the session does not know, whether it is not registered or a
 * middleware hides it: the same error either way, so a hidden tool cannot be told apart.
 *
 * @example
 * ```ts
 * throw unknownToolError('admin_reset');
 * ```
 */
export function unknownToolError(name: string): McpError {
  return invalidParams(`Unknown tool: "${name}"`);
}

/**
 * A `CreateTaskResult` a handler returned from `server.tasks.run`: `{ task }` under 2025-11-25, the
 * flat `resultType: "task"` form of the tasks extension under 2026-07-28.
 */
function isCreatedTask(value: unknown): boolean {
  return (
    isRecord(value) && value.content === undefined && (value.resultType === 'task' || isRecord(value.task))
  );
}
