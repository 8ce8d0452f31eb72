/**
 * Multi round-trip requests (2026-07-28, basic/patterns/mrtr.mdx), the client's half: a result
 * `{resultType: "input_required", inputRequests?, requestState?}` is answered by running the
 * client's own sampling, elicitation and roots handlers for every entry, then the original request
 * is retried under a new id with `inputResponses` keyed like `inputRequests` and `requestState`
 * echoed exactly as received (never parsed). Rounds are bounded.
 * @module
 */
import {
  type CancelSource,
  cancelSignalOf,
  IncomingRequest,
  LocalError,
  type OutgoingRequestOptions,
  RequestTimeoutError,
} from '@mcpkit/core';
import { isRecord } from '@mcpkit/core/internal';
import { isInputRequired } from './modern.js';

/**
 * The most `input_required` rounds one call goes through before failing locally: a server that
 * keeps asking is stopped rather than followed forever.
 *
 * @example
 * ```ts
 * new McpClient(info, { maxInputRounds: 2 * DEFAULT_MAX_INPUT_ROUNDS });
 * ```
 */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** The most input requests one round may carry (each runs a handler: a user prompt, a model call). */
const MAX_INPUT_REQUESTS = 32;

/** The only kinds of input request the revision defines (MRTR "Server Requirements" 2). */
const INPUT_METHODS: ReadonlySet<string> = new Set([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
]);

/** The calls input requests belong to, by input request (see {@link callOfInputRequest}). */
const callsOfInputRequests = new WeakMap<IncomingRequest, CancelSource>();

/**
 * What the call an input request (2026-07-28) belongs to was made on behalf of: the `cancelledBy`
 * of the call that received the round, if it had one.
 *
 * @example
 * ```ts
 * declare const request: IncomingRequest;
 * const source = callOfInputRequest(request); // e.g. a gateway's downstream request
 * ```
 */
export function callOfInputRequest(request: IncomingRequest): CancelSource | undefined {
  return callsOfInputRequests.get(request);
}

/** Runs the client's handler for one input request and resolves with its result. */
export type InputAnswerer = (request: IncomingRequest) => Promise<unknown>;

/** Sends one attempt of the original request with the retry fields; resolves with its result. */
export type AttemptSender = (retry: Record<string, unknown>) => Promise<unknown>;

/**
 * The call a round belongs to and how long the client's own answers to one round may take (ms).
 *
 * @example
 * ```ts
 * const bound: AnswerBound = { method: 'tools/call', timeoutMs: 60_000 };
 * ```
 */
export interface AnswerBound {
  readonly method: string;
  readonly timeoutMs: number;
}

/**
 * An input request has no channel of its own: no progress, no notifications, no requests.
 * (`ConstructorParameters` because the engine does not export the owner's type.)
 */
const DETACHED: ConstructorParameters<typeof IncomingRequest>[0] = {
  notifyFor: () => undefined,
  progressFor: () => undefined,
  requestFor: () =>
    Promise.reject(new LocalError('An input request (2026-07-28) cannot send requests of its own')),
};

/**
 * Follows the `input_required` rounds of a request whose first answer is `first`, until a complete
 * result (or an error). The first attempt is the caller's own, so a request that needs no input
 * (nearly all) costs no more than one `then`.
 *
 * @throws {LocalError} past `maxRounds` rounds, or for an input request of a kind the revision
 *   does not define or the client has no handler for; {@link RequestTimeoutError} when the
 *   client's answers to one round take longer than `bound.timeoutMs`.
 * @example
 * ```ts
 * const bound = { method: 'tools/call', timeoutMs: 60_000 };
 * const send = (retry) => request('tools/call', { ...params, ...retry });
 * const result = await followInputRounds(await send({}), send, answer, 8, {}, bound);
 * ```
 */
export async function followInputRounds(
  first: unknown,
  send: AttemptSender,
  answer: InputAnswerer,
  maxRounds: number,
  options: OutgoingRequestOptions | undefined,
  bound: AnswerBound,
): Promise<unknown> {
  let result = first;
  for (let round = 0; isInputRequired(result); round++) {
    if (round >= maxRounds) {
      throw new LocalError(
        `The server still asked for input after ${maxRounds} rounds (maxInputRounds); stopped`,
      );
    }
    const retry: Record<string, unknown> = {};
    if (result.inputRequests !== undefined) {
      retry.inputResponses = await answerAll(
        result.inputRequests,
        answer,
        cancelSignalOf(options),
        bound,
        options?.cancelledBy,
      );
    }
    // Echoed exactly as received: the state is the server's, not ours to read (MRTR client req. 2).
    if (result.requestState !== undefined) retry.requestState = result.requestState;
    result = await send(retry);
  }
  return result;
}

/**
 * Answers every entry of an `inputRequests` map at once; the answers are keyed the same way.
 * Shared by input-required rounds and the tasks extension's `tasks/update`.
 *
 * @example
 * ```ts
 * const responses = await answerAll(result.inputRequests, answer, undefined, { method: 'tools/call', timeoutMs: 60_000 });
 * ```
 */
export async function answerAll(
  requests: unknown,
  answer: InputAnswerer,
  signal: AbortSignal | undefined,
  bound: AnswerBound,
  /** The `cancelledBy` of the call the requests belong to, for {@link callOfInputRequest}. */
  onBehalfOf?: CancelSource,
): Promise<Record<string, unknown>> {
  if (!isRecord(requests)) throw new LocalError('The server sent "inputRequests" that is not an object');
  const keys = Object.keys(requests);
  if (keys.length > MAX_INPUT_REQUESTS) {
    throw new LocalError(
      `The server sent ${keys.length} input requests in one round (at most ${MAX_INPUT_REQUESTS})`,
    );
  }
  const incoming = keys.map((key) => inputRequest(key, requests[key], signal));
  if (onBehalfOf) for (const request of incoming) callsOfInputRequests.set(request, onBehalfOf);
  const answers = await within(Promise.all(incoming.map(answer)), bound, (error) => {
    for (const request of incoming) request.abort(error);
  });
  const responses: Record<string, unknown> = {};
  keys.forEach((key, index) => {
    responses[key] = answers[index];
  });
  return responses;
}

/**
 * Bounds the client's answers to one round by the call's timeout. Under 2025 the call's timeout
 * runs while the server waits on the client's handler (and the server's own ask timeout cancels
 * it); under 2026-07-28 the call is not in flight while the client answers and the server's
 * timeout cannot reach it, so without this a handler that never settles hangs the call forever.
 * One timer per round, only when the server asks for input.
 */
function within<T>(work: Promise<T>, bound: AnswerBound, onTimeout: (error: Error) => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new RequestTimeoutError(bound.method, bound.timeoutMs, 'timeout');
      onTimeout(error);
      reject(error);
    }, bound.timeoutMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * The local error for a client handler that threw while answering an input request. 2026-07-28
 * has no error form in `inputResponses` (and servers must not count on a retry), so the call
 * fails on the client and the server never hears of it; the message says so, and how an
 * elicitation handler refuses instead. The handler's error is the `cause`.
 *
 * @example
 * ```ts
 * throw inputHandlerFailed('sampling/createMessage', new Error('the user said no'));
 * ```
 */
export function inputHandlerFailed(method: string, error: unknown): LocalError {
  const why = error instanceof Error ? error.message : String(error);
  const refuse = method === 'elicitation/create' ? ` To refuse, answer { action: 'decline' }.` : '';
  return new LocalError(
    `This client's "${method}" handler failed: ${why.slice(0, 200)}. 2026-07-28 has no way to send ` +
      `that error to the server, so the call fails here and the server does not see it.${refuse} ` +
      `Where the server speaks 2025-11-25 too, protocolEra: '2025' sends it the error.`,
    error,
  );
}

/** One entry of `inputRequests` as the request a handler answers; cancelled with the call. */
function inputRequest(key: string, entry: unknown, signal: AbortSignal | undefined): IncomingRequest {
  const method = isRecord(entry) ? entry.method : undefined;
  if (typeof method !== 'string' || !INPUT_METHODS.has(method)) {
    const shown = typeof method === 'string' ? `"${method.slice(0, 64)}"` : 'no method';
    throw new LocalError(
      `The server's input request "${key.slice(0, 64)}" has ${shown}; 2026-07-28 allows only ${[...INPUT_METHODS].join(', ')}`,
    );
  }
  const params = isRecord(entry) && isRecord(entry.params) ? entry.params : {};
  const request = new IncomingRequest(DETACHED, key, method, params, undefined);
  if (signal?.aborted) request.abort(signal.reason);
  else signal?.addEventListener('abort', () => request.abort(signal.reason), { once: true });
  return request;
}
