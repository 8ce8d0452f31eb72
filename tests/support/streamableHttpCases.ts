/**
 * What the Streamable HTTP client tests run alike against mcpkit's server
 * (tests/http-client-mcpkit-server.test.ts) and the official SDK's (tests/http-client.test.ts):
 * the two response modes, and the answer stream the server closes mid-call (SSE polling).
 * @module
 */
import type { McpClient } from '@mcpkit/client';
import { expect } from 'vitest';

/** `describe.each` rows: the server answers POSTs with JSON (`true`) or with an SSE stream (`false`). */
export const RESPONSE_MODES = [
  ['JSON', true],
  ['SSE', false],
] as const;

/** What {@link expectPolledAnswerOnce} reads of the server's test harness after the call. */
export interface PollingServer<Request extends { readonly method: string }> {
  /** How many times the `poll` tool ran. */
  readonly counters: { readonly polls: number };
  /** Every HTTP request the server received, in order. */
  readonly seen: readonly Request[];
}

/**
 * Calls the `poll` tool of a server that closes the answer stream after the first progress
 * (SSE polling with a short `retry:`): the client resumes once, with a `Last-Event-ID` (read by
 * `lastEventId`), and gets the progress and the result exactly once. A duplicate result would
 * reach `errors` ("Dropped a response for unknown request id"), so the check waits `settleMs`
 * before reading them.
 *
 * @example
 * ```ts
 * await expectPolledAnswerOnce(client, errors, server, (request) => request.headers['last-event-id'], 50);
 * ```
 */
export async function expectPolledAnswerOnce<Request extends { readonly method: string }>(
  client: McpClient,
  errors: readonly Error[],
  server: PollingServer<Request>,
  lastEventId: (request: Request) => unknown,
  settleMs: number,
): Promise<void> {
  const updates: number[] = [];
  const call = await client.callTool('poll', {}, { onProgress: (update) => updates.push(update.progress) });
  expect(call.content).toEqual([{ type: 'text', text: 'polled' }]);
  expect(updates).toEqual([1]);
  expect(server.counters.polls).toBe(1);
  const resumes = server.seen.filter((request) => request.method === 'GET');
  expect(resumes.map(lastEventId)).toEqual([expect.any(String)]);
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  expect(errors).toEqual([]);
}
