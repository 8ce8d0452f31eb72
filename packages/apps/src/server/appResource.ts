/**
 * An app's view: a `ui://` resource of MIME type `text/html;profile=mcp-app` whose `_meta.ui`
 * (CSP domains, permissions, domain, border) rides on both its listing entry and its content item
 * (the spec has hosts prefer the content item; the listing lets them review it at connection time).
 * @module
 */
import type { ReadResourceResult } from '@mcpkit/core';
import type { McpServer, RegisteredResource, RequestContext, ResourceConfig } from '@mcpkit/server';
import { APP_MIME_TYPE } from '../shared/constants.js';
import { checkedSources } from '../shared/csp.js';
import type { UiResourceMeta } from '../shared/meta.js';
import { appRegistry } from './negotiation.js';

/**
 * An app resource's listing fields and UI metadata.
 *
 * @example
 * ```ts
 * const config: AppResourceConfig = { name: 'clock', csp: { connectDomains: ['https://time.example.com'] }, prefersBorder: true };
 * ```
 */
export interface AppResourceConfig extends Omit<ResourceConfig, 'mimeType'>, UiResourceMeta {}

/**
 * Reads an app's HTML: the document as a string (a full HTML5 document).
 *
 * @example
 * ```ts
 * const read: AppHtmlReader = () => '<!doctype html><html><body>hi</body></html>';
 * ```
 */
export type AppHtmlReader = (uri: string, ctx: RequestContext) => string | Promise<string>;

/**
 * `_meta.ui` from the config's UI fields, checked (CSP entries must be plain origins).
 *
 * @throws {TypeError} for a CSP entry that is not an origin, or a `ui` key in `_meta` as well.
 */
function uiMetaOf(config: AppResourceConfig): UiResourceMeta {
  const ui: UiResourceMeta = {};
  if (config.csp) {
    const csp: NonNullable<UiResourceMeta['csp']> = {};
    for (const kind of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
      try {
        if (config.csp[kind] !== undefined) csp[kind] = checkedSources(kind, config.csp[kind]);
      } catch (error) {
        throw new TypeError((error as Error).message);
      }
    }
    ui.csp = csp;
  }
  if (config.permissions) ui.permissions = structuredClone(config.permissions);
  if (config.domain !== undefined) ui.domain = config.domain;
  if (config.prefersBorder !== undefined) ui.prefersBorder = config.prefersBorder;
  return ui;
}

/**
 * Registers an app's view resource. The server needs the `resources` option.
 *
 * @throws {TypeError} for a URI that is not `ui://…`, a CSP entry that is not a plain origin, a
 *   `_meta.ui` given beside the UI fields, or what `server.resource()` refuses.
 * @example
 * ```ts
 * const clockHtml = '<!doctype html><html><body><time></time></body></html>';
 * appResource(server, 'ui://clock/view', { name: 'clock', prefersBorder: true }, () => clockHtml);
 * ```
 */
export function appResource(
  server: McpServer,
  uri: string,
  config: AppResourceConfig,
  read: AppHtmlReader,
): RegisteredResource {
  if (!uri.startsWith('ui://'))
    throw new TypeError(`An app resource's URI must start with ui:// (got ${uri})`);
  if (config._meta && 'ui' in config._meta)
    throw new TypeError('Give the UI metadata as fields, not as _meta.ui');
  const { csp: _c, permissions: _p, domain: _d, prefersBorder: _b, ...listing } = config;
  const ui = uiMetaOf(config);
  const meta = { ...config._meta, ui };
  appRegistry(server);
  const resource = server.resource(
    uri,
    { ...listing, mimeType: APP_MIME_TYPE, _meta: meta },
    async (requested, ctx): Promise<ReadResourceResult> => ({
      contents: [
        { uri: requested, mimeType: APP_MIME_TYPE, text: await read(requested, ctx), _meta: { ui } },
      ],
    }),
  );
  return resource;
}
