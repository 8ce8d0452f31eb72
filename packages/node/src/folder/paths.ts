/**
 * From a requested `file://` URI to path segments under a served folder, and back. This is the
 * lexical half of the folder's containment: it refuses, without touching the disk, every URI that
 * does not name a plain relative path below the folder's own URI. The other half (real paths, the
 * file actually opened) is in `open.ts`.
 * @module
 */
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const WINDOWS = sep === '\\';

/**
 * The `file://` URI of an absolute path, each segment percent-encoded with `encodeURIComponent`,
 * so that every name (with `|`, `^`, `%`, `#`, spaces...) gives a URI the server accepts, and
 * {@link segmentsOf} reads it back exactly. Windows paths keep `pathToFileURL`'s drive form.
 *
 * @example
 * ```ts
 * folderFileUri('/srv/a b/c|d.txt'); // 'file:///srv/a%20b/c%7Cd.txt'
 * ```
 */
export function folderFileUri(absolutePath: string): string {
  if (WINDOWS) return pathToFileURL(absolutePath).href;
  return `file://${absolutePath.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * True when `path` is `root` or below it. A comparison of path components, not of string
 * prefixes: `/data-evil` is not inside `/data` (CVE-2025-53110).
 *
 * @example
 * ```ts
 * isInside('/data', '/data/a.txt'); // true
 * isInside('/data', '/data-evil/a.txt'); // false
 * ```
 */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  if (rel === '') return true;
  if (isAbsolute(rel)) return false; // another drive on Windows
  return rel !== '..' && !rel.startsWith(`..${sep}`);
}

/** Characters a segment may never hold once decoded: separators, NUL and other controls. */
function hasForbiddenChar(segment: string): boolean {
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x2f /* / */ || code === 0x5c /* \ */) return true;
    if (WINDOWS && code === 0x3a /* : drive letters, alternate data streams */) return true;
  }
  return false;
}

function isDotName(segment: string): boolean {
  return segment === '.' || segment === '..';
}

/**
 * Whether a decoded name may stand for one path segment: not empty, not `.` or `..`, no separator
 * or control character, and the same holds of its NFKC form (fullwidth `．．／` and the like are
 * harmless on disk, but a layer that normalizes would turn them into `../`). Hidden names (leading
 * dot) only when `hidden` is true.
 *
 * @example
 * ```ts
 * isSafeSegment('notes.md', false); // true
 * isSafeSegment('．．', false); // false
 * ```
 */
export function isSafeSegment(segment: string, hidden: boolean): boolean {
  if (segment === '' || isDotName(segment) || hasForbiddenChar(segment)) return false;
  if (!hidden && segment.startsWith('.')) return false;
  const folded = segment.normalize('NFKC');
  if (folded === segment) return true;
  return !(isDotName(folded) || hasForbiddenChar(folded) || (!hidden && folded.startsWith('.')));
}

/**
 * The path segments a URI names below `rootUri` (the folder's own URI, no trailing slash), or
 * `undefined` when it names nothing there. Only the exact prefix `rootUri + '/'` is accepted (no
 * other host, no other spelling of the folder); the rest must be `/`-separated segments, each
 * percent-decoded exactly once as strict UTF-8 (overlong forms and lone surrogates fail) and each
 * passing {@link isSafeSegment}. A query, a fragment or an empty segment is refused.
 *
 * @example
 * ```ts
 * segmentsOf('file:///srv/docs', 'file:///srv/docs/a%20b/c.md', false); // ['a b', 'c.md']
 * segmentsOf('file:///srv/docs', 'file:///srv/docs/%2e%2e/etc/passwd', false); // undefined
 * ```
 */
export function segmentsOf(rootUri: string, uri: string, hidden: boolean): string[] | undefined {
  if (!uri.startsWith(`${rootUri}/`)) return undefined;
  const rest = uri.slice(rootUri.length + 1);
  if (rest.includes('?') || rest.includes('#')) return undefined;
  return decodeSegments(rest.split('/'), hidden);
}

/**
 * Decodes raw (percent-encoded) segments, or `undefined` when one is malformed or unsafe.
 *
 * @example
 * ```ts
 * decodeSegments(['docs', 'a%20b.md'], false); // ['docs', 'a b.md']
 * ```
 */
export function decodeSegments(raw: readonly string[], hidden: boolean): string[] | undefined {
  const segments: string[] = [];
  for (const part of raw) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return undefined; // a malformed escape, an overlong form or invalid UTF-8
    }
    if (!isSafeSegment(decoded, hidden)) return undefined;
    segments.push(decoded);
  }
  return segments;
}

/**
 * True when every segment of `rel` (a relative path, platform separators) is a name the folder
 * serves: what the listing and the watcher use to leave out what a read would refuse.
 *
 * @example
 * ```ts
 * isServableRelative('docs/.git/config', false); // false
 * ```
 */
export function isServableRelative(rel: string, hidden: boolean): boolean {
  if (rel === '' || isAbsolute(rel)) return false;
  return rel.split(sep).every((segment) => isSafeSegment(segment, hidden));
}
