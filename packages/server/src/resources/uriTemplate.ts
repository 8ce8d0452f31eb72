/**
 * RFC 6570 URI templates for MCP resource templates.
 *
 * Expansion is delegated to the `url-template` library so that the encoding rules of RFC 6570 live
 * in one well-tested place. Matching (the inverse, which RFC 6570 leaves undefined) is ours: the
 * template is parsed once into literal and expression parts, and a URI is matched by a single
 * left-to-right scan with no regular expressions, so its cost grows linearly with the URI. This is
 * deliberate: the official SDK compiled templates into backtracking regular expressions and shipped
 * an exponential-time match on exploded variables (CVE-2026-0621).
 * @module
 */

import { parseTemplate, type Template } from 'url-template';
import {
  Bindings,
  type Boundary,
  boundaries,
  expressionEnd,
  matchExpression,
  type UriTemplateMatch,
} from './uriTemplateMatch.js';
import { parseParts, type TemplatePart, UriTemplateError } from './uriTemplateParse.js';

/** A value a template variable can take when expanding. `undefined` leaves the variable out. */
export type UriTemplateValue = string | string[] | Record<string, string> | undefined;

/** Values for {@link UriTemplate.expand}, keyed by variable name. */
export type UriTemplateVariables = Record<string, UriTemplateValue>;

export type { UriTemplateMatch } from './uriTemplateMatch.js';

/** Size limits for a {@link UriTemplate}; both default to the `DEFAULT_*` statics. */
export interface UriTemplateOptions {
  /** Templates longer than this (in UTF-16 code units) are refused by the constructor. */
  maxTemplateLength?: number;
  /** URIs longer than this (in UTF-16 code units) never match; `match` returns `undefined` at once. */
  maxUriLength?: number;
}

export { UriTemplateError } from './uriTemplateParse.js';

/**
 * An RFC 6570 URI template, as used by MCP `ResourceTemplate.uriTemplate`: expands variables into a
 * URI and matches a URI back into variables.
 *
 * Matching is a best-effort inverse of expansion, decided left to right without backtracking:
 * - a literal must appear verbatim (in its expanded, percent-encoded form);
 * - an expression runs up to the next literal (the template's last literal is anchored at the end
 *   of the URI, any other at its first occurrence), up to the operator character of a directly
 *   following expression, or up to a reserved character its operator never emits unencoded;
 * - inside an expression, items are split on the operator's separator; `;`, `?` and `&` items are
 *   matched by name in any order (unknown names do not match), other operators assign items in
 *   template order; an exploded variable takes all remaining items (or every item with its name);
 * - values are percent-decoded; malformed escapes make the URI not match.
 * A non-exploded value with an unencoded comma (outside `+`/`#`) is returned as a list.
 *
 * @example
 * ```ts
 * const t = new UriTemplate('users/{id}/posts{/postId}{?fields*}');
 * t.expand({ id: 'ada lovelace', postId: '7', fields: ['title', 'body'] });
 * // 'users/ada%20lovelace/posts/7?fields=title&fields=body'
 * t.match('users/ada%20lovelace/posts/7?fields=title&fields=body');
 * // { id: 'ada lovelace', postId: '7', fields: ['title', 'body'] }
 * t.match('users/ada/comments'); // undefined
 * ```
 */
export class UriTemplate {
  /** Default longest template the constructor accepts. */
  static readonly DEFAULT_MAX_TEMPLATE_LENGTH = 4096;
  /** Default longest URI `match` will look at. */
  static readonly DEFAULT_MAX_URI_LENGTH = 8192;

  /** The template text as given. */
  readonly template: string;
  /** Names of the template's variables, each once, in order of first appearance. */
  readonly variableNames: readonly string[];

  readonly #parts: readonly TemplatePart[];
  readonly #boundaries: readonly Boundary[];
  readonly #expander: Template;
  readonly #maxUriLength: number;

  /**
   * Parses a template.
   *
   * @throws {UriTemplateError} for a malformed template (unbalanced braces, empty or reserved
   * operator, bad variable name or prefix) or one longer than `maxTemplateLength`.
   * @example
   * ```ts
   * new UriTemplate('file:///{+path}');
   * new UriTemplate('search{?q', { maxUriLength: 2048 }); // throws UriTemplateError: unclosed "{"
   * ```
   */
  constructor(template: string, options: UriTemplateOptions = {}) {
    const maxTemplateLength = positiveLimit(
      options.maxTemplateLength,
      UriTemplate.DEFAULT_MAX_TEMPLATE_LENGTH,
    );
    this.#maxUriLength = positiveLimit(options.maxUriLength, UriTemplate.DEFAULT_MAX_URI_LENGTH);
    if (typeof template !== 'string') throw new UriTemplateError('A URI template must be a string');
    if (template.length > maxTemplateLength) {
      throw new UriTemplateError(`URI template is longer than ${maxTemplateLength} characters`);
    }
    this.template = template;
    this.#parts = parseParts(template);
    this.#boundaries = boundaries(this.#parts);
    this.#expander = parseTemplate(template);
    const names = this.#parts.flatMap((part) =>
      part.kind === 'expression' ? part.varSpecs.map((v) => v.name) : [],
    );
    this.variableNames = Object.freeze([...new Set(names)]);
  }

  /**
   * Whether a string contains at least one `{expression}` (non-empty, no whitespace or braces
   * inside), i.e. whether it is a template rather than a plain URI. It does not validate the
   * template; the constructor does.
   *
   * @example
   * ```ts
   * UriTemplate.isTemplate('test://template/{id}/data'); // true
   * UriTemplate.isTemplate('test://static/resource'); // false
   * ```
   */
  static isTemplate(s: string): boolean {
    let open = -1;
    for (let i = 0; i < s.length; i++) {
      const char = s[i]!;
      if (char === '{') open = i;
      else if (char === '}' && open !== -1 && i > open + 1) return true;
      else if (char === '}' || char.trim() === '') open = -1;
    }
    return false;
  }

  /**
   * Expands the template with RFC 6570 semantics (via the `url-template` library). Undefined values,
   * empty lists and empty maps leave their variable out, as RFC 6570 section 2.3 says.
   *
   * @throws {UriTemplateError} when a value holds a lone UTF-16 surrogate (not percent-encodable).
   * @example
   * ```ts
   * new UriTemplate('search{?q,lang}').expand({ q: 'mcp & you', lang: undefined }); // 'search?q=mcp%20%26%20you'
   * new UriTemplate('{/segments*}').expand({ segments: ['a', 'b c'] }); // '/a/b%20c'
   * ```
   */
  expand(variables: UriTemplateVariables): string {
    const context: Record<string, string | string[] | Record<string, string>> = Object.create(null);
    for (const [name, value] of Object.entries(variables)) {
      if (isDefinedValue(value)) context[name] = value;
    }
    try {
      return this.#expander.expand(context);
    } catch (error) {
      if (error instanceof URIError) {
        throw new UriTemplateError(
          'A URI template value contains a lone UTF-16 surrogate and cannot be encoded',
        );
      }
      throw error;
    }
  }

  /**
   * Matches a URI against the template and returns its percent-decoded variables, or `undefined`
   * when it does not match or is longer than `maxUriLength`. Variables absent from the URI are
   * absent from the result. Runs in time linear in the URI length.
   *
   * @example
   * ```ts
   * new UriTemplate('test://template/{id}/data').match('test://template/42/data'); // { id: '42' }
   * new UriTemplate('file:///{+path}').match('file:///etc/hosts'); // { path: 'etc/hosts' }
   * new UriTemplate('search{?q,lang}').match('search?lang=en&q=a%20b'); // { lang: 'en', q: 'a b' }
   * ```
   */
  match(uri: string): UriTemplateMatch | undefined {
    if (typeof uri !== 'string' || uri.length > this.#maxUriLength) return undefined;
    const bindings = new Bindings();
    let position = 0;
    for (let p = 0; p < this.#parts.length; p++) {
      const part = this.#parts[p]!;
      if (part.kind === 'literal') {
        if (!uri.startsWith(part.text, position)) return undefined;
        position += part.text.length;
        continue;
      }
      const end = expressionEnd(uri, position, part, this.#boundaries[p]!);
      if (end < position || !matchExpression(part, uri.slice(position, end), bindings)) return undefined;
      position = end;
    }
    return position === uri.length ? bindings.toRecord() : undefined;
  }

  /**
   * The template text.
   *
   * @example
   * ```ts
   * String(new UriTemplate('file:///{+path}')); // 'file:///{+path}'
   * ```
   */
  toString(): string {
    return this.template;
  }
}

function positiveLimit(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`URI template limits must be positive integers (got ${value})`);
  }
  return value;
}

/** RFC 6570 section 2.3: empty lists, and maps with no defined member, count as undefined. */
function isDefinedValue(value: UriTemplateValue | null): value is string | string[] | Record<string, string> {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return true;
  if (Array.isArray(value)) return value.some((item) => item !== undefined && item !== null);
  return Object.values(value).some((item) => item !== undefined && item !== null);
}
