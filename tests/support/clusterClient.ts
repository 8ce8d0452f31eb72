/**
 * What the cluster tests' clients share: the sampling answer the demo server's `summarize` tool
 * asks for, and the progress check of `slow_count`. Whichever node runs the handler, the client's
 * answers and the notifications must cross the balancer to it.
 * @module
 */
import type { McpClient, SamplingHandler } from '@mcpkit/client';
import type { ProgressUpdate } from '@mcpkit/core';
import { expect } from 'vitest';

/** The text {@link summarySampling} answers with; `summarize` returns it. */
export const SUMMARY = 'A short summary.';

/**
 * A client's sampling handler that answers every `sampling/createMessage` with {@link SUMMARY}.
 *
 * @example
 * ```ts
 * const client = new McpClient(INFO, { sampling: summarySampling });
 * expect(JSON.stringify((await client.callTool('summarize', { text: '…' })).content)).toContain(SUMMARY);
 * ```
 */
export const summarySampling: SamplingHandler = async () => ({
  role: 'assistant',
  content: { type: 'text', text: SUMMARY },
  model: 'test-model',
});

/**
 * Calls `slow_count` with four steps and expects it to succeed with one progress notification
 * per step, in order.
 *
 * @example
 * ```ts
 * await expectCountedProgress(client);
 * ```
 */
export async function expectCountedProgress(client: McpClient): Promise<void> {
  const progress: ProgressUpdate[] = [];
  const counted = await client.callTool(
    'slow_count',
    { steps: 4, delayMs: 20 },
    { onProgress: (update) => progress.push(update) },
  );
  expect(counted.isError).not.toBe(true);
  expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
}
