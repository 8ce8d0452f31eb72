/**
 * The runner of input-required rounds (2026-07-28, MRTR): wraps one handler invocation, opens the
 * retry's sealed state, lets the handler's questions resolve from recorded answers, and turns the
 * questions still open into one input-required result with a new sealed state.
 * @module
 */
import {
  CapabilityError,
  ErrorCode,
  LocalError,
  McpError,
  MissingRequiredClientCapabilityError,
} from '@mcpkit/core';
import { isPromiseLike, isRecord } from '@mcpkit/core/internal';
import { digestOf } from './digest.js';
import { missingForRequest } from './missingCapability.js';
import { InputRecorder, type UnansweredQuestion } from './recorder.js';
import { acceptResponses, checkInputResponses } from './responses.js';
import type { AskedQuestion, RecordedAnswer, RequestStateSealer, RoundState } from './sealedState.js';
import {
  INPUT_REQUIRED_METHODS,
  type InputRequest,
  type InputRequiredResult,
  isInputRequired,
} from './signal.js';

/** The request a handler runs for, as the 2026 path decoded it. */
export interface InputRoundCall {
  readonly method: string;
  /** The params (digested without `_meta`, `inputResponses` and `requestState`, so either form will do). */
  readonly params: Record<string, unknown> | undefined;
  /** The retry's `inputResponses`, as received (unchecked). */
  readonly inputResponses: unknown;
  /** The retry's `requestState`, as received (attacker-controlled until opened). */
  readonly requestState: unknown;
  /** Who sent it (from authorization), or `undefined` for an anonymous request. */
  readonly principal: string | undefined;
  readonly clientCapabilities: Record<string, unknown> | undefined;
  readonly revision: string;
}

/** What a handler run sees of its rounds: the recorder, the raw retry fields, the round number. */
export interface InputRounds {
  readonly recorder: InputRecorder;
  /** The retry's `inputResponses` as the client sent them (the escape hatch for own questions). */
  readonly inputResponses: Record<string, unknown> | undefined;
  /** The `requestState` the handler put in its own input-required result, verified and returned. */
  readonly requestState: string | undefined;
  /** Input-required results this request went through before this run (0 on the first call). */
  readonly round: number;
}

const RETRY_FIELDS = new Set(['_meta', 'inputResponses', 'requestState']);

/** The answers of a first call, shared: nothing writes to a recorder's answers (a round copies them). */
const NO_ANSWERS: Map<string, RecordedAnswer> = new Map();

/** One handler run, as {@link InputRoundRunner} settles it. */
interface Run {
  readonly call: InputRoundCall;
  readonly paramsDigest: string | undefined;
  readonly state: RoundState | undefined;
  readonly recorder: InputRecorder;
}

/**
 * Runs handlers in input-required rounds. One per server; holds the sealer and its limits.
 *
 * @example
 * ```ts
 * const runner = new InputRoundRunner(new RequestStateSealer());
 * const result = await runner.run(call, (rounds) =>
 *   rounds.recorder.ask('roots/list', {}).then((roots) => ({ content: [{ type: 'text', text: JSON.stringify(roots) }] })),
 * );
 * ```
 */
export class InputRoundRunner {
  constructor(readonly sealer: RequestStateSealer) {}

  /**
   * Invokes `handler` once for `call`. Returns its result when it needed no answer it lacks, or an
   * input-required result. Throws `-32602` (before the handler runs) for a state that does not open
   * or does not belong to this request, and for answers of the wrong shape.
   */
  async run<R, C extends InputRoundCall = InputRoundCall>(
    call: C,
    handler: (rounds: InputRounds, call: C) => R | Promise<R>,
  ): Promise<R | InputRequiredResult> {
    return this.start(call, handler);
  }

  /**
   * {@link run}, except that a first call whose handler answers synchronously and asks nothing is
   * answered synchronously: the 2026-07-28 path of a synchronous tool then costs what the 2025 one
   * does (no promise chain, and over HTTP no abort listener on the request while the answer is
   * undecided). May throw instead of rejecting.
   *
   * @example
   * ```ts
   * declare const runner: InputRoundRunner;
   * declare const call: InputRoundCall;
   * runner.start(call, () => ({ content: [] })); // { content: [] }, not a promise
   * ```
   */
  start<R, C extends InputRoundCall = InputRoundCall>(
    call: C,
    handler: (rounds: InputRounds, call: C) => R | Promise<R>,
  ): R | Promise<R | InputRequiredResult> {
    const given = INPUT_REQUIRED_METHODS.has(call.method) && checkInputResponses(call.inputResponses);
    const retry = INPUT_REQUIRED_METHODS.has(call.method) && call.requestState !== undefined;
    if (retry) return this.#retry(call, handler, given);
    return this.#invoke(call, handler, given, undefined, undefined);
  }

  /** A retry: its state is opened (and checked against the request) before the handler runs. */
  async #retry<R, C extends InputRoundCall>(
    call: C,
    handler: (rounds: InputRounds, call: C) => R | Promise<R>,
    given: boolean,
  ): Promise<R | InputRequiredResult> {
    const paramsDigest = await digestOf(withoutRetryFields(call.params ?? {}));
    const state = await this.sealer.open(call.requestState, {
      method: call.method,
      paramsDigest,
      principal: call.principal,
    });
    return this.#invoke(call, handler, given, paramsDigest, state);
  }

  #invoke<R, C extends InputRoundCall>(
    call: C,
    handler: (rounds: InputRounds, call: C) => R | Promise<R>,
    given: boolean,
    paramsDigest: string | undefined,
    state: RoundState | undefined,
  ): R | Promise<R | InputRequiredResult> {
    const answers = state ? acceptResponses(state.answers, state.asked, call.inputResponses) : NO_ANSWERS;
    const recorder = new InputRecorder(answers, call.clientCapabilities, call.revision, call.method);
    const rounds: InputRounds = {
      recorder,
      inputResponses: given ? (call.inputResponses as Record<string, unknown>) : undefined,
      requestState: state?.carry,
      round: state?.rounds ?? 0,
    };
    let result: R | Promise<R>;
    try {
      result = handler(rounds, call);
    } catch (error) {
      return this.#settle<R>({ call, paramsDigest, state, recorder }, undefined, { error });
    }
    if (isPromiseLike(result)) {
      const run: Run = { call, paramsDigest, state, recorder };
      return Promise.resolve(result).then(
        (value) => this.#settle(run, value, undefined),
        (error: unknown) => this.#settle<R>(run, undefined, { error }),
      );
    }
    // The common case: a synchronous handler that asked nothing is answered as it is.
    if (recorder.misuse || recorder.asks > 0 || isInputRequired(result))
      return this.#settle({ call, paramsDigest, state, recorder }, result, undefined);
    return result;
  }

  /** What a handler run comes to: its result, its error, or the input it still needs. */
  async #settle<R>(
    run: Run,
    result: R | undefined,
    failure: { error: unknown } | undefined,
  ): Promise<R | InputRequiredResult> {
    const { call, recorder } = run;
    if (recorder.misuse) throw recorder.misuse;
    // The common case, a handler that asked nothing, settles without another await.
    const open = recorder.asks > 0 ? await recorder.unanswered() : [];
    const own = failure === undefined && isInputRequired(result) ? result : undefined;
    if (open.length === 0 && !own) {
      if (failure) throw failure.error;
      return result as R;
    }
    // Questions win over whatever the run returned or threw: the handler cannot finish without them.
    return this.#inputRequired(call, call.params ?? {}, run.paramsDigest, run.state, recorder, open, own);
  }

  async #inputRequired(
    call: InputRoundCall,
    params: Record<string, unknown>,
    paramsDigest: string | undefined,
    state: RoundState | undefined,
    recorder: InputRecorder,
    open: UnansweredQuestion[],
    own: InputRequiredResult | undefined,
  ): Promise<InputRequiredResult> {
    const { limits } = this.sealer;
    const rounds = (state?.rounds ?? 0) + 1;
    if (rounds > limits.maxRounds) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `"${call.method}" still needs input after ${limits.maxRounds} rounds, the most one request may take`,
      );
    }
    const requests = collectRequests(call, recorder, open, own);
    if (requests.length > limits.maxInputRequests) {
      throw new LocalError(
        `"${call.method}" asked ${requests.length} questions in one round; the limit is ${limits.maxInputRequests} (requestStateLimits.maxInputRequests)`,
      );
    }
    const answers = new Map(recorder.answers);
    const asked = new Map<string, AskedQuestion>();
    for (const question of open) {
      answers.delete(question.key);
      asked.set(question.key, { method: question.request.method, digest: question.digest });
    }
    const carry = own ? own.requestState : state?.carry;
    const requestState = await this.sealer.seal({
      method: call.method,
      paramsDigest: paramsDigest ?? (await digestOf(withoutRetryFields(params))),
      principal: call.principal,
      rounds,
      answers,
      asked,
      ...(carry === undefined ? {} : { carry }),
    });
    const result: InputRequiredResult = { resultType: 'input_required' };
    if (requests.length > 0) result.inputRequests = Object.fromEntries(requests);
    result.requestState = requestState;
    if (own?._meta !== undefined) result._meta = own._meta;
    return result;
  }
}

/** The questions of the round: the recorder's and any the handler returned itself. */
function collectRequests(
  call: InputRoundCall,
  recorder: InputRecorder,
  open: UnansweredQuestion[],
  own: InputRequiredResult | undefined,
): Array<[string, InputRequest]> {
  const requests: Array<[string, InputRequest]> = open.map((question) => [question.key, question.request]);
  if (!own?.inputRequests) return requests;
  const taken = new Set(requests.map(([key]) => key));
  for (const [key, request] of Object.entries(own.inputRequests)) {
    if (taken.has(key))
      throw new LocalError(`inputRequests key "${key}" is used twice in one input-required result`);
    if (!isRecord(request) || typeof request.method !== 'string') {
      throw new CapabilityError(`input request "${key}" needs a "method"`);
    }
    const params = isRecord(request.params) ? request.params : {};
    // Like a question through ctx: a kind the request did not declare is the revision's -32021.
    const missing = missingForRequest(request.method, params, call.clientCapabilities ?? {});
    if (missing) {
      throw new MissingRequiredClientCapabilityError(
        missing,
        `Input request "${key}" (${request.method}) needs the client capability ${Object.keys(missing)[0]}, which this request did not declare`,
      );
    }
    const refusal = recorder.refusal(request.method, params);
    if (refusal) throw new CapabilityError(refusal);
    requests.push([key, request]);
  }
  return requests;
}

function withoutRetryFields(params: Record<string, unknown>): Record<string, unknown> {
  // fromEntries defines own properties, so a "__proto__" param is digested like any other.
  return Object.fromEntries(Object.entries(params).filter(([key]) => !RETRY_FIELDS.has(key)));
}
