/**
 * Icon checks (2025-11-25, SEP-973), for servers registering icons and clients about to render
 * them.
 *
 * The spec treats icon metadata as untrusted: only `https:` URLs and base64 `data:` URIs may be
 * used; `javascript:`, `file:`, `http:`, `ftp:`, `ws:` and app schemes must be rejected. These checks
 * are syntactic; fetching (no credentials, no cross-origin redirects), content sniffing and treating
 * SVG as active content remain the renderer's job.
 * @module
 */
import { isBase64Char } from '../shared.js';
import { isHeaderToken } from './paramHeaders.js';

/**
 * Options of {@link isSafeIconSource} and {@link validateIcon}.
 *
 * @example
 * ```ts
 * validateIcon(icon, { maxSourceLength: 64 * 1024 });
 * ```
 */
export interface IconCheckOptions {
  /**
   * Longest accepted `src`, in characters (default 1 MiB). An inline `data:` icon larger than
   * this is a resource-exhaustion risk rather than an icon.
   */
  maxSourceLength?: number;
}

/**
 * The default {@link IconCheckOptions.maxSourceLength}.
 *
 * @example
 * ```ts
 * isSafeIconSource(src, { maxSourceLength: DEFAULT_MAX_ICON_SOURCE_LENGTH / 4 });
 * ```
 */
export const DEFAULT_MAX_ICON_SOURCE_LENGTH = 1_048_576;

/** `type/subtype`, both RFC 9110 tokens (the same `token` rule as HTTP header names). */
function isMimeType(text: string): boolean {
  const slash = text.indexOf('/');
  return slash > 0 && isHeaderToken(text.slice(0, slash)) && isHeaderToken(text.slice(slash + 1));
}

/** The media type of a `data:image/...;base64,...` URI, or `undefined` if it is not one. */
function base64ImageMediaType(src: string): string | undefined {
  const comma = src.indexOf(',');
  if (comma === -1) return undefined;
  const header = src.slice(5, comma).toLowerCase();
  if (!header.endsWith(';base64')) return undefined;
  const mediaType = header.split(';')[0] ?? '';
  if (!mediaType.startsWith('image/') || !isMimeType(mediaType)) return undefined;
  const data = src.slice(comma + 1);
  let end = data.length;
  while (end > 0 && data.charCodeAt(end - 1) === 61 && data.length - end < 2) end--;
  if (end === 0) return undefined;
  for (let i = 0; i < end; i++) if (!isBase64Char(data.charCodeAt(i))) return undefined;
  return mediaType;
}

function isSafeHttpsUrl(src: string): boolean {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  // Credentials in an icon URL would be sent to whoever serves it.
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

function hasControlOrSpace(src: string): boolean {
  for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) <= 32 || src.charCodeAt(i) === 127) return true;
  return false;
}

/**
 * True when an icon `src` may be fetched or rendered: an `https:` URL with a host and no
 * credentials, or a `data:image/<type>;base64,<data>` URI. Everything else (including `http:`,
 * `javascript:`, `file:` and non-base64 data URIs) is refused.
 *
 * @example
 * ```ts
 * isSafeIconSource('https://example.com/icon.png'); // true
 * isSafeIconSource('data:image/png;base64,iVBORw0KGgo='); // true
 * isSafeIconSource('javascript:alert(1)'); // false
 * isSafeIconSource('http://example.com/icon.png'); // false
 * ```
 */
export function isSafeIconSource(src: unknown, options: IconCheckOptions = {}): boolean {
  if (typeof src !== 'string' || src.length === 0) return false;
  if (src.length > (options.maxSourceLength ?? DEFAULT_MAX_ICON_SOURCE_LENGTH)) return false;
  // URL parsing forgives surrounding spaces and embedded tabs; a safe source has none.
  if (hasControlOrSpace(src)) return false;
  const head = src.slice(0, 9).toLowerCase();
  if (head.startsWith('data:')) return base64ImageMediaType(src) !== undefined;
  // Insist on the canonical "https://host" spelling: the URL parser also accepts "https:host",
  // "https:///host" and backslashes, which a checker and a renderer could read differently.
  if (!head.startsWith('https://') || head[8] === '/' || src.includes('\\')) return false;
  return isSafeHttpsUrl(src);
}

/** `WxH` with positive integers (no leading zeros), or `any`, as in HTML `sizes`. */
function isIconSize(size: string): boolean {
  if (size.toLowerCase() === 'any') return true;
  const x = size.indexOf('x') === -1 ? size.indexOf('X') : size.indexOf('x');
  return x > 0 && isDimension(size.slice(0, x)) && isDimension(size.slice(x + 1));
}

function isDimension(text: string): boolean {
  if (text.length === 0 || text.charCodeAt(0) === 48) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function sourceProblem(src: unknown, options: IconCheckOptions): string | undefined {
  if (typeof src !== 'string') return 'icon "src" must be a string';
  if (isSafeIconSource(src, options)) return undefined;
  const max = options.maxSourceLength ?? DEFAULT_MAX_ICON_SOURCE_LENGTH;
  if (src.length > max) return `icon "src" is longer than ${max} characters`;
  return 'icon "src" must be an https: URL (no credentials) or a data:image/...;base64 URI';
}

function mimeTypeProblem(icon: Record<string, unknown>): string | undefined {
  const mimeType = icon.mimeType;
  if (mimeType === undefined) return undefined;
  if (typeof mimeType !== 'string' || !isMimeType(mimeType))
    return 'icon "mimeType" must be a "type/subtype" string';
  const src = icon.src;
  if (typeof src !== 'string' || !src.slice(0, 5).toLowerCase().startsWith('data:')) return undefined;
  const embedded = base64ImageMediaType(src);
  // The spec calls a declared type advisory and asks consumers to reject mismatches.
  if (embedded !== undefined && embedded !== mimeType.toLowerCase()) {
    return `icon "mimeType" (${mimeType}) does not match the data URI (${embedded})`;
  }
  return undefined;
}

function sizesProblem(sizes: unknown): string | undefined {
  if (sizes === undefined) return undefined;
  if (!Array.isArray(sizes)) return 'icon "sizes" must be an array of strings';
  for (const size of sizes) {
    if (typeof size !== 'string' || !isIconSize(size)) {
      return `icon "sizes" entries must be "WxH" (e.g. "48x48") or "any"; got ${JSON.stringify(size)}`;
    }
  }
  return undefined;
}

/**
 * Lists what is wrong with one icon: `src` (see {@link isSafeIconSource}), `mimeType` (a MIME type,
 * matching a data URI's own type), `sizes` (`WxH` or `any`) and `theme` (`light` or `dark`). An
 * empty list means it is fine.
 *
 * @example
 * ```ts
 * validateIcon({ src: 'https://example.com/i.png', sizes: ['48x48'], theme: 'dark' }); // []
 * validateIcon({ src: 'file:///etc/passwd' });
 * // ['icon "src" must be an https: URL (no credentials) or a data:image/...;base64 URI']
 * ```
 */
export function validateIcon(icon: unknown, options: IconCheckOptions = {}): string[] {
  if (typeof icon !== 'object' || icon === null || Array.isArray(icon)) return ['an icon must be an object'];
  const fields = icon as Record<string, unknown>;
  const problems = [sourceProblem(fields.src, options), mimeTypeProblem(fields), sizesProblem(fields.sizes)];
  if (fields.theme !== undefined && fields.theme !== 'light' && fields.theme !== 'dark') {
    problems.push('icon "theme" must be "light" or "dark"');
  }
  return problems.filter((problem): problem is string => problem !== undefined);
}

/**
 * Validates an `icons` array; each problem names the index of the icon it concerns.
 *
 * @example
 * ```ts
 * validateIcons([{ src: 'https://example.com/a.png' }, { src: 'http://example.com/b.png' }]);
 * // ['icons[1]: icon "src" must be an https: URL (no credentials) or a data:image/...;base64 URI']
 * ```
 */
export function validateIcons(icons: unknown, options: IconCheckOptions = {}): string[] {
  if (!Array.isArray(icons)) return ['"icons" must be an array'];
  return icons.flatMap((icon, index) =>
    validateIcon(icon, options).map((problem) => `icons[${index}]: ${problem}`),
  );
}
