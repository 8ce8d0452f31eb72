/**
 * Tool calls: the 2026-07-28 retry after a `HeaderMismatch`, and the check of structured output
 * against the tool's `outputSchema` (validators compiled once per tool list).
 * @module
 */
import {
  type CallToolRequestParams,
  type CallToolResult,
  type CompiledValidator,
  LocalError,
  McpError,
  type OutgoingRequestOptions,
} from '@mcpkit/core';
import { formatIssues } from '@mcpkit/core/internal';
import { defaultValidator } from '@mcpkit/schema';
import type { Client } from './client.js';
import type { ListCatalogue } from './listCatalogue.js';
import type { McpClientOptions } from './mcpClientOptions.js';

/** `HeaderMismatch` (2026-07-28): the HTTP headers did not match the body. */
const HEADER_MISMATCH = -32020;

/** What a tool call may carry besides the request options. */
export type CallToolOptions = OutgoingRequestOptions & { meta?: Record<string, unknown> };

/**
 * Sends `tools/call` and checks what comes back.
 *
 * @example
 * ```ts
 * const calls = new ToolCalls(client, catalogue, {});
 * const result = await calls.call('add', { a: 1, b: 2 });
 * ```
 */
export class ToolCalls {
  private readonly outputValidators = new Map<string, CompiledValidator | null>();

  constructor(
    private readonly client: Client,
    private readonly catalogue: ListCatalogue,
    /** Read at each call, as the client's own options were. */
    private readonly options: Pick<McpClientOptions, 'validator' | 'validateStructuredContent'>,
  ) {}

  /** Calls a tool; see `McpClient.callTool`. */
  async call(
    name: string,
    args: Record<string, unknown>,
    options?: CallToolOptions,
  ): Promise<CallToolResult> {
    const params: CallToolRequestParams = { name, arguments: args };
    if (options?.meta) params._meta = options.meta;
    const sent = this.client.request<CallToolResult>('tools/call', params, options);
    // The retry is for 2026-07-28 only: a 2025 session makes no handler (a closure, a promise) per call.
    const result = await (this.client.era === '2025'
      ? sent
      : sent.catch((error: unknown) => this.retry(error, params, options)));
    if (this.options.validateStructuredContent !== false && !result.isError) {
      // Known tools are checked without another await: most calls go to a tool seen before. A result
      // without structuredContent lists the tools only if they were listed already: otherwise every
      // first call to a plain tool would send a `tools/list` the caller never asked for (and that a
      // sending-side limit would count). A tool that declares an outputSchema and returns nothing
      // structured is still caught once the list is known.
      const known = this.outputValidators.get(name);
      const validate =
        known !== undefined
          ? known
          : result.structuredContent === undefined && !this.catalogue.has('tools')
            ? null
            : await this.outputValidator(name);
      if (validate) checkStructuredContent(name, result, validate);
    }
    return result;
  }

  /** Drops the compiled validators (the tool list changed, or the session did). */
  forget(): void {
    this.outputValidators.clear();
  }

  /**
   * 2026-07-28 over HTTP: the tool's `x-mcp-header` annotations were not known (or changed). The
   * spec's way out: list the tools again (the transport learns them), retry once.
   */
  private async retry(
    error: unknown,
    params: CallToolRequestParams,
    options: OutgoingRequestOptions | undefined,
  ): Promise<CallToolResult> {
    if (!(error instanceof McpError) || error.code !== HEADER_MISMATCH || this.client.era !== '2026')
      throw error;
    this.catalogue.forget('tools');
    this.outputValidators.clear();
    await this.catalogue.tools();
    return this.client.request<CallToolResult>('tools/call', params, options);
  }

  /** Compiles (once per tool list) the validator of a tool's `outputSchema`; `null` without one. */
  private async outputValidator(name: string): Promise<CompiledValidator | null> {
    if (!this.client.serverCapabilities?.tools) return null;
    let validate = this.outputValidators.get(name);
    if (validate !== undefined) return validate;
    const tool = (await this.catalogue.tools()).find((candidate) => candidate.name === name);
    const schema = tool?.outputSchema;
    validate = schema ? (this.options.validator ?? defaultValidator()).compile(schema) : null;
    this.outputValidators.set(name, validate);
    return validate;
  }
}

/**
 * Throws a {@link LocalError} (this client's own check, not an error from the server) when a tool
 * with an `outputSchema` returned no or non-matching `structuredContent`.
 */
function checkStructuredContent(name: string, result: CallToolResult, validate: CompiledValidator): void {
  if (result.structuredContent === undefined) {
    throw new LocalError(`Tool "${name}" declares an outputSchema but returned no structuredContent`);
  }
  const verdict = validate(result.structuredContent);
  if (!verdict.valid) {
    const issues = formatIssues(verdict.issues, 'inline');
    throw new LocalError(
      `Tool "${name}" returned structuredContent that does not match its outputSchema: ${issues}`,
    );
  }
}
