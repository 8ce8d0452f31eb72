/**
 * Reading a retry's `inputResponses`: only answers to questions the sealed state says were asked
 * are taken, and each must have the shape of a result of its kind (MRTR "Error Handling": a server
 * SHOULD validate them and ignore what it did not ask for).
 * @module
 */
import { isRecord } from '@mcpkit/core/internal';
import { invalidParams } from '../params.js';
import type { AskedQuestion, RecordedAnswer } from './sealedState.js';

/**
 * The answers of a retry: `answers` (from the state) plus every response in `inputResponses` to a
 * question of the last round. Throws `-32602` when `inputResponses` is not an object or an answer
 * does not have its kind's shape; a missing answer is not an error (that question is asked again).
 *
 * @example
 * ```ts
 * const asked = new Map([['0', { method: 'roots/list', digest }]]);
 * acceptResponses(new Map(), asked, { '0': { roots: [] } }).get('0'); // { digest, response: { roots: [] } }
 * ```
 */
export function acceptResponses(
  answers: ReadonlyMap<string, RecordedAnswer>,
  asked: ReadonlyMap<string, AskedQuestion>,
  inputResponses: unknown,
): Map<string, RecordedAnswer> {
  const accepted = new Map(answers);
  if (!checkInputResponses(inputResponses)) return accepted;
  for (const [key, question] of asked) {
    if (!Object.hasOwn(inputResponses, key)) continue;
    const response = inputResponses[key];
    const problem = shapeProblem(question.method, response);
    if (problem)
      throw invalidParams(
        `inputResponses[${JSON.stringify(key)}] is not a ${question.method} result: ${problem}`,
      );
    accepted.set(key, { digest: question.digest, response });
  }
  return accepted;
}

/**
 * True when a request carries `inputResponses`, false when it carries none; throws `-32602` for
 * one that is not an object (`null`, an array, a number), with or without a `requestState`.
 *
 * @example
 * ```ts
 * checkInputResponses(undefined); // false
 * checkInputResponses({ '0': { roots: [] } }); // true
 * ```
 */
export function checkInputResponses(inputResponses: unknown): inputResponses is Record<string, unknown> {
  if (inputResponses === undefined) return false;
  if (!isRecord(inputResponses))
    throw invalidParams('inputResponses must be an object keyed like inputRequests');
  return true;
}

const ELICIT_ACTIONS = new Set(['accept', 'decline', 'cancel']);

/**
 * What is wrong with `response` as a result of `method`, or `undefined` when nothing is. Also
 * checks the answers a `tasks/update` brings (tasks extension).
 *
 * @example
 * ```ts
 * shapeProblem('roots/list', { roots: 'x' }); // '"roots" must be an array'
 * ```
 */
export function shapeProblem(method: string, response: unknown): string | undefined {
  if (!isRecord(response)) return 'it must be an object';
  switch (method) {
    case 'elicitation/create':
      if (!ELICIT_ACTIONS.has(response.action as string)) return '"action" must be accept, decline or cancel';
      if (response.content !== undefined && !isRecord(response.content)) return '"content" must be an object';
      return undefined;
    case 'sampling/createMessage':
      if (response.role !== 'assistant' && response.role !== 'user')
        return '"role" must be assistant or user';
      if (!isRecord(response.content) && !Array.isArray(response.content)) return '"content" is missing';
      if (typeof response.model !== 'string') return '"model" must be a string';
      return undefined;
    case 'roots/list':
      if (!Array.isArray(response.roots)) return '"roots" must be an array';
      for (const root of response.roots) {
        if (!isRecord(root) || typeof root.uri !== 'string') return 'every root needs a string "uri"';
      }
      return undefined;
    default:
      return undefined;
  }
}
