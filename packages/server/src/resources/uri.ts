/**
 * Resource URI checks: an absolute URI with an RFC 3986 scheme and only characters a URI may hold.
 * @module
 */

/**
 * The longest resource URI accepted at registration or in a request.
 *
 * @example
 * ```ts
 * uri.length <= MAX_URI_LENGTH;
 * ```
 */
export const MAX_URI_LENGTH = 8192;

function isAlpha(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** RFC 3986 unreserved, gen-delims and sub-delims punctuation. */
const URI_PUNCTUATION = "-._~:/?#[]@!$&'()*+,;=";

/**
 * The length of the scheme (the part before `:`), or 0 when `uri` does not start with
 * `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`.
 */
function schemeLength(uri: string): number {
  if (uri.length === 0 || !isAlpha(uri.charCodeAt(0))) return 0;
  for (let i = 1; i < uri.length; i++) {
    const code = uri.charCodeAt(i);
    if (code === 58) return i;
    if (!(isAlpha(code) || isDigit(code) || code === 43 || code === 45 || code === 46)) return 0;
  }
  return 0;
}

/**
 * What is wrong with a resource URI, or `undefined` when it is an absolute URI: a scheme, then
 * RFC 3986 characters (letters, digits, `-._~:/?#[]@!$&'()*+,;=` and `%XX` escapes). Characters
 * beyond ASCII are accepted as in IRIs; spaces, controls, `<>"{}|\^` and backquotes are not.
 *
 * @example
 * ```ts
 * uriProblem('test://static-text'); // undefined
 * uriProblem('notes.md'); // 'must be an absolute URI with a scheme, such as "file:///notes.md"'
 * ```
 */
export function uriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return 'must be a string';
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  const scheme = schemeLength(uri);
  if (scheme === 0) return 'must be an absolute URI with a scheme, such as "file:///notes.md"';
  for (let i = scheme + 1; i < uri.length; i++) {
    const code = uri.charCodeAt(i);
    if (code === 37) {
      if (!isHex(uri.charCodeAt(i + 1)) || !isHex(uri.charCodeAt(i + 2))) {
        return `has a malformed percent-escape at position ${i}`;
      }
      i += 2;
      continue;
    }
    if (isAlpha(code) || isDigit(code) || code > 159 || URI_PUNCTUATION.includes(uri[i]!)) continue;
    return `contains ${JSON.stringify(uri[i])} at position ${i}, which a URI may not hold unescaped`;
  }
  return undefined;
}

/**
 * True when `uri` is an absolute URI (see {@link uriProblem}).
 *
 * @example
 * ```ts
 * isAbsoluteUri('weather://paris/today'); // true
 * isAbsoluteUri('/etc/passwd'); // false
 * ```
 */
export function isAbsoluteUri(uri: unknown): uri is string {
  return uriProblem(uri) === undefined;
}
