/**
 * An app's view as the bridge renders it: the HTML and the `_meta.ui` of a `ui://` resource read
 * from its server (`resources/read`), checked: the URI, the MIME type, text or base64 HTML.
 * @module
 */
import type { ReadResourceResult } from '@mcpkit/core';
import { APP_MIME_TYPE } from '../shared/constants.js';
import { resourceUiMeta, type UiResourceMeta } from '../shared/meta.js';

/**
 * A view ready to render.
 *
 * @example
 * ```ts
 * const view: AppView = { uri: 'ui://clock/view', html: '<!doctype html><p>clock</p>', meta: {} };
 * ```
 */
export interface AppView {
  uri: string;
  html: string;
  meta: UiResourceMeta;
}

/**
 * A view that cannot be rendered (a local failure: the resource is missing or not an app).
 *
 * @example
 * ```ts
 * try { appViewOf('ui://x', { contents: [] }); } catch (e) { e instanceof AppResourceError; }
 * ```
 */
export class AppResourceError extends Error {
  override readonly name = 'AppResourceError';
}

function decodeBase64Utf8(blob: string): string {
  const bytes = Uint8Array.from(atob(blob), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * The view in a `resources/read` result; `listing` is the resource's `resources/list` entry, whose
 * `_meta.ui` counts when the content item has none.
 *
 * @throws {AppResourceError} for a URI outside `ui://`, no content of the app MIME type, or no HTML.
 * @example
 * ```ts
 * const view = appViewOf('ui://clock/view', await client.readResource('ui://clock/view'));
 * ```
 */
export function appViewOf(uri: string, read: ReadResourceResult, listing?: { _meta?: unknown }): AppView {
  if (!uri.startsWith('ui://')) throw new AppResourceError(`${uri} is not a ui:// resource`);
  const content = read.contents.find(
    (item) =>
      item.mimeType
        ?.split(';')
        .map((part) => part.trim().toLowerCase())
        .join(';') === APP_MIME_TYPE,
  );
  if (!content) throw new AppResourceError(`${uri} has no content of type ${APP_MIME_TYPE}`);
  const html =
    'text' in content && typeof content.text === 'string'
      ? content.text
      : 'blob' in content && typeof content.blob === 'string'
        ? decodeBase64Utf8(content.blob)
        : undefined;
  if (html === undefined) throw new AppResourceError(`${uri} has no HTML`);
  return { uri, html, meta: resourceUiMeta(content, listing) };
}
