/**
 * The Content-Security-Policy of a view, built only from the domains its resource declares
 * (SEP-1865 "Host Behavior"): the spec's restrictive default for what is not declared, never
 * anything wider. A declared entry must be a plain origin (`https://api.example.com`,
 * `https://*.example.com`, `http://127.0.0.1:8080`, `wss://…`): keywords, schemes alone, paths,
 * wildcards other than a leading `*.` label, and anything with spaces or `;` are refused, so a
 * server cannot smuggle a directive or `'unsafe-eval'` through its metadata.
 * @module
 */
import type { UiCsp, UiPermissions } from './meta.js';

/** At most this many origins per kind, and this many characters per origin. */
const MAX_SOURCES = 32;
const MAX_SOURCE_LENGTH = 256;

// Linear: every repetition starts at a literal '.', so there is one way to match.
const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?$/;

/**
 * A declared CSP domain that is not a plain origin (a local failure of the declaration, refused
 * before any policy is built).
 *
 * @example
 * ```ts
 * try { contentSecurityPolicy({ connectDomains: ["'unsafe-eval'"] }); } catch (e) { e instanceof InvalidCspError; }
 * ```
 */
export class InvalidCspError extends Error {
  override readonly name = 'InvalidCspError';
}

/**
 * The declared origins of one kind, checked: a copy without duplicates.
 *
 * @throws {InvalidCspError} for an entry that is not a plain origin, or too many entries.
 * @example
 * ```ts
 * checkedSources('connectDomains', ['https://api.example.com']); // ['https://api.example.com']
 * ```
 */
export function checkedSources(kind: keyof UiCsp, sources: readonly unknown[] | undefined): string[] {
  if (sources === undefined) return [];
  if (!Array.isArray(sources)) throw new InvalidCspError(`csp.${kind} must be an array of origins`);
  if (sources.length > MAX_SOURCES)
    throw new InvalidCspError(`csp.${kind} lists more than ${MAX_SOURCES} origins`);
  const out = new Set<string>();
  for (const source of sources) {
    if (typeof source !== 'string' || source.length > MAX_SOURCE_LENGTH || !ORIGIN.test(source)) {
      throw new InvalidCspError(
        `csp.${kind} entry ${JSON.stringify(String(source).slice(0, 80))} is not an origin like https://api.example.com`,
      );
    }
    out.add(source);
  }
  return [...out];
}

/**
 * The policy for a view that declared `csp` (absent: the restrictive default). Directives:
 * `default-src 'none'`; scripts and styles from the sandbox origin, inline, and `resourceDomains`;
 * images and media also from `data:`; `connect-src` exactly `connectDomains` (`'none'` when
 * empty); `frame-src` exactly `frameDomains` (`'none'`); `base-uri` `baseUriDomains` (`'self'`);
 * `object-src 'none'`; `form-action 'none'`.
 *
 * @throws {InvalidCspError} when a declared entry is not a plain origin.
 * @example
 * ```ts
 * contentSecurityPolicy({ connectDomains: ['https://api.example.com'] });
 * // "default-src 'none'; script-src 'self' 'unsafe-inline'; … connect-src https://api.example.com; …"
 * ```
 */
export function contentSecurityPolicy(csp: UiCsp | undefined): string {
  const resources = checkedSources('resourceDomains', csp?.resourceDomains);
  const connect = checkedSources('connectDomains', csp?.connectDomains);
  const frames = checkedSources('frameDomains', csp?.frameDomains);
  const bases = checkedSources('baseUriDomains', csp?.baseUriDomains);
  const list = (sources: string[], fallback: string) => (sources.length > 0 ? sources.join(' ') : fallback);
  const withResources = (base: string) => [base, ...resources].join(' ');
  return [
    "default-src 'none'",
    `script-src ${withResources("'self' 'unsafe-inline'")}`,
    `style-src ${withResources("'self' 'unsafe-inline'")}`,
    `img-src ${withResources("'self' data:")}`,
    `font-src ${withResources("'self'")}`,
    `media-src ${withResources("'self' data:")}`,
    `connect-src ${list(connect, "'none'")}`,
    `frame-src ${list(frames, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(bases, "'self'")}`,
    "form-action 'none'",
  ].join('; ');
}

/**
 * The `allow` attribute (Permissions Policy) granting the permissions a view asked for that the
 * host agreed to: only features in both.
 *
 * @example
 * ```ts
 * allowAttribute({ camera: {}, clipboardWrite: {} }, { clipboardWrite: {} }); // 'clipboard-write'
 * ```
 */
export function allowAttribute(
  requested: UiPermissions | undefined,
  granted: UiPermissions | undefined,
): string {
  const features: Array<[keyof UiPermissions, string]> = [
    ['camera', 'camera'],
    ['microphone', 'microphone'],
    ['geolocation', 'geolocation'],
    ['clipboardWrite', 'clipboard-write'],
  ];
  return features
    .filter(([key]) => requested?.[key] !== undefined && granted?.[key] !== undefined)
    .map(([, feature]) => feature)
    .join('; ');
}
