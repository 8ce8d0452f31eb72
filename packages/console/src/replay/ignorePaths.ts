/**
 * Paths a comparison leaves out: what a server puts in its answers that differs on every run (ids,
 * timestamps, session ids). Written as diff paths are (`structuredContent.requestId`,
 * `content[0].text`, `resources["demo://clock"]`), with `*` for any one key or index and `**` for
 * any number of them (`**.timestamp`). A path covers everything under it.
 * @module
 */

/** One segment of an ignore path: a key, an index, or a wildcard. */
type Segment = { readonly key: string } | { readonly any: 'one' | 'many' };

/**
 * An ignore path, parsed.
 *
 * @example
 * ```ts
 * const path: IgnorePath = parseIgnorePath('structuredContent.*.id');
 * ```
 */
export interface IgnorePath {
  readonly text: string;
  readonly segments: readonly Segment[];
}

/** `**` segments one path may have. */
const MAX_DEEP = 3;

/** `.key`, a leading `key`, `[0]`, `[*]`, `["quoted key"]`, `*` and `**`. */
const TOKEN = /(?:^|\.)(\*\*|\*|[^.[\]"*\s]+)|\[(\d+|\*|"(?:[^"\\]|\\.)*")\]/y;

/**
 * Parses an ignore path; throws a `SyntaxError` naming where it went wrong.
 *
 * @example
 * ```ts
 * parseIgnorePath('tools.*.description').segments.length; // 3
 * ```
 */
export function parseIgnorePath(text: string): IgnorePath {
  const segments: Segment[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const found = TOKEN.exec(text);
    if (!found || (at > 0 && found[1] !== undefined && text[at] !== '.'))
      throw new SyntaxError(`Cannot read the path "${text}" at character ${at + 1}`);
    const word = found[1] ?? found[2]!;
    if (word === '**') segments.push({ any: 'many' });
    else if (word === '*') segments.push({ any: 'one' });
    else segments.push({ key: word.startsWith('"') ? (JSON.parse(word) as string) : word });
  }
  if (segments.length === 0) throw new SyntaxError('An ignore path cannot be empty');
  // Each `**` multiplies the ways a path can match: a few are plenty.
  if (segments.filter((segment) => 'any' in segment && segment.any === 'many').length > MAX_DEEP)
    throw new SyntaxError(`An ignore path may have at most ${MAX_DEEP} "**"`);
  return { text, segments };
}

/**
 * Whether `path` (a diff's segments) is at or under one of `ignored`.
 *
 * @example
 * ```ts
 * isIgnored(['structuredContent', 'at'], [parseIgnorePath('structuredContent.at')]); // true
 * ```
 */
export function isIgnored(path: readonly (string | number)[], ignored: readonly IgnorePath[]): boolean {
  return ignored.some((pattern) => covers(pattern.segments, 0, path, 0));
}

/** Whether the pattern from `p` matches a prefix of the path from `s`. */
function covers(
  pattern: readonly Segment[],
  p: number,
  path: readonly (string | number)[],
  s: number,
): boolean {
  if (p === pattern.length) return true;
  const segment = pattern[p]!;
  if ('any' in segment && segment.any === 'many') {
    for (let skip = s; skip <= path.length; skip++) if (covers(pattern, p + 1, path, skip)) return true;
    return false;
  }
  if (s === path.length) return false;
  if ('key' in segment && segment.key !== String(path[s])) return false;
  return covers(pattern, p + 1, path, s + 1);
}
