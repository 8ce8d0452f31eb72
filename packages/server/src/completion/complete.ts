/**
 * Argument completion (`completion/complete`) for prompt arguments and resource template
 * variables: the completer types, and the result that respects the 100-value cap.
 * @module
 */
import type { CompleteResult } from '@mcpkit/core';
import type { RequestContext } from '../kernel/context.js';

/**
 * The most values one `completion/complete` answer may carry.
 *
 * @example
 * ```ts
 * declare const values: string[];
 * values.slice(0, MAX_COMPLETION_VALUES);
 * ```
 */
export const MAX_COMPLETION_VALUES = 100;

/**
 * What a completer knows besides the partial value.
 *
 * @example
 * ```ts
 * declare function citiesOf(country: string): string[];
 * const completeCity: Completer = (value, { arguments: args }) =>
 *   citiesOf(args.country ?? '').filter((city) => city.startsWith(value));
 * ```
 */
export interface CompletionContext {
  /** Arguments the user already chose, by name (`context.arguments` of the request). */
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Suggestions: a list (best first; only the first 100 are sent, with `total` and `hasMore` set from
 * its length), or an explicit answer when the full count is known elsewhere.
 *
 * @example
 * ```ts
 * const all: CompletionValues = ['paris', 'pau'];
 * declare const firstHundred: string[];
 * const counted: CompletionValues = { values: firstHundred, total: 2_500 };
 * ```
 */
export type CompletionValues =
  | readonly string[]
  | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/**
 * Suggests values for one argument. It should filter by `value` itself, check that the caller may
 * see the suggestions (`ctx.authInfo`), and stay fast: clients call it as the user types.
 *
 * @example
 * ```ts
 * const completeLanguage: Completer = (value) => ['python', 'typescript', 'rust'].filter((l) => l.startsWith(value));
 * ```
 */
export type Completer = (
  value: string,
  context: CompletionContext,
  ctx: RequestContext,
) => CompletionValues | Promise<CompletionValues>;

/**
 * Completers by argument (or template variable) name.
 *
 * @example
 * ```ts
 * const languages = ['go', 'rust', 'typescript'];
 * const complete: Completers<'language'> = { language: (value) => languages.filter((l) => l.startsWith(value)) };
 * ```
 */
export type Completers<Name extends string = string> = { readonly [K in Name]?: Completer };

/**
 * The `completion/complete` answer for what a completer returned: at most 100 values, `total` the
 * full count, `hasMore` when values were left out.
 *
 * @throws {TypeError} when the completer returned something else than strings.
 * @example
 * ```ts
 * toCompleteResult(Array.from({ length: 250 }, (_, i) => `v${i}`)).completion;
 * // { values: [first 100], total: 250, hasMore: true }
 * ```
 */
export function toCompleteResult(returned: CompletionValues): CompleteResult {
  const values = Array.isArray(returned)
    ? (returned as readonly string[])
    : (returned as { values?: unknown }).values;
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
    throw new TypeError('A completer must return an array of strings or { values: string[] }');
  }
  const sent = values.length > MAX_COMPLETION_VALUES ? values.slice(0, MAX_COMPLETION_VALUES) : [...values];
  const declared = Array.isArray(returned) ? undefined : (returned as { total?: number; hasMore?: boolean });
  const total = declared?.total ?? values.length;
  const hasMore = declared?.hasMore ?? total > sent.length;
  return { completion: { values: sent, total, hasMore } };
}

/**
 * Checks that every completer is a function and completes a known argument.
 *
 * @throws {TypeError} naming the unknown argument.
 * @example
 * ```ts
 * checkCompleters('Prompt "greet"', { name: complete }, ['name']);
 * ```
 */
export function checkCompleters(what: string, completers: unknown, names: readonly string[]): void {
  if (completers === undefined) return;
  if (typeof completers !== 'object' || completers === null) {
    throw new TypeError(`${what}: "complete" must be an object of completer functions`);
  }
  for (const [name, completer] of Object.entries(completers)) {
    if (completer === undefined) continue;
    if (typeof completer !== 'function')
      throw new TypeError(`${what}: the completer of "${name}" must be a function`);
    if (!names.includes(name)) {
      throw new TypeError(
        `${what}: cannot complete "${name}": it is not one of its arguments (${names.map((n) => `"${n}"`).join(', ') || 'none'})`,
      );
    }
  }
}
