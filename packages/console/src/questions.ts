/**
 * What the server asks the person (an elicitation form, a sampling request, consent to a tool
 * call), or an MCP App's view asks (a sampling request, to save its files), held until the page answers. Each question is an event to the page; the answer comes back
 * through the API. A question the server withdraws (its request cancelled) is taken off the page.
 * @module
 */
import type { EventHub } from './eventHub.js';

/** Questions waiting at most; past it the oldest is cancelled (evict, never lock out). */
const MAX_PENDING = 32;

/**
 * The kinds of question: an elicitation form, an elicitation URL, a sampling request, (against
 * a host) consent to a tool call, and a view's files to save.
 *
 * @example
 * ```ts
 * const kind: QuestionKind = 'sampling';
 * ```
 */
export type QuestionKind = 'elicitation' | 'elicitationUrl' | 'sampling' | 'toolConsent' | 'download';

/**
 * A question as the page receives it.
 *
 * @example
 * ```ts
 * const question: Question = { id: 'q1', kind: 'sampling', params: { messages: [], maxTokens: 10 } };
 * ```
 */
export interface Question {
  readonly id: string;
  readonly kind: QuestionKind;
  /** The host's server that asks (only against a host). */
  readonly server?: string;
  /** When an MCP App's view asks: the tool whose view it is. */
  readonly view?: string;
  readonly params: unknown;
}

interface Pending {
  readonly question: Question;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * An answer the person gave up on: the page was closed or the question evicted.
 *
 * @example
 * ```ts
 * new QuestionWithdrawnError('q1'); // "Question q1 was withdrawn"
 * ```
 */
export class QuestionWithdrawnError extends Error {
  constructor(id: string) {
    super(`Question ${id} was withdrawn`);
    this.name = 'QuestionWithdrawnError';
  }
}

/**
 * The questions waiting for the person.
 *
 * @example
 * ```ts
 * const questions = new Questions(hub);
 * const answer = await questions.ask('sampling', params, signal); // resolved by questions.answer(id, value)
 * ```
 */
export class Questions {
  readonly #pending = new Map<string, Pending>();
  #next = 0;

  constructor(private readonly hub: EventHub) {}

  /**
   * Shows a question on the page and resolves with the person's answer; `server` and `view` say
   * who asks (against a host, its server; an App's view, the tool whose view it is).
   */
  ask(
    kind: QuestionKind,
    params: unknown,
    signal?: AbortSignal,
    server?: string,
    view?: string,
  ): Promise<unknown> {
    if (this.#pending.size >= MAX_PENDING) this.#withdraw(this.#pending.keys().next().value!);
    const id = `q${++this.#next}`;
    const question: Question = {
      id,
      kind,
      params,
      ...(server === undefined ? {} : { server }),
      ...(view === undefined ? {} : { view }),
    };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { question, resolve, reject });
      this.hub.emit('question', question);
      signal?.addEventListener('abort', () => this.#withdraw(id), { once: true });
    });
  }

  /** The person's answer to question `id`; false when no such question waits. */
  answer(id: string, answer: unknown): boolean {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#pending.delete(id);
    this.hub.emit('answered', { id });
    pending.resolve(answer);
    return true;
  }

  /** The questions still waiting, oldest first (for a page opened late). */
  waiting(): Question[] {
    return [...this.#pending.values()].map((pending) => pending.question);
  }

  /** Withdraws every question (the console is closing). */
  close(): void {
    for (const id of [...this.#pending.keys()]) this.#withdraw(id);
  }

  #withdraw(id: string): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    this.hub.emit('answered', { id });
    pending.reject(new QuestionWithdrawnError(id));
  }
}
