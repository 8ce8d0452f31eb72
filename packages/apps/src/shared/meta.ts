/**
 * The metadata MCP Apps adds to resources (`_meta.ui` of a `ui://` resource: CSP domains,
 * permissions, dedicated domain, border) and to tools (`_meta.ui`: the view's URI and who may
 * call the tool), with readers that take what a peer sent without trusting its shape.
 * @module
 */

/**
 * The origins a view may reach, by kind; each maps to CSP directives (see `contentSecurityPolicy`).
 * Empty or absent means none.
 *
 * @example
 * ```ts
 * const csp: UiCsp = { connectDomains: ['https://api.example.com'] };
 * ```
 */
export interface UiCsp {
  /** `fetch`/XHR/WebSocket targets (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts, media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
  /** Nested frames (`frame-src`). */
  frameDomains?: string[];
  /** `<base href>` targets (`base-uri`). */
  baseUriDomains?: string[];
}

/**
 * Browser features a view asks for; a host may grant them through the frame's `allow` attribute.
 *
 * @example
 * ```ts
 * const permissions: UiPermissions = { clipboardWrite: {} };
 * ```
 */
export interface UiPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/**
 * `_meta.ui` of an app resource (on its listing entry and/or its content item; the content item wins).
 *
 * @example
 * ```ts
 * const meta: UiResourceMeta = { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true };
 * ```
 */
export interface UiResourceMeta {
  csp?: UiCsp;
  permissions?: UiPermissions;
  /** A dedicated sandbox origin; its format is the host's to define. */
  domain?: string;
  /** `true`: the host draws a border and background; `false`: it does not; absent: the host decides. */
  prefersBorder?: boolean;
}

/**
 * Who may call a tool: `model` (the agent), `app` (a view of the same server).
 *
 * @example
 * ```ts
 * const appOnly: UiVisibility[] = ['app'];
 * ```
 */
export type UiVisibility = 'model' | 'app';

/**
 * `_meta.ui` of a tool.
 *
 * @example
 * ```ts
 * const meta: UiToolMeta = { resourceUri: 'ui://clock/view', visibility: ['model', 'app'] };
 * ```
 */
export interface UiToolMeta {
  /** The `ui://` resource that renders the tool's results. */
  resourceUri?: string;
  /** Default `['model', 'app']`. */
  visibility?: UiVisibility[];
}

/** The deprecated flat key some servers still send (`_meta["ui/resourceUri"]`). */
const LEGACY_RESOURCE_URI = 'ui/resourceUri';

const DEFAULT_VISIBILITY: readonly UiVisibility[] = ['model', 'app'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool's app link as a host should read it: `_meta.ui.resourceUri` (or the deprecated
 * `_meta["ui/resourceUri"]`) when it is a `ui://` URI, and the visibility (default both).
 * `undefined` when the tool has no view.
 *
 * @example
 * ```ts
 * appLinkOf({ _meta: { ui: { resourceUri: 'ui://clock/view' } } });
 * // { resourceUri: 'ui://clock/view', visibility: ['model', 'app'] }
 * ```
 */
export function appLinkOf(tool: {
  _meta?: unknown;
}): { resourceUri: string; visibility: UiVisibility[] } | undefined {
  const meta = isRecord(tool._meta) ? tool._meta : undefined;
  const ui = isRecord(meta?.ui) ? meta.ui : undefined;
  const uri = typeof ui?.resourceUri === 'string' ? ui.resourceUri : meta?.[LEGACY_RESOURCE_URI];
  if (typeof uri !== 'string' || !uri.startsWith('ui://')) return undefined;
  return { resourceUri: uri, visibility: visibilityOf(tool) };
}

/**
 * Who may call a tool, from its `_meta.ui.visibility` (default `['model', 'app']`; unknown
 * entries dropped; a malformed value counts as the default).
 *
 * @example
 * ```ts
 * visibilityOf({ _meta: { ui: { visibility: ['app'] } } }); // ['app']
 * visibilityOf({}); // ['model', 'app']
 * ```
 */
export function visibilityOf(tool: { _meta?: unknown }): UiVisibility[] {
  const meta = isRecord(tool._meta) ? tool._meta : undefined;
  const ui = isRecord(meta?.ui) ? meta.ui : undefined;
  if (!Array.isArray(ui?.visibility)) return [...DEFAULT_VISIBILITY];
  return ui.visibility.filter((entry): entry is UiVisibility => entry === 'model' || entry === 'app');
}

/**
 * The `_meta.ui` of an app resource as a host should take it: the content item's, else the listing
 * entry's (the spec's precedence), reduced to the known fields with the right types.
 *
 * @example
 * ```ts
 * resourceUiMeta({ _meta: { ui: { prefersBorder: true } } }, undefined); // { prefersBorder: true }
 * ```
 */
export function resourceUiMeta(
  content: { _meta?: unknown } | undefined,
  listing?: { _meta?: unknown },
): UiResourceMeta {
  const pick = (item: { _meta?: unknown } | undefined) =>
    isRecord(item?._meta) && isRecord(item._meta.ui) ? item._meta.ui : undefined;
  const ui = pick(content) ?? pick(listing) ?? {};
  const out: UiResourceMeta = {};
  if (isRecord(ui.csp)) {
    const csp: UiCsp = {};
    for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
      const list = ui.csp[key];
      if (Array.isArray(list)) csp[key] = list.filter((entry): entry is string => typeof entry === 'string');
    }
    out.csp = csp;
  }
  if (isRecord(ui.permissions)) {
    const permissions: UiPermissions = {};
    for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) {
      if (isRecord(ui.permissions[key])) permissions[key] = {};
    }
    out.permissions = permissions;
  }
  if (typeof ui.domain === 'string') out.domain = ui.domain;
  if (typeof ui.prefersBorder === 'boolean') out.prefersBorder = ui.prefersBorder;
  return out;
}
