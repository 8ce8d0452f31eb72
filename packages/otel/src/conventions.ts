/**
 * The names of the OpenTelemetry semantic conventions for MCP (GenAI conventions, status
 * Development), inlined: the conventions moved repositories in 2026 and the constants packages
 * still mark them incubating, so a dependency would buy churn, not safety.
 * @module
 */
import { MCP_DURATION_BUCKETS } from '@mcpkit/core';

/**
 * Span and metric attribute names.
 *
 * @example
 * ```ts
 * span.attributes[Attr.toolName]; // the value of 'gen_ai.tool.name'
 * ```
 */
export const Attr = {
  methodName: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  statusCode: 'rpc.response.status_code',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
} as const;

/**
 * The four duration histograms, in seconds.
 *
 * @example
 * ```ts
 * metrics.find((m) => m.descriptor.name === Metric.serverOperation);
 * ```
 */
export const Metric = {
  clientOperation: 'mcp.client.operation.duration',
  serverOperation: 'mcp.server.operation.duration',
  clientSession: 'mcp.client.session.duration',
  serverSession: 'mcp.server.session.duration',
} as const;

/**
 * The conventions' advisory bucket boundaries (seconds) for all four histograms.
 *
 * @example
 * ```ts
 * meter.createHistogram('my.duration', { unit: 's', advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] } });
 * ```
 */
export const DURATION_BUCKETS: readonly number[] = MCP_DURATION_BUCKETS;

/**
 * `error.type` of a `tools/call` whose result says `isError: true`.
 *
 * @example
 * ```ts
 * if (span.attributes['error.type'] === TOOL_ERROR) failedTools++;
 * ```
 */
export const TOOL_ERROR = 'tool_error';
