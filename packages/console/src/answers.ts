/**
 * From the person's answer on the page to what the server is sent: an elicitation result, a
 * sampling result written (or edited) by the person, or a consent decision. Answers come off the
 * page, so each is checked before it goes anywhere.
 * @module
 */
import type { CreateMessageRequestParams, CreateMessageResult, ElicitResult } from '@mcpkit/core';
import { McpError } from '@mcpkit/core';
import type { Questions } from './questions.js';

/** The error code a client answers a sampling request the person rejected with (MCP spec). */
const USER_REJECTED = -1;

/** The model name a reply written by the person is reported under. */
export const PERSON_MODEL = 'mcpkit-console (written by a person)';

/**
 * Asks the person to fill an elicitation form (or open its URL) and returns their answer.
 *
 * @example
 * ```ts
 * const result = await elicit(questions, 'elicitation', params, ctx.signal);
 * ```
 */
export async function elicit(
  questions: Questions,
  kind: 'elicitation' | 'elicitationUrl',
  params: unknown,
  signal?: AbortSignal,
  server?: string,
): Promise<ElicitResult> {
  const answer = (await questions.ask(kind, params, signal, server)) as Partial<ElicitResult> | null;
  const action = answer?.action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return { action: 'cancel' };
  if (action !== 'accept' || kind === 'elicitationUrl') return { action };
  const content = answer?.content;
  return {
    action,
    content: content && typeof content === 'object' && !Array.isArray(content) ? content : {},
  };
}

/**
 * Shows a sampling request (of a server, or of an App's `view`) to the person, who approves it
 * with a reply of their own (or edits the one offered) or rejects it.
 *
 * @throws {McpError} `-1` when the person rejects the request.
 * @example
 * ```ts
 * const result = await sample(questions, params, ctx.signal);
 * ```
 */
export async function sample(
  questions: Questions,
  params: CreateMessageRequestParams,
  signal?: AbortSignal,
  server?: string,
  view?: string,
): Promise<CreateMessageResult> {
  const answer = (await questions.ask('sampling', params, signal, server, view)) as {
    approve?: unknown;
    text?: unknown;
  } | null;
  if (answer?.approve !== true) throw new McpError(USER_REJECTED, 'User rejected sampling request');
  return {
    role: 'assistant',
    content: { type: 'text', text: typeof answer.text === 'string' ? answer.text : '' },
    model: PERSON_MODEL,
    stopReason: 'endTurn',
  };
}
