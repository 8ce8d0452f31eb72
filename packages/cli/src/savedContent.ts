/**
 * `call --out DIR`: the images, audio and binary resources of a tool result written to files, so
 * `mcpkit call URL screenshot --out shots` gives a PNG to open rather than `[image image/png, 1.6 KB]`.
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@mcpkit/core';

/** File name endings for the media types servers send most; anything else is `.bin`. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/gzip': 'gz',
};

/**
 * Writes every binary block of `result` into `dir` (created if needed) as `TOOL-N.EXT`, N counting
 * the result's blocks from 1, and never over an existing file (`TOOL-N-2.EXT` then). Resolves with
 * the path of each saved block by its index in `result.content`.
 *
 * @example
 * ```ts
 * const saved = await saveBinaryContent(result, 'shots', 'screenshot');
 * saved.get(0); // 'shots/screenshot-1.png'
 * ```
 */
export async function saveBinaryContent(
  result: CallToolResult,
  dir: string,
  tool: string,
): Promise<Map<number, string>> {
  const saved = new Map<number, string>();
  const blocks = result.content ?? [];
  const stem = tool.replace(/[^\w.-]+/g, '_');
  for (const [index, block] of blocks.entries()) {
    const binary = binaryOf(block);
    if (!binary) continue;
    if (saved.size === 0) await mkdir(dir, { recursive: true });
    const extension = EXTENSIONS[binary.mimeType?.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'bin';
    saved.set(
      index,
      await writeNew(dir, `${stem}-${index + 1}`, extension, Buffer.from(binary.base64, 'base64')),
    );
  }
  return saved;
}

function binaryOf(
  block: CallToolResult['content'][number],
): { base64: string; mimeType?: string } | undefined {
  if (block.type === 'image' || block.type === 'audio')
    return { base64: block.data, mimeType: block.mimeType };
  if (block.type === 'resource' && 'blob' in block.resource) {
    return {
      base64: block.resource.blob,
      ...(block.resource.mimeType ? { mimeType: block.resource.mimeType } : {}),
    };
  }
  return undefined;
}

/** Writes `bytes` to a file that did not exist: `name.ext`, else `name-2.ext`, `name-3.ext`… */
async function writeNew(dir: string, name: string, extension: string, bytes: Uint8Array): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const file = path.join(dir, `${name}${attempt === 1 ? '' : `-${attempt}`}.${extension}`);
    try {
      await writeFile(file, bytes, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
