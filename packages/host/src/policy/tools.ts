/**
 * The tool boundary, as client middleware on each server's client: denied tools are dropped from
 * `tools/list` and refused on `tools/call` before anything is sent; calls that need consent ask
 * for it; every call, read, prompt and completion is audited.
 * @module
 */
import type { ClientMiddleware, McpClient } from '@mcpkit/client';
import { type CallToolResult, type CancelSource, ErrorCode, McpError, type Tool } from '@mcpkit/core';
import { toolsByName } from '../toolIndex.js';
import { type AuditSink, audited } from './audit.js';
import type { ConsentMemory } from './consent.js';
import { matchesAny } from './patterns.js';
import type { AuditEvent, HostHooks, ServerPolicy } from './types.js';

/** What the tool boundary of one server needs. */
export interface ToolBoundary {
  readonly server: string;
  readonly policy: ServerPolicy;
  /** Cline's `autoApprove` from the config entry. */
  readonly autoApprove: readonly string[];
  readonly hooks: HostHooks;
  readonly consent: ConsentMemory;
  readonly audit: AuditSink;
}

/**
 * True when policy offers the tool at all (allow/deny patterns and read-only mode).
 *
 * @example
 * ```ts
 * const visible = tools.filter((tool) => toolOffered(policy, tool));
 * ```
 */
export function toolOffered(policy: ServerPolicy, tool: Tool): boolean {
  if (policy.allow && !matchesAny(policy.allow, tool.name)) return false;
  if (matchesAny(policy.deny, tool.name)) return false;
  return !policy.readOnly || tool.annotations?.readOnlyHint === true;
}

/**
 * True when a call needs consent: by the spec's defaults a tool is destructive and open-world
 * unless annotated otherwise, so only read-only (or non-destructive) closed-world tools, trusted
 * servers and auto-approved names go without.
 *
 * @example
 * ```ts
 * if (needsConsent(boundary, tool)) await ask();
 * ```
 */
export function needsConsent(boundary: ToolBoundary, tool: Tool | undefined): boolean {
  if (boundary.policy.trusted) return false;
  if (
    tool &&
    (matchesAny(boundary.autoApprove, tool.name) || matchesAny(boundary.policy.autoApprove, tool.name))
  ) {
    return false;
  }
  const hints = tool?.annotations;
  const destructive = hints?.readOnlyHint !== true && hints?.destructiveHint !== false;
  const openWorld = hints?.openWorldHint !== false;
  return destructive || openWorld;
}

const OPERATIONS: Record<
  string,
  { operation: AuditEvent['operation']; item: (params: Record<string, unknown>) => string }
> = {
  'resources/read': { operation: 'resources/read', item: (params) => String(params.uri) },
  'prompts/get': { operation: 'prompts/get', item: (params) => String(params.name) },
  'completion/complete': {
    operation: 'completion/complete',
    item: (params) => {
      const ref = params.ref as { name?: string; uri?: string } | undefined;
      return String(ref?.name ?? ref?.uri);
    },
  },
};

/**
 * The middleware that enforces one server's tool policy and audits its operations.
 *
 * @example
 * ```ts
 * client.use(toolBoundary(boundary, client));
 * ```
 */
export function toolBoundary(boundary: ToolBoundary, client: McpClient): ClientMiddleware {
  return (ctx, next) => {
    if (ctx.direction !== 'send') return next();
    if (ctx.method === 'tools/list') {
      return next().then((result) => {
        const list = result as { tools: Tool[] };
        const tools = list.tools.map((tool) => overridden(boundary.policy, tool));
        return { ...list, tools: tools.filter((tool) => toolOffered(boundary.policy, tool)) };
      });
    }
    if (ctx.method === 'tools/call')
      return guardedCall(boundary, client, ctx.params, next, ctx.options?.cancelledBy);
    const audit = OPERATIONS[ctx.method];
    if (!audit) return next();
    const what = {
      server: boundary.server,
      operation: audit.operation,
      item: audit.item(ctx.params),
      onBehalfOf: ctx.options?.cancelledBy,
    };
    return audited(boundary.audit, what, next);
  };
}

function guardedCall(
  boundary: ToolBoundary,
  client: McpClient,
  params: Record<string, unknown>,
  next: () => Promise<unknown>,
  onBehalfOf: CancelSource | undefined,
): Promise<unknown> {
  const name = String(params.name);
  const args = (params.arguments ?? {}) as Record<string, unknown>;
  // Without an audit sink, nothing is timed or built for the audit (the gateway's common case).
  if (!boundary.audit.emit) return checkedCall(boundary, client, name, args, next);
  const what = {
    server: boundary.server,
    operation: 'tools/call' as const,
    item: name,
    arguments: args,
    onBehalfOf,
  };
  // The refusal this call returned, if any (a WeakSet per call cost the gateway's GC dearly).
  let refusal: CallToolResult | undefined;
  return audited(
    boundary.audit,
    what,
    () =>
      checkedCall(boundary, client, name, args, next, (refused) => {
        refusal = refused;
      }),
    (result) => {
      if (refusal !== undefined && result === refusal) {
        return {
          outcome: 'denied',
          reason:
            (result as CallToolResult).content[0]?.type === 'text'
              ? ((result as CallToolResult).content[0] as { text: string }).text
              : 'denied',
        };
      }
      return (result as CallToolResult).isError ? 'isError' : 'ok';
    },
  );
}

/**
 * The call if policy lets it through: an unknown or denied tool is refused before anything is
 * sent, and consent is asked when needed. Once the server's tools are known, nothing is awaited
 * before `next()`.
 */
function checkedCall(
  boundary: ToolBoundary,
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  next: () => Promise<unknown>,
  refused?: (result: CallToolResult) => void,
): Promise<unknown> {
  const index = toolsByName(client);
  if (index instanceof Promise) {
    return index.then((tools) => decided(boundary, tools.get(name), name, args, next, refused));
  }
  return decided(boundary, index.get(name), name, args, next, refused);
}

function decided(
  boundary: ToolBoundary,
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
  next: () => Promise<unknown>,
  refused: ((result: CallToolResult) => void) | undefined,
): Promise<unknown> {
  // Not offered (denied by policy, or unknown): the server never hears of the call.
  if (!tool) return Promise.reject(new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`));
  if (!needsConsent(boundary, tool)) return next();
  const ask = boundary.hooks.toolCall;
  const decision = boundary.consent.decide(`tool:${boundary.server}:${name}`, () =>
    ask?.({ server: boundary.server, tool: name, arguments: args, annotations: tool.annotations }),
  );
  return decision.then((allowed) => {
    if (allowed) return next();
    const refusal = refusedCall(boundary.server, name, ask === undefined);
    refused?.(refusal);
    return refusal;
  });
}

function refusedCall(server: string, tool: string, unattended: boolean): CallToolResult {
  const why = unattended ? 'it needs consent and this host has no one to ask' : 'the user declined it';
  return {
    isError: true,
    content: [{ type: 'text', text: `The tool "${tool}" of server "${server}" was not run: ${why}.` }],
  };
}

/**
 * A tool with the policy's title, description and annotations laid over the server's (its name
 * stays the server's here; the catalogue applies a rename).
 */
function overridden(policy: ServerPolicy, tool: Tool): Tool {
  const override = policy.tools?.[tool.name];
  if (!override) return tool;
  return {
    ...tool,
    ...(override.title === undefined ? {} : { title: override.title }),
    ...(override.description === undefined ? {} : { description: override.description }),
    ...(override.annotations === undefined
      ? {}
      : { annotations: { ...tool.annotations, ...override.annotations } }),
  };
}

/**
 * A server's tools under the names the policy gives them (the catalogue lists these).
 *
 * @example
 * ```ts
 * renamedTools({ tools: { echo: { name: 'say' } } }, tools); // echo listed as say
 * ```
 */
export function renamedTools(policy: ServerPolicy, tools: Tool[]): Tool[] {
  const overrides = policy.tools;
  if (!overrides) return tools;
  return tools.map((tool) => ({ ...tool, name: overrides[tool.name]?.name ?? tool.name }));
}

/** The server's own name of a tool the policy renamed (or the name itself). */
export function serverName(policy: ServerPolicy | undefined, name: string): string {
  if (!policy?.tools) return name;
  for (const [original, override] of Object.entries(policy.tools))
    if (override.name === name) return original;
  return name;
}

/** A catalogue entry whose `original` is the server's own name, also for a renamed tool. */
export function withServerName<T extends { original: string }>(policy: ServerPolicy, entry: T): T {
  const own = serverName(policy, entry.original);
  return own === entry.original ? entry : { ...entry, original: own };
}
