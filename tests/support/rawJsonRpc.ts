/**
 * Raw JSON-RPC sessions over real transports, for tests that send exactly the bytes they mean
 * (malformed URIs, any method) and read the responses as plain JSON.
 *
 * @example
 * ```ts
 * const send = overStdio(server);
 * const response = await send({ jsonrpc: '2.0', id: 1, method: 'ping' });
 * ```
 */
import { Method } from '@mcpkit/core';
import { type ServedHandler, serve } from '@mcpkit/node/http';
import type { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import { stdioPipes } from './stdioPipes.js';

export type Json = Record<string, any>;
/** Sends one message; resolves with the response of a request, `undefined` for a notification. */
export type Send = (message: Json) => Promise<Json | undefined>;

/** The revision the HTTP sender announces after `initialize`. */
export const REVISION = '2025-11-25';

/** A session over the stdio transport (newline-delimited JSON on in-memory pipes). */
export function overStdio(server: McpServer): Send {
  const pipes = stdioPipes();
  server.connect(pipes.transport);
  return async (message) => {
    pipes.send(message);
    if (message.id === undefined) return undefined;
    return pipes.waitFor((line) => line.id === message.id && !line.method);
  };
}

/**
 * A session over Streamable HTTP with JSON responses, served on 127.0.0.1; close `served` when
 * done. Every answer to a request must be a JSON body.
 */
export async function overHttp(
  server: McpServer,
  options: { stateless?: boolean } = {},
): Promise<{ send: Send; served: ServedHandler }> {
  const handler = createStreamableHttpHandler(server, {
    stateless: options.stateless ?? false,
    enableJsonResponse: true,
  });
  const served = await serve(handler, { path: '/mcp' });
  let sessionId: string | null = null;
  const send: Send = async (message) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (message.method !== Method.Initialize) headers['mcp-protocol-version'] = REVISION;
    if (sessionId) headers['mcp-session-id'] = sessionId;
    const response = await fetch(served.url, { method: 'POST', headers, body: JSON.stringify(message) });
    sessionId = response.headers.get('mcp-session-id') ?? sessionId;
    if (message.id === undefined) {
      await response.arrayBuffer();
      return undefined;
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('application/json')) throw new Error(`expected a JSON answer, got "${type}"`);
    return (await response.json()) as Json;
  };
  return { send, served };
}
