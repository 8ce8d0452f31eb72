/**
 * Builders for content blocks, so tool and prompt handlers rarely spell `{ type: ..., ... }`.
 * @module
 */
import type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  EmbeddedResource,
  ImageContent,
  Meta,
  ResourceLink,
  TextContent,
  TextResourceContents,
} from '@mcpkit/core';
import { encodeBase64, isBase64 } from './base64.js';

/**
 * Optional members every content block may carry.
 *
 * @example
 * ```ts
 * const forUser: BlockOptions = { annotations: { audience: ['user'] } };
 * text('Saved.', forUser);
 * ```
 */
export interface BlockOptions {
  annotations?: Annotations;
  _meta?: Meta;
}

/**
 * Bytes, or a string that already holds their base64.
 *
 * @example
 * ```ts
 * const data: BinaryData = new Uint8Array([1, 2, 3]); // or 'AQID'
 * ```
 */
export type BinaryData = string | Uint8Array | ArrayBuffer;

function withOptions<T extends object>(block: T, options: BlockOptions | undefined): T {
  if (!options) return block;
  const out = block as T & BlockOptions;
  if (options.annotations !== undefined) out.annotations = options.annotations;
  if (options._meta !== undefined) out._meta = options._meta;
  return out;
}

/**
 * The base64 text of `data`: encoded when it is bytes, checked when it is already a string.
 *
 * @throws {TypeError} when a string is not valid base64.
 * @example
 * ```ts
 * toBase64(new Uint8Array([1, 2, 3])); // 'AQID'
 * toBase64('AQID'); // 'AQID'
 * ```
 */
export function toBase64(data: BinaryData): string {
  if (typeof data !== 'string') return encodeBase64(data);
  if (!isBase64(data)) {
    throw new TypeError('Binary content given as a string must be base64; pass a Uint8Array for raw bytes');
  }
  return data;
}

function requireMimeType(mimeType: unknown, what: string): string {
  if (typeof mimeType !== 'string' || !mimeType.includes('/')) {
    throw new TypeError(
      `${what} content needs a MIME type such as "image/png" (got ${JSON.stringify(mimeType)})`,
    );
  }
  return mimeType;
}

/**
 * A text block.
 *
 * @example
 * ```ts
 * server.tool('hello', {}, () => [text('Hello'), text('for the user', { annotations: { audience: ['user'] } })]);
 * ```
 */
export function text(value: string, options?: BlockOptions): TextContent {
  return withOptions<TextContent>({ type: 'text', text: value }, options);
}

/**
 * An image block from bytes or base64.
 *
 * @throws {TypeError} for a string that is not base64, or a missing MIME type.
 * @example
 * ```ts
 * image(pngBytes, 'image/png');
 * ```
 */
export function image(data: BinaryData, mimeType: string, options?: BlockOptions): ImageContent {
  return withOptions<ImageContent>(
    { type: 'image', data: toBase64(data), mimeType: requireMimeType(mimeType, 'Image') },
    options,
  );
}

/**
 * An audio block from bytes or base64.
 *
 * @throws {TypeError} for a string that is not base64, or a missing MIME type.
 * @example
 * ```ts
 * audio(wavBytes, 'audio/wav');
 * ```
 */
export function audio(data: BinaryData, mimeType: string, options?: BlockOptions): AudioContent {
  return withOptions<AudioContent>(
    { type: 'audio', data: toBase64(data), mimeType: requireMimeType(mimeType, 'Audio') },
    options,
  );
}

/**
 * A `resource_link` block: a pointer the client may read with `resources/read`.
 *
 * @example
 * ```ts
 * resourceLink({ uri: 'file:///reports/q3.pdf', name: 'q3.pdf', mimeType: 'application/pdf' });
 * ```
 */
export function resourceLink(resource: Omit<ResourceLink, 'type'>): ResourceLink {
  if (typeof resource.uri !== 'string' || typeof resource.name !== 'string') {
    throw new TypeError('A resource link needs a string "uri" and "name"');
  }
  return { type: 'resource_link', ...resource };
}

/**
 * Contents for {@link embeddedResource}: text, or a blob as bytes or base64.
 *
 * @example
 * ```ts
 * const contents: EmbeddedContents = { uri: 'memo://1', mimeType: 'text/plain', text: 'Buy milk' };
 * ```
 */
export type EmbeddedContents =
  | TextResourceContents
  | (Omit<BlobResourceContents, 'blob'> & { blob: BinaryData });

/**
 * An embedded `resource` block: a resource's contents placed inline.
 *
 * @throws {TypeError} when neither `text` nor `blob` is given, or a string blob is not base64.
 * @example
 * ```ts
 * embeddedResource({ uri: 'memo://1', mimeType: 'text/plain', text: 'Buy milk' });
 * embeddedResource({ uri: 'file:///logo.png', mimeType: 'image/png', blob: pngBytes });
 * ```
 */
export function embeddedResource(contents: EmbeddedContents, options?: BlockOptions): EmbeddedResource {
  if (typeof contents.uri !== 'string') throw new TypeError('An embedded resource needs a string "uri"');
  let resource: TextResourceContents | BlobResourceContents;
  if ('text' in contents && typeof contents.text === 'string') {
    resource = contents;
  } else if ('blob' in contents && contents.blob !== undefined) {
    resource = { ...contents, blob: toBase64(contents.blob) };
  } else {
    throw new TypeError('An embedded resource needs "text" or "blob"');
  }
  return withOptions<EmbeddedResource>({ type: 'resource', resource }, options);
}
