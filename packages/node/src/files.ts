/**
 * Files as content sources. The runtime-neutral server package cannot read files (no `node:`
 * imports there), so this Node-only helper turns a path into a `Blob` whose type comes from the
 * file's extension; `imageFrom`, `audioFrom` and `fileResource` of `@mcpkit/server` take it as is.
 * @module
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import mime from 'mime';

// Checked before the `mime` library: these are the types people expect for source and text
// files, where the registry says otherwise (`.ts` is registered as MPEG transport stream, `.rs`
// as an XML format) or nothing.

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.mts': 'text/x-typescript',
  '.cts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.py': 'text/x-python',
  '.rs': 'text/x-rust',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.pdf': 'application/pdf',
};

/**
 * The MIME type conventionally used for a file name's extension: a short table of common text and
 * source types first, then the `mime` library (the IANA registry and common extensions).
 *
 * @example
 * ```ts
 * mimeTypeOf('logo.PNG'); // 'image/png'
 * mimeTypeOf('main.ts'); // 'text/x-typescript'
 * mimeTypeOf('README'); // undefined
 * ```
 */
export function mimeTypeOf(path: string | URL): string | undefined {
  const name = typeof path === 'string' ? path : fileURLToPath(path);
  const extension = extname(name).toLowerCase();
  if (extension === '') return undefined;
  return MIME_BY_EXTENSION[extension] ?? mime.getType(extension) ?? undefined;
}

/**
 * A file as a `Blob` typed by its extension (or `options.type`), read lazily from disk.
 *
 * @example
 * ```ts
 * import { imageFrom, fileResource } from '@mcpkit/server';
 * import { fileBlob, fileUri } from '@mcpkit/node';
 *
 * server.tool('logo', { description: 'The logo' }, async () => imageFrom(await fileBlob('assets/logo.png')));
 * server.tool('notes', { description: 'The notes' }, async () =>
 *   fileResource(fileUri('notes.md'), await fileBlob('notes.md')),
 * );
 * ```
 */
export async function fileBlob(path: string | URL, options: { type?: string } = {}): Promise<Blob> {
  // openAsBlob only says "Unable to open file as blob"; stat names the path and the reason.
  const info = await stat(path);
  if (!info.isFile()) throw new TypeError(`${String(path)} is not a file`);
  return openAsBlob(path, { type: options.type ?? mimeTypeOf(path) ?? '' });
}

/**
 * The absolute `file://` URI of a path, as resources and resource links carry it.
 *
 * @example
 * ```ts
 * fileUri('notes.md'); // 'file:///home/me/project/notes.md'
 * ```
 */
export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}
