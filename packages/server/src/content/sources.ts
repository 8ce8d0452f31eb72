/**
 * Content blocks built from wherever the bytes are: memory, a `Blob`, a `data:` URI or an
 * `http(s)` URL (fetched with a timeout and a size cap).
 *
 * This package runs on any runtime, so it cannot read files: on Node, read the file with
 * `fs.readFile` and pass the bytes. A `file:` URL is refused with a message that says so.
 * @module
 */
import type { AudioContent, EmbeddedResource, ImageContent } from '@mcpkit/core';
import { readCapped } from '@mcpkit/core/internal';
import { decodeBase64, encodeBase64, isBase64 } from './base64.js';
import { type BlockOptions, embeddedResource } from './content.js';

/**
 * Where binary content comes from: bytes, a `Blob`, an `http(s)`/`data:` URL (as a `URL` or a
 * string), or a string of base64.
 *
 * @example
 * ```ts
 * declare const bytes: Uint8Array;
 * declare const blob: Blob;
 * const sources: BinarySource[] = [bytes, blob, new URL('https://example.com/a.png'), 'iVBORw0KGgo='];
 * ```
 */
export type BinarySource = string | Uint8Array | ArrayBuffer | Blob | URL;

/**
 * Options of {@link imageFrom}, {@link audioFrom} and {@link fileResource}.
 *
 * @example
 * ```ts
 * await imageFrom(new URL('https://example.com/chart'), { mimeType: 'image/png', timeoutMs: 5_000 });
 * ```
 */
export interface SourceOptions extends BlockOptions {
  /** The MIME type; otherwise it is recognised from the bytes, then taken from `Content-Type`. */
  mimeType?: string;
  /** Longest wait for a URL, in ms. Default 10 000. */
  timeoutMs?: number;
  /** Largest accepted size in bytes. Default 20 MiB. */
  maxBytes?: number;
  /** Cancels a fetch (pass the handler's `ctx.signal`). */
  signal?: AbortSignal;
  /** The `fetch` to use (for proxies or credentials). Default: the global `fetch`. */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

/** Bytes and what is known of their type; base64 when the source already was base64. */
interface LoadedBinary {
  readonly base64: string;
  readonly head: Uint8Array;
  readonly declaredType: string | undefined;
  readonly bytes: Uint8Array | undefined;
}

/**
 * An image block from any {@link BinarySource}. The MIME type is `options.mimeType`, else
 * recognised from the bytes (PNG, JPEG, GIF, WebP), else the `Blob`/`data:`/HTTP type.
 *
 * @throws {TypeError} for a `file:` URL, bad base64, or an unknown image type.
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 *
 * server.tool('logo', {}, async () => imageFrom(await readFile('logo.png')));
 * server.tool('chart', {}, async (_args, ctx) => imageFrom(new URL('https://example.com/c.png'), { signal: ctx.signal }));
 * ```
 */
export async function imageFrom(source: BinarySource, options: SourceOptions = {}): Promise<ImageContent> {
  const loaded = await loadBinary(source, options);
  const mimeType = pickMimeType(options.mimeType, sniffImage(loaded.head), loaded.declaredType, 'image/');
  if (!mimeType) throw new TypeError('Cannot tell the image type: pass options.mimeType (e.g. "image/png")');
  return withBlockOptions<ImageContent>({ type: 'image', data: loaded.base64, mimeType }, options);
}

/**
 * An audio block from any {@link BinarySource}. The MIME type is `options.mimeType`, else
 * recognised from the bytes (WAV, MP3, OGG, FLAC, MP4), else the `Blob`/`data:`/HTTP type.
 *
 * @throws {TypeError} for a `file:` URL, bad base64, or an unknown audio type.
 * @example
 * ```ts
 * server.tool('beep', {}, async () => audioFrom(wavBytes));
 * ```
 */
export async function audioFrom(source: BinarySource, options: SourceOptions = {}): Promise<AudioContent> {
  const loaded = await loadBinary(source, options);
  const mimeType = pickMimeType(options.mimeType, sniffAudio(loaded.head), loaded.declaredType, 'audio/');
  if (!mimeType) throw new TypeError('Cannot tell the audio type: pass options.mimeType (e.g. "audio/wav")');
  return withBlockOptions<AudioContent>({ type: 'audio', data: loaded.base64, mimeType }, options);
}

/**
 * An embedded resource holding a file's contents: `text` when the type is textual (or
 * `options.text` is true) and the bytes are UTF-8, a base64 `blob` otherwise.
 *
 * @throws {TypeError} for a `file:` URL or bad base64; `options.text` with bytes that are not UTF-8.
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 *
 * const notes = await fileResource('file:///notes.md', await readFile('notes.md'), { mimeType: 'text/markdown' });
 * ```
 */
export async function fileResource(
  uri: string,
  source: BinarySource,
  options: SourceOptions & { text?: boolean } = {},
): Promise<EmbeddedResource> {
  if (typeof uri !== 'string' || uri.length === 0) throw new TypeError('fileResource needs a URI');
  const loaded = await loadBinary(source, options);
  const mimeType =
    options.mimeType ??
    sniffImage(loaded.head) ??
    sniffAudio(loaded.head) ??
    loaded.declaredType ??
    'application/octet-stream';
  const wantText = options.text ?? isTextual(mimeType);
  if (wantText) {
    const decoded = decodeUtf8(loaded.bytes ?? decodeBase64(loaded.base64));
    if (decoded !== undefined) return embeddedResource({ uri, mimeType, text: decoded }, options);
    if (options.text) throw new TypeError(`The contents of ${uri} are not UTF-8 text`);
  }
  return embeddedResource({ uri, mimeType, blob: loaded.base64 }, options);
}

function withBlockOptions<T extends object>(block: T, options: BlockOptions): T {
  const out = block as T & BlockOptions;
  if (options.annotations !== undefined) out.annotations = options.annotations;
  if (options._meta !== undefined) out._meta = options._meta;
  return out;
}

function pickMimeType(
  explicit: string | undefined,
  sniffed: string | undefined,
  declared: string | undefined,
  family: string,
): string | undefined {
  if (explicit !== undefined) return explicit;
  if (sniffed !== undefined) return sniffed;
  return declared?.startsWith(family) ? declared : undefined;
}

async function loadBinary(source: BinarySource, options: SourceOptions): Promise<LoadedBinary> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
    return fromBytes(checkSize(bytes, maxBytes), undefined);
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    if (source.size > maxBytes) throw tooLarge(maxBytes);
    return fromBytes(new Uint8Array(await source.arrayBuffer()), source.type || undefined);
  }
  if (source instanceof URL) return loadUrl(source, options, maxBytes);
  if (typeof source === 'string') {
    // Base64 has no ":", so a string with a scheme is a URL and anything else is base64.
    if (/^[a-z][a-z0-9+.-]*:/i.test(source.slice(0, 32))) return loadUrl(new URL(source), options, maxBytes);
    if (!isBase64(source)) throw new TypeError('A string source must be base64, or an http(s): or data: URL');
    return fromBase64(source, undefined, maxBytes);
  }
  throw new TypeError('Expected bytes, a Blob, a URL or a base64 string');
}

/** Valid base64 is kept as it is: only its head is decoded, to sniff the type. */
function fromBase64(base64: string, declaredType: string | undefined, maxBytes: number): LoadedBinary {
  if ((base64.length * 3) / 4 > maxBytes + 2) throw tooLarge(maxBytes);
  return { base64, head: decodeBase64(base64.slice(0, 24)), declaredType, bytes: undefined };
}

function fromBytes(bytes: Uint8Array, declaredType: string | undefined): LoadedBinary {
  return { base64: encodeBase64(bytes), head: bytes.subarray(0, 16), declaredType, bytes };
}

function checkSize(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

function tooLarge(maxBytes: number): RangeError {
  return new RangeError(`The content is larger than ${maxBytes} bytes (raise options.maxBytes to allow it)`);
}

async function loadUrl(url: URL, options: SourceOptions, maxBytes: number): Promise<LoadedBinary> {
  if (url.protocol === 'data:') return loadDataUrl(url.href, maxBytes);
  if (url.protocol === 'file:') {
    throw new TypeError(
      'file: URLs cannot be read here (this package runs on any runtime): read the file yourself, e.g. with fs.readFile, and pass the bytes',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Unsupported URL scheme "${url.protocol}": use http:, https: or data:`);
  }
  const where = `${url.origin}${url.pathname}`;
  const signal = fetchSignal(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
  const response = await (options.fetch ?? fetch)(url, { signal });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`Fetching ${where} failed: HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length'));
  if (length > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }
  const bytes = await readResponse(response, maxBytes);
  const contentType = response.headers.get('content-type');
  const declared = contentType ? contentType.split(';')[0]!.trim().toLowerCase() : undefined;
  return fromBytes(bytes, declared || undefined);
}

function fetchSignal(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  if (!signal) return timeout;
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  return any ? any([timeout, signal]) : signal;
}

async function readResponse(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const bytes = await readCapped(response.body, maxBytes);
  if (bytes === 'too-large') throw tooLarge(maxBytes);
  return bytes;
}

/** `data:[type][;base64],payload`: base64 payloads are kept as they are; others are percent-decoded. */
function loadDataUrl(href: string, maxBytes: number): LoadedBinary {
  const comma = href.indexOf(',');
  if (comma === -1) throw new TypeError('Malformed data: URL (no ",")');
  const header = href.slice(5, comma);
  const payload = href.slice(comma + 1);
  const params = header.split(';');
  const declared = params[0]?.trim().toLowerCase() || undefined;
  if (params.slice(1).some((param) => param.trim().toLowerCase() === 'base64')) {
    if (!isBase64(payload)) throw new TypeError('The data: URL payload is not valid base64');
    return fromBase64(payload, declared, maxBytes);
  }
  const bytes = new TextEncoder().encode(decodeURIComponent(payload));
  return fromBytes(checkSize(bytes, maxBytes), declared);
}

function startsWith(head: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (head.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (head[offset + i] !== signature[i]) return false;
  return true;
}

const RIFF = [0x52, 0x49, 0x46, 0x46];

/** The image type the first bytes announce, if it is one clients must or should render. */
function sniffImage(head: Uint8Array): string | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(head, RIFF) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

function sniffAudio(head: Uint8Array): string | undefined {
  if (startsWith(head, RIFF) && startsWith(head, [0x57, 0x41, 0x56, 0x45], 8)) return 'audio/wav';
  if (startsWith(head, [0x49, 0x44, 0x33])) return 'audio/mpeg';
  if (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0) return 'audio/mpeg';
  if (startsWith(head, [0x4f, 0x67, 0x67, 0x53])) return 'audio/ogg';
  if (startsWith(head, [0x66, 0x4c, 0x61, 0x43])) return 'audio/flac';
  if (startsWith(head, [0x66, 0x74, 0x79, 0x70], 4)) return 'audio/mp4';
  return undefined;
}

function isTextual(mimeType: string): boolean {
  const type = mimeType.toLowerCase();
  return (
    type.startsWith('text/') ||
    type.endsWith('+json') ||
    type.endsWith('+xml') ||
    type === 'application/json' ||
    type === 'application/xml' ||
    type === 'application/javascript' ||
    type === 'application/yaml' ||
    type === 'image/svg+xml'
  );
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
