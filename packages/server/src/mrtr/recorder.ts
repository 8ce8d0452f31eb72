/**
 * The rounds recorder: under 2026-07-28 a handler is run again from the start on every retry, and
 * each of its questions to the client (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) gets a key: the
 * one the handler gave it (`inputKey`), else its sequence
 * number in call order. A question whose answer is recorded resolves at once; any other is noted
 * for the input-required result and rejects with {@link InputRequiredSignal}.
 * @module
 */
import { CapabilityError, LocalError } from '@mcpkit/core';
import { missingClientCapability } from '@mcpkit/core/internal';
import { digestOf } from './digest.js';
import type { RecordedAnswer } from './sealedState.js';
import { INPUT_REQUIRED_METHODS, type InputRequest, InputRequiredSignal } from './signal.js';

/** A question asked in this run that has no answer yet. */
export interface UnansweredQuestion {
  /** Its key in `inputRequests`: the handler's `inputKey`, else its position ("0", "1", …). */
  readonly key: string;
  readonly request: InputRequest;
  readonly digest: string;
}

/**
 * Why a handler of `requestMethod` cannot ask the client anything under `revision`: only three
 * requests may answer input-required (MRTR "Supported Requests").
 *
 * @example
 * ```ts
 * cannotAskIn('2026-07-28', 'completion/complete');
 * ```
 */
export function cannotAskIn(revision: string, requestMethod: string): string {
  return `Under revision ${revision} a server can ask the client for input only while answering tools/call, prompts/get or resources/read, not "${requestMethod}"`;
}

/**
 * Records the questions of one run of a handler. One per request; `ask` is what `ctx.elicit`,
 * `ctx.sample` and `ctx.listRoots` call under 2026-07-28.
 *
 * @example
 * ```ts
 * const recorder = new InputRecorder(new Map(), { elicitation: {} }, '2026-07-28', 'tools/call');
 * await recorder.ask('elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
 * // rejects with InputRequiredSignal; recorder.unanswered() holds the question
 * ```
 */
export class InputRecorder {
  #next = 0;
  /** A question asked wrongly (a bad or repeated `inputKey`): a bug in the handler, never masked. */
  misuse: LocalError | undefined;
  // Noted when asked, before the digest is known: a Promise.all settles the handler at the first
  // rejection, and the questions issued beside it must still go out in this round.
  readonly #asked: Array<{ key: string; request: InputRequest; digest: Promise<string> }> = [];

  readonly #clientCapabilities: Record<string, unknown> | undefined;
  readonly #revision: string;
  readonly #requestMethod: string;
  constructor(
    /** Answers known at the start of this run (from the state and this retry's `inputResponses`). */
    readonly answers: Map<string, RecordedAnswer>,
    clientCapabilities: Record<string, unknown> | undefined,
    revision: string,
    /** The method of the request being answered. */
    requestMethod: string,
  ) {
    this.#clientCapabilities = clientCapabilities;
    this.#revision = revision;
    this.#requestMethod = requestMethod;
  }

  /**
   * Asks the client `method` with `params`: resolves with the recorded answer if this question (same
   * key, same request) was answered, else rejects with {@link InputRequiredSignal}. Rejects with
   * a `CapabilityError` when the client did not declare the capability, or the request cannot carry
   * questions in this revision.
   */
  ask<R>(method: string, params: Record<string, unknown>, inputKey?: string): Promise<R> {
    const refusal = this.refusal(method, params);
    if (refusal) return Promise.reject(new CapabilityError(refusal));
    const key = inputKey ?? String(this.#next);
    this.#next++;
    if (typeof key !== 'string' || key === '' || this.#asked.some((question) => question.key === key)) {
      // Kept, so that the run fails even if its other questions would otherwise go out.
      this.misuse ??= new LocalError(
        `inputKey ${JSON.stringify(key)} must be a non-empty string used once per request`,
      );
      return Promise.reject(this.misuse);
    }
    const request = { method, params };
    const digest = digestOf(request);
    this.#asked.push({ key, request, digest });
    return digest.then((known) => {
      const answer = this.#answerFor(key, known);
      if (answer) return answer.response as R;
      throw new InputRequiredSignal(method);
    });
  }

  /** Why the client cannot be asked `method` in this request, or `undefined` when it can. */
  refusal(method: string, params: Record<string, unknown> | undefined): string | undefined {
    if (!INPUT_REQUIRED_METHODS.has(this.#requestMethod))
      return cannotAskIn(this.#revision, this.#requestMethod);
    const gap = missingClientCapability(method, params, this.#clientCapabilities);
    return gap && `${gap} (revision ${this.#revision}: questions go out in an input-required result)`;
  }

  /** How many questions this run asked (answered or not). */
  get asks(): number {
    return this.#asked.length;
  }

  /** The questions of this run that have no answer, in call order. */
  async unanswered(): Promise<UnansweredQuestion[]> {
    const open: UnansweredQuestion[] = [];
    for (const { key, request, digest } of this.#asked) {
      const known = await digest;
      if (!this.#answerFor(key, known)) open.push({ key, request, digest: known });
    }
    return open;
  }

  #answerFor(key: string, digest: string): RecordedAnswer | undefined {
    const answer = this.answers.get(key);
    return answer?.digest === digest ? answer : undefined;
  }
}
