/**
 * A field-by-field diff of two JSON values: each path added, removed or changed, with the value
 * before and after. The walk is microdiff's (small, no dependencies); this module names the paths.
 * @module
 */
import diff from 'microdiff';

/**
 * One difference between two JSON values.
 *
 * @example
 * ```ts
 * const difference: Difference = { change: 'changed', path: 'content[0].text', segments: ['content', 0, 'text'], before: 'hi', after: 'hello' };
 * ```
 */
export interface Difference {
  readonly change: 'added' | 'removed' | 'changed';
  /** Where, written as `a.b[0]["odd key"]` (see {@link formatPath}). */
  readonly path: string;
  readonly segments: readonly (string | number)[];
  /** The value before (absent when added). */
  readonly before?: unknown;
  /** The value after (absent when removed). */
  readonly after?: unknown;
}

const CHANGE = { CREATE: 'added', REMOVE: 'removed', CHANGE: 'changed' } as const;

/**
 * Every difference from `before` to `after`, object key order ignored, arrays compared item by item.
 *
 * @example
 * ```ts
 * jsonDifferences({ a: 1, b: [1] }, { a: 2, b: [1, 2] });
 * // [{ change: 'changed', path: 'a', before: 1, after: 2, … }, { change: 'added', path: 'b[1]', after: 2, … }]
 * ```
 */
export function jsonDifferences(before: unknown, after: unknown): Difference[] {
  if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after)) {
    return Object.is(before, after) ? [] : [{ change: 'changed', path: '', segments: [], before, after }];
  }
  return diff(before, after, { cyclesFix: false }).map((found) => ({
    change: CHANGE[found.type],
    path: formatPath(found.path),
    segments: found.path,
    ...(found.type === 'CREATE' ? {} : { before: found.oldValue }),
    ...(found.type === 'REMOVE' ? {} : { after: found.value }),
  }));
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/** A key written bare after a dot (any other is quoted): a name such as `structuredContent` or `get-weather`. */
const BARE_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * A path as people write it: `structuredContent.items[0].id`, `tools.echo.description`, and a key
 * that is not bare in quotes, `resources["demo://readme"].name`.
 *
 * @example
 * ```ts
 * formatPath(['content', 0, 'text']); // 'content[0].text'
 * ```
 */
export function formatPath(segments: readonly (string | number)[]): string {
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (BARE_KEY.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
