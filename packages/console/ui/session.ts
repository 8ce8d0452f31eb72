/**
 * Record and replay in the page: the session format and the field-by-field comparison are
 * `@mcpkit/console/replay`'s (the same as `mcpkit replay`'s); here each recorded request is sent
 * again through the console's API, to the server the page is connected to, or against a host to
 * the server it went to, through the host (`hostExchange`).
 * @module
 */
import {
  hostExchange,
  type ReplayReport,
  replaySession,
  type SavedSession,
  type SendExchange,
} from '@mcpkit/console/replay';
import { call, callId } from './api.js';

/** Each replayable method as the console's API sends it. */
const SEND: Readonly<Record<string, (params: Record<string, any>) => Promise<unknown>>> = {
  'tools/call': (params) =>
    call('callTool', { callId: callId(), name: params.name, arguments: params.arguments ?? {} }),
  'resources/read': (params) => call('readResource', { uri: params.uri }),
  'prompts/get': (params) => call('getPrompt', { name: params.name, arguments: params.arguments ?? {} }),
  'tools/list': async () => ({ tools: await call('listTools') }),
  'resources/list': async () => ({ resources: await call('listResources') }),
  'resources/templates/list': async () => ({ resourceTemplates: await call('listTemplates') }),
  'prompts/list': async () => ({ prompts: await call('listPrompts') }),
};

const send: SendExchange = (method, params) => {
  const sender = SEND[method];
  if (!sender) return Promise.reject(new Error(`${method} cannot be replayed`));
  return sender(params);
};

/**
 * Replays a saved session against the server the page is connected to; against a `host`, each
 * exchange that names its server goes to that server through the host.
 *
 * @example
 * ```ts
 * const report = await replayInPage(parseSession(await file.text()), ['structuredContent.at']);
 * ```
 */
export function replayInPage(
  session: SavedSession,
  ignore: readonly string[] = [],
  host = false,
): Promise<ReplayReport> {
  return replaySession(session, host ? hostExchange(send) : send, { ignore });
}
