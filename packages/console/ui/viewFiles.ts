/**
 * The files an MCP App's view offers with `ui/download-file`, made ready to save from the
 * console's own origin: an embedded resource's text or base64 bytes become the file (its name the
 * last segment of its `uri`, cleaned of anything a file system would read as a path), a link
 * stays a link the person may open in a new tab. Every file is capped; nothing is fetched.
 * @module
 */
import { BridgeRefusal, type DownloadContent, RpcCode } from '@mcpkit/apps/bridge';

/** The most a view may hand the person in one request, in bytes. */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/**
 * One file to save: its bytes, or (a link) the URL to open.
 *
 * @example
 * ```ts
 * const file: ViewFile = { name: 'notes.json', mimeType: 'application/json', bytes: new TextEncoder().encode('{}') };
 * ```
 */
export interface ViewFile {
  name: string;
  mimeType: string;
  bytes?: Uint8Array;
  url?: string;
}

function refused(message: string): never {
  throw new BridgeRefusal(RpcCode.Refused, message);
}

/** The last segment of `uri`, decoded, without path separators, control characters or leading dots. */
function fileName(uri: string, fallback: string): string {
  let last = uri.split(/[?#]/)[0]!.split('/').pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // Kept as sent: a bad escape is just characters.
  }
  const clean = last
    .replace(/[\p{Cc}/\\:*?"<>|]/gu, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 200);
  return clean || fallback;
}

function decodeBase64(blob: string): Uint8Array {
  try {
    const binary = atob(blob);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    throw new BridgeRefusal(RpcCode.InvalidParams, 'Invalid content: blob is not base64');
  }
}

/**
 * The files of one request, or a refusal: over {@link MAX_DOWNLOAD_BYTES} in all ("Policy
 * violation"), a link that is not `http:`/`https:`.
 *
 * @example
 * ```ts
 * viewFiles([{ type: 'resource', resource: { uri: 'file:///out/a.txt', text: 'hi' } }]); // [{ name: 'a.txt', … }]
 * ```
 */
export function viewFiles(contents: readonly DownloadContent[]): ViewFile[] {
  let total = 0;
  return contents.map((item, index) => {
    if (item.type === 'resource_link') {
      const url = URL.canParse(item.uri) ? new URL(item.uri) : undefined;
      if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
        refused('Policy violation: only http and https links are offered');
      return {
        name: fileName(item.name, `file-${index + 1}`),
        mimeType: item.mimeType ?? '',
        url: url.href,
      };
    }
    const { uri, mimeType, text, blob } = item.resource;
    // Base64 is 4 characters per 3 bytes: a blob too long to fit is refused before it is decoded.
    const estimate = text !== undefined ? text.length : Math.floor((blob!.length * 3) / 4);
    if (total + estimate > MAX_DOWNLOAD_BYTES * (text !== undefined ? 3 : 1))
      refused(`Policy violation: the files are larger than ${MAX_DOWNLOAD_BYTES} bytes`);
    const bytes = text !== undefined ? new TextEncoder().encode(text) : decodeBase64(blob!);
    total += bytes.length;
    if (total > MAX_DOWNLOAD_BYTES)
      refused(`Policy violation: the files are larger than ${MAX_DOWNLOAD_BYTES} bytes`);
    return {
      name: fileName(uri, `file-${index + 1}`),
      mimeType: mimeType ?? 'application/octet-stream',
      bytes,
    };
  });
}
