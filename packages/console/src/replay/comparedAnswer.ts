/**
 * What of an answer a comparison looks at: what a person sees, not the envelope around it. A tool
 * call's content, structured content and `isError`; a read's contents; a prompt's description and
 * messages; a list's items keyed by name (or URI), so one item added does not shift every other;
 * an error's code and message.
 * @module
 */
import { LIST_METHODS } from './listMethods.js';
import type { AnswerError } from './sessionFile.js';

/**
 * An answer to one request: what the server sent back, or the error it answered with.
 *
 * @example
 * ```ts
 * const answer: Answer = { result: { content: [{ type: 'text', text: 'hi' }] } };
 * ```
 */
export interface Answer {
  readonly result?: unknown;
  readonly error?: AnswerError;
}

/**
 * The part of an answer to `method` that comparisons look at, as plain JSON (objects without a
 * prototype, so a key such as `constructor` is compared like any other).
 *
 * @example
 * ```ts
 * comparedAnswer('tools/call', { result: { content: [], _meta: { at: 1 } } }); // { content: [], isError: false }
 * ```
 */
export function comparedAnswer(method: string, answer: Answer): Record<string, unknown> {
  if (answer.error !== undefined) {
    const { code, message } = answer.error;
    return plain({ error: { code, message } }) as Record<string, unknown>;
  }
  const result = (answer.result ?? {}) as any;
  const list = LIST_METHODS[method];
  if (list) {
    const [key, nameField] = list;
    const items: unknown[] = Array.isArray(result) ? result : Array.isArray(result[key]) ? result[key] : [];
    return plain({ [key]: keyed(items, nameField) }) as Record<string, unknown>;
  }
  switch (method) {
    case 'tools/call':
      return plain({
        content: result.content,
        structuredContent: result.structuredContent,
        isError: result.isError === true,
      }) as Record<string, unknown>;
    case 'resources/read':
      return plain({ contents: result.contents }) as Record<string, unknown>;
    case 'prompts/get':
      return plain({ description: result.description, messages: result.messages }) as Record<string, unknown>;
    default:
      return plain(result) as Record<string, unknown>;
  }
}

/** A list's items by name; a second item of one name gets `#2`, an unnamed one its index. */
function keyed(items: readonly unknown[], nameField: string): Record<string, unknown> {
  const byName: Record<string, unknown> = {};
  items.forEach((item, index) => {
    const name = (item as Record<string, unknown> | null)?.[nameField];
    let key = typeof name === 'string' ? name : `#${index}`;
    for (let copy = 2; Object.hasOwn(byName, key); copy++)
      key = `${typeof name === 'string' ? name : ''}#${copy}`;
    byName[key] = item;
  });
  return byName;
}

/** A JSON value rebuilt with prototype-less objects; `undefined` members are dropped, as JSON drops them. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : plain(item)));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) if (item !== undefined) copy[key] = plain(item);
  return copy;
}
